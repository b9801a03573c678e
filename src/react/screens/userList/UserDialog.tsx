// Create or edit a user (fields, rules). Create sends the non-empty fields and `extraProp`
// (POST /user); edit sends the changes with the version it started from. A duplicate username or
// a stale version keeps everything typed: the first is shown under the username, the second offers
// to take the latest version and save again. Changing a phone or email (where a password reset
// goes) asks for the administrator's own password too (server/auth/contact-change.ts).
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import * as v from 'valibot';
import * as users from '../../../core/api/users';
import { updateUser, type AdminUser } from '../../../core/api/user-admin';
import type { Tenant } from '../../../core/api/tenants';
import { Status, UserType } from '../../../core/enums';
import { notifySuccess } from '../../../core/messages';
import { transformPassword } from '../../../core/password';
import { userCreateForm, userUpdateForm } from '../../../core/validation/user';
import { unlessKept } from '../../../core/validation/changed-fields';
import type { AvailabilityStatus } from '../../../core/types';
import { DialogFrame } from '../../dialogs/DialogFrame';
import { useT } from '../../i18n';
import { PasswordField, TextField } from '../../widgets/TextFields';
import { ImageUpload } from '../../widgets/ImageUpload';
import { CheckboxField, SelectField, TextAreaField } from '../../widgets/admin/AdminFields';
import { refusalOf } from '../../widgets/admin/serverErrors';
import { useAdminScope } from '../../widgets/admin/scope';
import { TenantOptions } from '../../widgets/admin/TenantFilter';
import * as styles from '../../widgets/admin/admin.css';
import * as ui from '../../widgets/ui.css';
import { SaveFooter } from '../../widgets/admin/SaveFooter';
import { useFieldRules } from '../../widgets/useFieldRules';
import { useInternationalRulesHint } from '../../widgets/admin/InternationalRulesHint';

/** The form's own controls (selects answer strings) on top of the core's user rules. */
const controls = {
  availabilityStatus: v.picklist([String(Status.Enable), String(Status.Disabled)], 'rule.availabilityStatus'),
  userType: v.picklist([String(UserType.Tenant), String(UserType.Platform)], 'rule.required'),
  tenantId: v.pipe(v.string('rule.required'), v.nonEmpty('rule.required')),
  avatar: v.string(),
  isAdmin: v.boolean(),
  currentPassword: v.optional(v.string()),
};
const createSchema = v.object({ ...userCreateForm.entries, ...controls, username: userCreateForm.entries.username, password: userCreateForm.entries.password });
/** Editing `user`: the stored name and phone pass as they are, a changed one follows the field rules in force. */
const updateSchemaOf = (user: AdminUser) =>
  v.object({
    ...userUpdateForm.entries,
    ...controls,
    realName: unlessKept(user.realName, userUpdateForm.entries.realName),
    mobilePhone: unlessKept(user.mobilePhone, userUpdateForm.entries.mobilePhone),
    username: v.string(),
    password: v.string(),
  });
type Values = v.InferInput<typeof createSchema>;
const editable = ['username', 'password', 'realName', 'email', 'mobilePhone', 'description', 'tenantId', 'currentPassword'] as const;

export interface UserDialogProps {
  user?: AdminUser;
  tenants: readonly Tenant[];
  onClose: () => void;
  onSaved: () => void;
}

function initialValues(user: AdminUser | undefined, defaultTenant: string): Values {
  return {
    username: user?.username ?? '',
    password: '',
    realName: user?.realName ?? '',
    email: user?.email ?? '',
    mobilePhone: user?.mobilePhone ?? '',
    description: user?.description ?? '',
    avatar: user?.avatar ?? '',
    tenantId: user?.tenantId ?? defaultTenant,
    availabilityStatus: String(user?.availabilityStatus ?? Status.Enable),
    userType: String(user?.extraProp.intProperty1 === UserType.Tenant || !user ? UserType.Tenant : UserType.Platform),
    isAdmin: user?.isAdmin ?? false,
    currentPassword: '',
  };
}

export default function UserDialog({ user, tenants, onClose, onSaved }: UserDialogProps) {
  const t = useT();
  // The names and phone numbers below follow the field rules in force (login settings).
  useFieldRules();
  const internationalHint = useInternationalRulesHint();
  const scope = useAdminScope();
  const self = user?.id === scope.userId;
  const defaultTenant = scope.tenantAdmin && scope.tenantId ? scope.tenantId : (tenants.find((tenant) => !tenant.parentId)?.id ?? tenants[0]?.id ?? '');
  const [version, setVersion] = useState(user?.version);
  const [stale, setStale] = useState(false);
  const [failure, setFailure] = useState<string>();
  const { register, handleSubmit, setError, setValue, watch, formState } = useForm<Values>({
    resolver: valibotResolver(user ? updateSchemaOf(user) : createSchema),
    defaultValues: initialValues(user, defaultTenant),
  });
  const { errors, isSubmitting } = formState;
  const userType = Number(watch('userType')) as UserType;
  const contactChanged = !!user && ((watch('email') ?? '').trim() !== (user.email ?? '') || (watch('mobilePhone') ?? '').trim() !== (user.mobilePhone ?? ''));

  const save = async (values: Values) => {
    const availabilityStatus = Number(values.availabilityStatus) as AvailabilityStatus;
    const common = {
      realName: values.realName,
      email: values.email ?? '',
      mobilePhone: values.mobilePhone ?? '',
      description: values.description ?? '',
      avatar: values.avatar,
      tenantId: values.tenantId,
    };
    // Only a platform administrator grants platform rights; nobody changes their own status or rights here.
    const rights = self
      ? {}
      : {
          availabilityStatus,
          isAdmin: values.isAdmin,
          ...(scope.platform ? { isMaster: values.isAdmin && userType !== UserType.Tenant } : {}),
        };
    if (!user) {
      const extraProp = userType === UserType.Tenant ? {} : { intProperty1: userType };
      return users.create({ ...common, ...rights, username: values.username, password: values.password, extraProp });
    }
    const extraProp = scope.platform && !self ? { extraProp: { ...user.extraProp, intProperty1: userType } } : {};
    const proof = contactChanged && values.currentPassword ? { currentPassword: await transformPassword(values.currentPassword) } : {};
    return updateUser(user.id, { ...common, ...rights, ...extraProp, ...proof, version: version ?? 1 });
  };

  const onSubmit = handleSubmit(async (values) => {
    setFailure(undefined);
    try {
      await save(values);
    } catch (error) {
      const refusal = refusalOf(error);
      setStale(refusal.stale);
      refusal.fields.forEach(({ field, message }) => {
        const name = editable.find((candidate) => candidate === field);
        if (name) setError(name, { type: 'server', message });
      });
      if (refusal.message) setFailure(refusal.message);
      return;
    }
    notifySuccess(t(user ? 'admin:done.userSaved' : 'admin:done.userCreated', { name: values.username }));
    onSaved();
    onClose();
  });

  const takeLatest = async () => {
    if (!user) return;
    try {
      setVersion((await users.get(user.id)).version);
      setStale(false);
    } catch {
      // shown by the HTTP client
    }
  };

  return (
    <DialogFrame open onOpenChange={(open) => !open && onClose()} title={t(user ? 'admin:user.editTitle' : 'admin:user.createTitle')}>
      <form className={ui.form} noValidate onSubmit={(event) => void onSubmit(event)}>
        <div className={styles.formGrid}>
          <TextField
            label={t('admin:user.username')}
            required={!user}
            readOnly={!!user}
            autoComplete="off"
            hint={internationalHint(errors.username?.message, watch('username'))}
            error={errors.username?.message}
            registration={register('username')}
          />
          <TextField
            label={t('admin:user.realName')}
            required
            autoComplete="off"
            hint={internationalHint(errors.realName?.message, watch('realName'))}
            error={errors.realName?.message}
            registration={register('realName')}
          />
          {!user && (
            <div className={styles.full}>
              <PasswordField
                label={t('admin:user.password')}
                required
                autoComplete="new-password"
                hint={t('rule.password')}
                error={errors.password?.message}
                registration={register('password')}
              />
            </div>
          )}
          <TextField label={t('admin:user.email')} type="email" autoComplete="off" error={errors.email?.message} registration={register('email')} />
          <TextField
            label={t('admin:user.mobilePhone')}
            type="tel"
            inputMode="tel"
            autoComplete="off"
            hint={internationalHint(errors.mobilePhone?.message, watch('mobilePhone'))}
            error={errors.mobilePhone?.message}
            registration={register('mobilePhone')}
          />
          {contactChanged && (
            <div className={styles.full}>
              <PasswordField
                label={t('admin:user.yourPassword')}
                hint={t('admin:user.yourPasswordHint')}
                required
                autoComplete="current-password"
                error={errors.currentPassword?.message}
                registration={register('currentPassword')}
              />
            </div>
          )}
          <SelectField label={t('admin:user.tenant')} required error={errors.tenantId?.message} registration={register('tenantId')}>
            <TenantOptions tenants={tenants} />
          </SelectField>
          {!self && (
            <SelectField label={t('admin:user.status')} registration={register('availabilityStatus')}>
              <option value={Status.Enable}>{t('admin:status.enabled')}</option>
              <option value={Status.Disabled}>{t('admin:status.disabled')}</option>
            </SelectField>
          )}
          {scope.platform && !self && (
            <SelectField label={t('admin:user.userType')} registration={register('userType')}>
              <option value={UserType.Tenant}>{t('admin:userType.tenant')}</option>
              <option value={UserType.Platform}>{t('admin:userType.platform')}</option>
            </SelectField>
          )}
          {!self && (
            <div className={styles.full}>
              <CheckboxField
                label={t(userType === UserType.Tenant ? 'admin:user.tenantAdmin' : 'admin:user.platformAdmin')}
                registration={register('isAdmin')}
              />
            </div>
          )}
          <div className={styles.full}>
            <TextAreaField label={t('admin:user.description')} error={errors.description?.message} registration={register('description')} />
          </div>
          <div className={styles.full}>
            <ImageUpload
              label={t('admin:user.avatar')}
              purpose="avatar"
              hint={t('upload.avatarType')}
              value={watch('avatar')}
              onChange={(url) => setValue('avatar', url, { shouldDirty: true })}
            />
          </div>
        </div>
        {stale && (
          <div className={ui.formError} role="alert">
            <p>{t('admin:user.stale')}</p>
            <button type="button" className={ui.button.secondary} onClick={() => void takeLatest()}>
              {t('admin:user.takeLatest')}
            </button>
          </div>
        )}
        <SaveFooter failure={failure} busy={isSubmitting} onCancel={onClose} />
      </form>
    </DialogFrame>
  );
}
