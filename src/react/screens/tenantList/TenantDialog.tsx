// Create a sub-tenant under a parent, or edit (rename, type, description) a tenant. The tenant
// name rule; a refused save keeps what was typed and shows why.
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import * as v from 'valibot';
import * as tenantApi from '../../../core/api/tenants';
import type { Tenant } from '../../../core/api/tenants';
import { TenantType } from '../../../core/enums';
import { notifySuccess } from '../../../core/messages';
import { optionalField, rules } from '../../../core/validation';
import { fieldRule } from '../../../core/validation/field-rules';
import { DialogFrame } from '../../dialogs/DialogFrame';
import { useT } from '../../i18n';
import { TextField } from '../../widgets/TextFields';
import { SelectField, TextAreaField } from '../../widgets/admin/AdminFields';
import { refusalOf } from '../../widgets/admin/serverErrors';
import * as ui from '../../widgets/ui.css';
import { SaveFooter } from '../../widgets/admin/SaveFooter';
import { useFieldRules } from '../../widgets/useFieldRules';
import { useInternationalRulesHint } from '../../widgets/admin/InternationalRulesHint';

const types = Object.values(TenantType).filter((type) => type !== TenantType.Root);
const schema = v.object({
  name: fieldRule.tenantName,
  type: v.picklist(types, 'rule.required'),
  description: optionalField(rules.description),
});
type Values = v.InferInput<typeof schema>;
const fields = ['name', 'type', 'description'] as const;

export interface TenantDialogProps {
  /** Create: the new tenant's parent. */
  parent?: Tenant;
  /** Edit: the tenant. */
  tenant?: Tenant;
  onClose: () => void;
  onSaved: (tenant: Tenant) => void;
}

export default function TenantDialog({ parent, tenant, onClose, onSaved }: TenantDialogProps) {
  const t = useT();
  // The names and phone numbers below follow the field rules in force (login settings).
  useFieldRules();
  const internationalHint = useInternationalRulesHint();
  const [failure, setFailure] = useState<string>();
  const { register, handleSubmit, setError, watch, formState } = useForm<Values>({
    resolver: valibotResolver(schema),
    defaultValues: {
      name: tenant?.name ?? '',
      type: (tenant?.type as Values['type'] | undefined) ?? TenantType.Company,
      description: tenant?.description ?? '',
    },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(async (values) => {
    setFailure(undefined);
    let saved: Tenant;
    try {
      saved = tenant
        ? await tenantApi.update(tenant.id, { ...values, description: values.description ?? '', version: tenant.version })
        : await tenantApi.create({
            parentId: parent?.id ?? '',
            name: values.name,
            type: values.type,
            ...(values.description ? { description: values.description } : {}),
          });
    } catch (error) {
      const refusal = refusalOf(error);
      refusal.fields.forEach(({ field, message }) => {
        const name = fields.find((candidate) => candidate === field);
        if (name) setError(name, { type: 'server', message });
      });
      setFailure(refusal.stale ? t('admin:tenant.stale') : refusal.message);
      return;
    }
    notifySuccess(t(tenant ? 'admin:done.tenantSaved' : 'admin:done.tenantCreated', { name: values.name }));
    onSaved(saved);
    onClose();
  });

  const title = tenant ? t('admin:tenant.editTitle') : t('admin:tenant.createTitle', { parent: parent?.name ?? '' });
  return (
    <DialogFrame open onOpenChange={(open) => !open && onClose()} title={title}>
      <form className={ui.form} noValidate onSubmit={(event) => void onSubmit(event)}>
        <TextField
          label={t('admin:tenant.name')}
          required
          autoComplete="off"
          hint={internationalHint(errors.name?.message, watch('name'))}
          error={errors.name?.message}
          registration={register('name')}
        />
        <SelectField label={t('admin:tenant.type')} required error={errors.type?.message} registration={register('type')}>
          {types.map((type) => (
            <option key={type} value={type}>
              {t(`tenantType.${type}`)}
            </option>
          ))}
        </SelectField>
        <TextAreaField label={t('admin:tenant.description')} error={errors.description?.message} registration={register('description')} />
        <SaveFooter failure={failure} busy={isSubmitting} onCancel={onClose} />
      </form>
    </DialogFrame>
  );
}
