// The reset password dialog, in two modes:
// - self: old password, new password (show/hide), confirmation; success signs out and goes to /login;
// - user: an administrator resets another user's password with their own password.
// Passwords are checked by the policy, then trimmed and transformed by the core before sending.
import { useMemo } from 'react';
import { useForm, type UseFormRegisterReturn } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import { useStore } from '../store';
import * as users from '../../core/api/users';
import { notifySuccess } from '../../core/messages';
import { requestNavigation } from '../../core/navigation';
import { LOGIN_PATH } from '../../core/routes';
import { $session, logout } from '../../core/session';
import { adminResetForm, selfPasswordForm, type AdminResetFormInput, type SelfPasswordFormInput } from '../../core/validation';
import { useT } from '../i18n';
import { PasswordField, TextField } from '../widgets/TextFields';
import * as ui from '../widgets/ui.css';
import { DialogFrame } from './DialogFrame';
import { showServerFieldErrors } from './fieldErrors';
import { usePasswordPolicy, withPasswordPolicy } from './passwordPolicy';

export type PasswordMode = 'self' | 'user';

export interface PasswordDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  mode: PasswordMode;
  /** User mode: whose password is reset. */
  userId?: string;
  username?: string;
  /** After a successful change (self mode: before signing out). */
  onChanged?: (detail: { userId: string; mode: PasswordMode }) => void;
}

export default function PasswordDialog(props: PasswordDialogProps) {
  const t = useT();
  const title = props.mode === 'self' ? t('console:password.titleSelf') : t('console:password.titleUser');
  return (
    <DialogFrame open={props.open} onOpenChange={props.onOpenChange} title={title} size="small">
      {props.mode === 'self' ? <SelfForm {...props} /> : <UserForm {...props} />}
    </DialogFrame>
  );
}

function Actions({ busy, onCancel }: { busy: boolean; onCancel: () => void }) {
  const t = useT();
  return (
    <div className={ui.actions}>
      <button type="button" className={ui.button.secondary} onClick={onCancel}>
        {t('console:action.cancel')}
      </button>
      <button type="submit" className={ui.button.primary} disabled={busy} part="primary-button">
        {t('console:action.confirm')}
      </button>
    </div>
  );
}

/** A password field of a form: its message and its registration. */
interface Registered {
  error: string | undefined;
  registration: UseFormRegisterReturn;
}

/** Both modes' passwords: the one proving who asks (one's own, or the administrator's), then the
 *  new one (with the policy's hint) and its confirmation. */
function PasswordFields({
  proofLabel,
  proof,
  newPassword,
  confirmPassword,
}: {
  proofLabel: string;
  proof: Registered;
  newPassword: Registered;
  confirmPassword: Registered;
}) {
  const t = useT();
  return (
    <>
      <PasswordField label={proofLabel} required autoComplete="current-password" {...proof} />
      <PasswordField label={t('console:password.newPassword')} required autoComplete="new-password" hint={t('rule.password')} {...newPassword} />
      <PasswordField label={t('console:password.confirmPassword')} required autoComplete="new-password" {...confirmPassword} />
    </>
  );
}

function SelfForm({ onOpenChange, onChanged }: PasswordDialogProps) {
  const t = useT();
  const userId = useStore($session).user?.id;
  const policy = usePasswordPolicy();
  const resolver = useMemo(() => withPasswordPolicy(valibotResolver(selfPasswordForm), policy, 'newPassword'), [policy]);
  const { register, handleSubmit, setError, formState } = useForm<SelfPasswordFormInput>({
    resolver,
    defaultValues: { oldPassword: '', newPassword: '', confirmPassword: '' },
  });
  const { errors, isSubmitting } = formState;
  const field = (name: keyof SelfPasswordFormInput): Registered => ({ error: errors[name]?.message, registration: register(name) });

  const onSubmit = handleSubmit(async ({ oldPassword, newPassword }) => {
    if (!userId) return;
    try {
      await users.resetOwnPassword({ userId, oldPassword, newPassword });
    } catch (error) {
      showServerFieldErrors(error, { opUserPassword: 'oldPassword', password: 'newPassword' }, setError);
      return;
    }
    notifySuccess(t('console:done.passwordChanged'));
    onChanged?.({ userId, mode: 'self' });
    onOpenChange(false);
    // The server has ended every session of this user: sign out here too and start again at /login.
    const target = await logout();
    if (target !== LOGIN_PATH) requestNavigation(LOGIN_PATH);
  });

  return (
    <form className={ui.form} noValidate onSubmit={(event) => void onSubmit(event)}>
      <PasswordFields
        proofLabel={t('console:password.oldPassword')}
        proof={field('oldPassword')}
        newPassword={field('newPassword')}
        confirmPassword={field('confirmPassword')}
      />
      <Actions busy={isSubmitting} onCancel={() => onOpenChange(false)} />
    </form>
  );
}

function UserForm({ onOpenChange, onChanged, userId, username = '' }: PasswordDialogProps) {
  const t = useT();
  const policy = usePasswordPolicy();
  const resolver = useMemo(() => withPasswordPolicy(valibotResolver(adminResetForm), policy, 'newPassword'), [policy]);
  const { register, handleSubmit, setError, formState } = useForm<AdminResetFormInput>({
    resolver,
    defaultValues: { username, adminPassword: '', newPassword: '', confirmPassword: '' },
  });
  const { errors, isSubmitting } = formState;
  const field = (name: keyof AdminResetFormInput): Registered => ({ error: errors[name]?.message, registration: register(name) });

  const onSubmit = handleSubmit(async ({ adminPassword, newPassword }) => {
    if (!userId) return;
    try {
      await users.resetPasswordAsAdmin({ id: userId, username, newPassword, adminPassword });
    } catch (error) {
      showServerFieldErrors(error, { opUserPassword: 'adminPassword', password: 'newPassword' }, setError);
      return;
    }
    notifySuccess(t('console:done.passwordSet', { name: username }));
    onChanged?.({ userId, mode: 'user' });
    onOpenChange(false);
  });

  return (
    <form className={ui.form} noValidate onSubmit={(event) => void onSubmit(event)}>
      <TextField label={t('console:password.username')} readOnly registration={register('username')} autoComplete="off" />
      <PasswordFields
        proofLabel={t('console:password.adminPassword')}
        proof={field('adminPassword')}
        newPassword={field('newPassword')}
        confirmPassword={field('confirmPassword')}
      />
      <Actions busy={isSubmitting} onCancel={() => onOpenChange(false)} />
    </form>
  );
}
