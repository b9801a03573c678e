// A new SCIM token: its tenant (one of my scope) and its name, checked by the same rule as the
// server (scimTokenName of src/core/schemas/scim-tokens.ts), and the maker's current password (the
// server re-checks it: a borrowed session alone makes no token); a refusal keeps what was typed.
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import * as v from 'valibot';
import * as scimApi from '../../../core/api/scim-tokens';
import type { ScimTokenCreated } from '../../../core/api/scim-tokens';
import * as tenantApi from '../../../core/api/tenants';
import { transformPassword } from '../../../core/password';
import { rules } from '../../../core/validation';
import { scimTokenName } from '../../../core/schemas/scim-tokens';
import { DialogFrame } from '../../dialogs/DialogFrame';
import { useT } from '../../i18n';
import { PasswordField, TextField } from '../../widgets/TextFields';
import { SelectField } from '../../widgets/admin/AdminFields';
import { SaveFooter } from '../../widgets/admin/SaveFooter';
import { TenantOptions } from '../../widgets/admin/TenantFilter';
import { useAdminScope } from '../../widgets/admin/scope';
import { refusalOf } from '../../widgets/admin/serverErrors';
import { useResource } from '../../widgets/useResource';
import * as ui from '../../widgets/ui.css';

const schema = v.object({
  tenantId: v.pipe(v.string('rule.required'), v.nonEmpty('rule.required')),
  name: scimTokenName,
  currentPassword: rules.currentPassword,
});
type Values = v.InferInput<typeof schema>;
const fields = ['tenantId', 'name', 'currentPassword'] as const;

export default function TokenDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (created: ScimTokenCreated) => void }) {
  const t = useT();
  const scope = useAdminScope();
  const tree = useResource(tenantApi.tree, []);
  const [failure, setFailure] = useState<string>();
  const { register, handleSubmit, setError, formState } = useForm<Values>({
    resolver: valibotResolver(schema),
    defaultValues: { tenantId: scope.tenantAdmin ? (scope.tenantId ?? '') : '', name: '', currentPassword: '' },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(async (values) => {
    setFailure(undefined);
    let created: ScimTokenCreated;
    try {
      created = await scimApi.create({ ...values, currentPassword: await transformPassword(values.currentPassword) });
    } catch (error) {
      const refusal = refusalOf(error);
      refusal.fields.forEach(({ field, message }) => {
        const name = fields.find((candidate) => candidate === field);
        if (name) setError(name, { type: 'server', message });
      });
      setFailure(refusal.message);
      return;
    }
    onClose();
    onCreated(created);
  });

  return (
    <DialogFrame open onOpenChange={(open) => !open && onClose()} title={t('admin:scim.createTitle')}>
      <form className={ui.form} noValidate onSubmit={(event) => void onSubmit(event)}>
        <SelectField
          label={t('admin:scim.tenant')}
          hint={t('admin:scim.tenantHint')}
          required
          error={errors.tenantId?.message}
          registration={register('tenantId')}
        >
          <option value="" disabled>
            {tree.data ? '—' : t('console:loading')}
          </option>
          <TenantOptions tenants={tree.data ?? []} />
        </SelectField>
        <TextField
          label={t('admin:scim.name')}
          hint={t('admin:scim.nameHint')}
          required
          autoComplete="off"
          error={errors.name?.message}
          registration={register('name')}
        />
        <PasswordField
          label={t('admin:scim.yourPassword')}
          hint={t('admin:scim.yourPasswordHint')}
          required
          autoComplete="current-password"
          error={errors.currentPassword?.message}
          registration={register('currentPassword')}
        />
        <SaveFooter failure={failure} busy={isSubmitting} onCancel={onClose} />
      </form>
    </DialogFrame>
  );
}
