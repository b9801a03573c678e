// The next step PASSWORD_EXPIRED (loaded lazily): the password the person signed in with has
// expired (the login settings' passwordPolicy.expiryDays), so they choose a new one. The old
// password they just typed and the new one go to PUT /authc/password/expired, which the server
// allows only right after that sign-in passed every step; it opens the session.
import { useId, useState, type FormEvent } from 'react';
import { changeExpiredPassword } from '../../core/api/auth';
import { PasswordPolicyError, transformNewPassword, transformPassword } from '../../core/password';
import type { PasswordPolicy } from '../../core/schemas/settings';
import { finishSignIn, type LoginResult } from '../../core/session';
import { useT, useTexts, useTRule } from '../i18n';
import { checkFields, failureText, serverFieldErrors, type RuleErrors } from './flowSupport';
import { FailureAlert } from './flowParts';
import { NEW_PASSWORD, NewPasswordFields, newPasswordRules } from './NewPasswordFields';
import * as styles from './LoginForm.css';

export interface ExpiredPasswordFormProps {
  username: string;
  /** The expired password as typed at the sign-in. */
  password: string;
  policy: PasswordPolicy | undefined;
  onSuccess: (result: Extract<LoginResult, { kind: 'success' }>) => void;
  onError: (message: string) => void;
  onCancel: () => void;
}

export default function ExpiredPasswordForm({ username, password, policy, onSuccess, onError, onCancel }: ExpiredPasswordFormProps) {
  const t = useT();
  const tRule = useTRule();
  const ready = useTexts(undefined, 'login', 'settings');
  const titleId = useId();
  const [errors, setErrors] = useState<RuleErrors>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);

  if (!ready) return null;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const { values, errors: found } = checkFields(form, newPasswordRules(policy, form));
    setErrors(found);
    if (!values) return;
    setFailure(undefined);
    setBusy(true);
    try {
      const answer = await changeExpiredPassword({ username, password: await transformPassword(password), newPassword: await transformNewPassword(values[NEW_PASSWORD]) });
      onSuccess(await finishSignIn(answer));
    } catch (error) {
      // The server's `password` field here is the new password (e.g. one used before).
      const fields = serverFieldErrors(error, { password: NEW_PASSWORD, newPassword: NEW_PASSWORD });
      if (fields) {
        setErrors(fields);
        return;
      }
      const text = error instanceof PasswordPolicyError ? tRule(error.message) : failureText(error);
      setFailure(text);
      onError(text);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.title}>
        {t('login:expired.title')}
      </h2>
      <form className={styles.form} noValidate onSubmit={(event) => void onSubmit(event)}>
        <p className={styles.hint}>{t('login:expired.intro', { username })}</p>
        <NewPasswordFields errors={errors} />
        <FailureAlert text={failure} />
        <button type="submit" className={styles.submit} disabled={busy}>
          {t(busy ? 'login:submitting' : 'login:expired.submit')}
        </button>
        <button type="button" className={styles.linkButton} onClick={onCancel}>
          {t('login:expired.cancel')}
        </button>
      </form>
    </section>
  );
}
