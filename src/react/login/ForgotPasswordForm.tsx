// "Forgot password?" on the sign-in page (loaded lazily): the account's email address or mobile
// phone, a code sent to it (by email or SMS), then the code and a new password (and the login
// settings' policy, checked before the transform). The server answers alike whether or not the
// account exists, so the form says only where a code goes if there is an account. `onDone(true)`
// after the reset: the sign-in form says so.
import { useId, useState, type FormEvent } from 'react';
import { resetPasswordWithCode, sendResetCode } from '../../core/api/codes';
import { PasswordPolicyError } from '../../core/password';
import { resetChannelOf, resetCode, resetIdentifierWith } from '../../core/schemas/password-reset';
import { fieldRules, type FieldRulesMode } from '../../core/validation/field-rules';
import type { PasswordPolicy } from '../../core/schemas/settings';
import { useT, useTexts, useTRule } from '../i18n';
import { Field } from './Field';
import { checkFields, failureText, RESEND_SECONDS, serverFieldErrors, useCooldown, type RuleErrors } from './flowSupport';
import { CodeField, FailureAlert } from './flowParts';
import { NEW_PASSWORD, NewPasswordFields, newPasswordRules } from './NewPasswordFields';
import * as styles from './LoginForm.css';

export interface ForgotPasswordFormProps {
  /** The login settings' password policy (undefined: the rule alone). */
  policy: PasswordPolicy | undefined;
  /** The field rules in force: a phone number is read by their phone rule. */
  rules: FieldRulesMode;
  /** Back to the sign-in; `changed` after a successful reset. */
  onDone: (changed: boolean) => void;
}

export default function ForgotPasswordForm({ policy, rules, onDone }: ForgotPasswordFormProps) {
  const t = useT();
  const tRule = useTRule();
  const ready = useTexts(undefined, 'login', 'settings');
  const titleId = useId();
  /** The identifier a code was asked for (the second form is shown from then on). */
  const [identifier, setIdentifier] = useState<string>();
  const [errors, setErrors] = useState<RuleErrors>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [left, startCooldown] = useCooldown(RESEND_SECONDS);
  const message = (name: string) => (errors[name] ? tRule(errors[name]) : undefined);

  if (!ready) return null;

  const run = async (action: () => Promise<void>) => {
    setFailure(undefined);
    setBusy(true);
    try {
      await action();
    } catch (error) {
      const fields = serverFieldErrors(error, { password: NEW_PASSWORD });
      if (fields) setErrors(fields);
      else setFailure(error instanceof PasswordPolicyError ? tRule(error.message) : failureText(error));
    } finally {
      setBusy(false);
    }
  };

  const send = (to: string) =>
    run(async () => {
      await sendResetCode(to);
      setIdentifier(to);
      startCooldown();
    });

  const onAsk = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { values, errors: found } = checkFields(event.currentTarget, { identifier: resetIdentifierWith(fieldRules(rules).mobilePhone) });
    setErrors(found);
    if (values) void send(values.identifier);
  };

  const onReset = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const { values, errors: found } = checkFields(form, { code: resetCode, ...newPasswordRules(policy, form) });
    setErrors(found);
    if (!values || !identifier) return;
    void run(async () => {
      await resetPasswordWithCode(identifier, values.code, values[NEW_PASSWORD]);
      onDone(true);
    });
  };

  return (
    <section aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.title}>
        {t('login:forgot.title')}
      </h2>
      {identifier === undefined ? (
        <form className={styles.form} noValidate onSubmit={onAsk}>
          <p className={styles.hint}>{t('login:forgot.intro')}</p>
          <Field
            label={t('login:forgot.identifier')}
            error={message('identifier')}
            input={{
              name: 'identifier',
              type: 'text',
              autoComplete: 'username',
              autoCapitalize: 'none',
              spellCheck: false,
              placeholder: t('login:forgot.identifierPlaceholder'),
            }}
          />
          <FailureAlert text={failure} />
          <button type="submit" className={styles.submit} disabled={busy}>
            {t('login:sendCode')}
          </button>
          <button type="button" className={styles.linkButton} onClick={() => onDone(false)}>
            {t('login:forgot.back')}
          </button>
        </form>
      ) : (
        <form className={styles.form} noValidate onSubmit={onReset}>
          <p role="status" className={styles.hint}>
            {t('login:forgot.codeSent', { address: identifier, channel: t(`login:forgot.channel${resetChannelOf(identifier)}`) })}
          </p>
          <CodeField error={message('code')} placeholder={t('login:forgot.codePlaceholder')} busy={busy} left={left} onSend={() => void send(identifier)} />
          <NewPasswordFields errors={errors} />
          <FailureAlert text={failure} />
          <button type="submit" className={styles.submit} disabled={busy}>
            {t('login:forgot.submit')}
          </button>
          <button type="button" className={styles.linkButton} onClick={() => onDone(false)}>
            {t('login:forgot.back')}
          </button>
        </form>
      )}
    </section>
  );
}
