// Create or edit a role: the role-name rule, a description, its privileges chosen from the
// app's tree, and its members. A refused save keeps everything chosen and says why.
import { useCallback, useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import type * as v from 'valibot';
import * as appApi from '../../../core/api/apps';
import type { Privilege, Role } from '../../../core/api/apps';
import { notifySuccess } from '../../../core/messages';
import { roleCreateBody } from '../../../core/schemas/resources';
import { DialogFrame } from '../../dialogs/DialogFrame';
import { useT } from '../../i18n';
import { TextField } from '../../widgets/TextFields';
import { CheckTree } from '../../widgets/admin/CheckTree';
import { TextAreaField } from '../../widgets/admin/AdminFields';
import { MemberPicker, type Person } from '../../widgets/admin/MemberPicker';
import { refusalOf } from '../../widgets/admin/serverErrors';
import * as styles from '../../widgets/admin/admin.css';
import * as ui from '../../widgets/ui.css';
import { SaveFooter } from '../../widgets/admin/SaveFooter';
import { useFieldRules } from '../../widgets/useFieldRules';

type Values = v.InferInput<typeof roleCreateBody>;
const formFields = ['name', 'description'] as const;

export interface RoleDialogProps {
  appId: string;
  role?: Role;
  onClose: () => void;
  onSaved: () => void;
}

export default function RoleDialog({ appId, role, onClose, onSaved }: RoleDialogProps) {
  const t = useT();
  // The names and phone numbers below follow the field rules in force (login settings).
  useFieldRules();
  const [tree, setTree] = useState<Privilege[]>();
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [members, setMembers] = useState<Person[]>([]);
  const [failure, setFailure] = useState<string>();
  const { register, handleSubmit, setError, formState } = useForm<Values>({
    resolver: valibotResolver(roleCreateBody),
    defaultValues: { name: role?.name ?? '', description: role?.description ?? '' },
  });
  const { errors, isSubmitting } = formState;

  useEffect(() => {
    let live = true;
    const loads = [
      appApi.privileges(appId),
      role ? appApi.rolePrivileges(appId, role.id) : Promise.resolve([]),
      role ? appApi.roleMembers(appId, role.id) : Promise.resolve([]),
    ] as const;
    Promise.all(loads).then(
      ([nodes, held, people]) => {
        if (!live) return;
        setTree(nodes);
        setChecked(new Set(held));
        setMembers(people);
      },
      () => undefined, // shown by the HTTP client
    );
    return () => {
      live = false;
    };
  }, [appId, role]);

  const search = useCallback((text: string) => appApi.lookupMembers(appId, text), [appId]);

  const onSubmit = handleSubmit(async (values) => {
    setFailure(undefined);
    try {
      const fields = { name: values.name, description: values.description ?? '' };
      const saved = role ? await appApi.updateRole(appId, role.id, { ...fields, version: role.version }) : await appApi.createRole(appId, fields);
      await appApi.setRolePrivileges(appId, saved.id, [...checked]);
      await appApi.setRoleMembers(
        appId,
        saved.id,
        members.map((person) => person.id),
      );
    } catch (error) {
      const refusal = refusalOf(error);
      refusal.fields.forEach(({ field, message }) => {
        const name = formFields.find((candidate) => candidate === field);
        if (name) setError(name, { type: 'server', message: message === 'admin:rule.duplicate' ? 'admin:rule.roleTaken' : message });
      });
      if (refusal.stale) setFailure(t('admin:role.stale'));
      else if (refusal.message) setFailure(refusal.message);
      return;
    }
    notifySuccess(t(role ? 'admin:done.roleSaved' : 'admin:done.roleCreated', { name: values.name }));
    onSaved();
    onClose();
  });

  return (
    <DialogFrame open onOpenChange={(open) => !open && onClose()} title={t(role ? 'admin:role.editTitle' : 'admin:role.createTitle')}>
      <form className={ui.form} noValidate onSubmit={(event) => void onSubmit(event)}>
        <TextField label={t('admin:role.name')} required autoComplete="off" error={errors.name?.message} registration={register('name')} />
        <TextAreaField label={t('admin:role.description')} error={errors.description?.message} registration={register('description')} />
        {!tree ? (
          <p role="status">{t('console:loading')}</p>
        ) : tree.length ? (
          <CheckTree
            label={t('admin:role.privileges')}
            hint={t('admin:role.privilegesHint')}
            nodes={tree}
            labelOf={(node) => `${node.name} (${node.key})`}
            checked={checked}
            onChange={setChecked}
          />
        ) : (
          <p className={ui.muted}>{t('admin:privilege.empty')}</p>
        )}
        <div className={styles.stack}>
          <span className={styles.controlLabel}>{t('admin:role.members')}</span>
          <MemberPicker label={t('admin:role.members')} members={members} onChange={setMembers} search={search} />
        </div>
        <SaveFooter failure={failure} busy={isSubmitting || !tree} onCancel={onClose} />
      </form>
    </DialogFrame>
  );
}
