// The next step PASSWORD_EXPIRED (loaded lazily): the password the person signed in with has
// expired (the login settings' passwordPolicy.expiryDays), so they choose a new one. The old
// password they just typed and the new one go to PUT /authc/password/expired with the sign-in's
// step ticket, which the server gave only to this client once every step passed; it opens the session.
import { changeExpiredPassword } from '../../core/api/auth';
import { PasswordPolicyError, transformNewPassword, transformPassword } from '../../core/password';
import type { PasswordPolicy } from '../../core/schemas/settings';
import { finishSignIn, type LoginResult } from '../../core/session';
import { useT, useTexts, useTRule } from '../i18n';
import { failureText, serverFieldErrors, useStepForm } from './flowSupport';
import { StepForm } from './flowParts';
import { NEW_PASSWORD, NewPasswordFields, newPasswordRules } from './NewPasswordFields';

export interface ExpiredPasswordFormProps {
  username: string;
  /** The expired password as typed at the sign-in. */
  password: string;
  /** The sign-in's grant of this change (only this client holds it). */
  stepTicket: string;
  policy: PasswordPolicy | undefined;
  onSuccess: (result: Extract<LoginResult, { kind: 'success' }>) => void;
  onError: (message: string) => void;
  onCancel: () => void;
}

export default function ExpiredPasswordForm({ username, password, stepTicket, policy, onSuccess, onError, onCancel }: ExpiredPasswordFormProps) {
  const t = useT();
  const tRule = useTRule();
  const ready = useTexts(undefined, 'login', 'settings');
  const { errors, failure, busy, submit } = useStepForm(onError);

  if (!ready) return null;

  const onSubmit = submit(
    (form) => newPasswordRules(policy, form),
    async (values) => {
      const answer = await changeExpiredPassword({
        stepTicket,
        username,
        password: await transformPassword(password),
        newPassword: await transformNewPassword(values[NEW_PASSWORD]),
      });
      onSuccess(await finishSignIn(answer));
    },
    // The server's `password` field here is the new password (e.g. one used before).
    (error) =>
      serverFieldErrors(error, { password: NEW_PASSWORD, newPassword: NEW_PASSWORD }) ??
      (error instanceof PasswordPolicyError ? tRule(error.message) : failureText(error)),
  );

  return (
    <StepForm
      title={t('login:expired.title')}
      intro={t('login:expired.intro', { username })}
      submitLabel={t('login:expired.submit')}
      cancelLabel={t('login:expired.cancel')}
      busy={busy}
      failure={failure}
      onSubmit={onSubmit}
      onCancel={onCancel}
    >
      <NewPasswordFields errors={errors} />
    </StepForm>
  );
}
