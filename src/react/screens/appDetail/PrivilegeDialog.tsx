// Add or edit a privilege node: name, key (safe code), parent (not inside itself), sort and path.
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import * as v from 'valibot';
import * as appApi from '../../../core/api/apps';
import type { Privilege } from '../../../core/api/apps';
import { notifySuccess } from '../../../core/messages';
import { privilegeBody } from '../../../core/schemas/privileges';
import { DialogFrame } from '../../dialogs/DialogFrame';
import { useT } from '../../i18n';
import { TextField } from '../../widgets/TextFields';
import { SelectField } from '../../widgets/admin/AdminFields';
import { refusalOf } from '../../widgets/admin/serverErrors';
import { TreeOptions } from '../../widgets/admin/TenantFilter';
import * as ui from '../../widgets/ui.css';
import { SaveFooter } from '../../widgets/admin/SaveFooter';

/** The form's text controls on top of the shared privilege rules: '' parent means the top level. */
const schema = v.object({
  ...privilegeBody.entries,
  parentId: v.string(),
  sort: v.pipe(v.string(), v.regex(/^\d{0,7}$/, 'rule.positiveInteger')),
});
type Values = v.InferInput<typeof schema>;
const fields = ['name', 'key', 'parentId', 'sort', 'path'] as const;

export interface PrivilegeDialogProps {
  appId: string;
  nodes: readonly Privilege[];
  /** Edit this node; else create one under `parentId`. */
  node?: Privilege;
  parentId?: string | null;
  onClose: () => void;
  onSaved: (node: Privilege) => void;
}

export default function PrivilegeDialog({ appId, nodes, node, parentId = null, onClose, onSaved }: PrivilegeDialogProps) {
  const t = useT();
  const [failure, setFailure] = useState<string>();
  const { register, handleSubmit, setError, formState } = useForm<Values>({
    resolver: valibotResolver(schema),
    defaultValues: {
      name: node?.name ?? '',
      key: node?.key ?? '',
      parentId: node ? (node.parentId ?? '') : (parentId ?? ''),
      sort: String(node?.sort ?? ''),
      path: node?.path ?? '',
    },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(async (values) => {
    setFailure(undefined);
    const body = {
      name: values.name,
      key: values.key,
      parentId: values.parentId || null,
      path: values.path ?? '',
      ...(values.sort ? { sort: Number(values.sort) } : {}),
    };
    let saved: Privilege;
    try {
      saved = node ? await appApi.updatePrivilege(appId, node.id, body) : await appApi.addPrivilege(appId, body);
    } catch (error) {
      const refusal = refusalOf(error);
      refusal.fields.forEach(({ field, message }) => {
        const name = fields.find((candidate) => candidate === field);
        if (name) setError(name, { type: 'server', message: field === 'key' && message === 'admin:rule.duplicate' ? 'admin:rule.keyTaken' : message });
      });
      if (refusal.message) setFailure(refusal.message);
      return;
    }
    notifySuccess(t(node ? 'admin:done.privilegeSaved' : 'admin:done.privilegeCreated', { name: values.name }));
    onSaved(saved);
    onClose();
  });

  return (
    <DialogFrame open onOpenChange={(open) => !open && onClose()} title={t(node ? 'admin:privilege.editTitle' : 'admin:privilege.createTitle')}>
      <form className={ui.form} noValidate onSubmit={(event) => void onSubmit(event)}>
        <TextField label={t('admin:privilege.name')} required autoComplete="off" error={errors.name?.message} registration={register('name')} />
        <TextField
          label={t('admin:privilege.key')}
          required
          autoComplete="off"
          hint={t('rule.privilegeKey')}
          error={errors.key?.message}
          registration={register('key')}
        />
        <SelectField label={t('admin:privilege.parent')} error={errors.parentId?.message} registration={register('parentId')}>
          <option value="">{t('admin:privilege.topLevel')}</option>
          <TreeOptions nodes={nodes} labelOf={(each) => each.name} exclude={node?.id} />
        </SelectField>
        <TextField label={t('admin:privilege.sort')} inputMode="numeric" autoComplete="off" error={errors.sort?.message} registration={register('sort')} />
        <TextField
          label={t('admin:privilege.path')}
          autoComplete="off"
          hint={t('admin:privilege.pathHint')}
          error={errors.path?.message}
          registration={register('path')}
        />
        <SaveFooter failure={failure} busy={isSubmitting} onCancel={onClose} />
      </form>
    </DialogFrame>
  );
}
