// The second step after a first factor that cannot be sent again (loaded lazily): the phone code
// form and the way back from a third-party provider (/infoComplete) show it when the sign-in
// answered a next step with a step ticket. The authenticator app's code (or a recovery code), or
// an administrator's set-up of the app; the ticket is kept in memory here, never in a URL.
import * as v from 'valibot';
import type { LoginResult } from '../../core/session';
import type { LoginAnswer } from '../../core/types';
import { secondStepCode } from '../../core/validation/login';
import { useT, useTexts, useTRule } from '../i18n';
import { Field } from './Field';
import { FailureAlert } from './flowParts';
import { submitStepCode, useStepForm } from './flowSupport';
import TotpSetupForm from './TotpSetupForm';
import * as styles from './LoginForm.css';

const codeRules = () => ({ code: v.pipe(v.string(), v.trim(), secondStepCode) });

export interface SecondStepFormProps {
  /** The first factor's answer: a next step with its step ticket. */
  answer: LoginAnswer & { stepTicket: string };
  onSuccess: (result: Extract<LoginResult, { kind: 'success' }>) => void;
  onError?: (message: string) => void;
  onCancel: () => void;
}

export default function SecondStepForm({ answer, onSuccess, onError, onCancel }: SecondStepFormProps) {
  const t = useT();
  const tRule = useTRule();
  const ready = useTexts(undefined, 'login', 'account');
  const { errors, failure, busy, submit } = useStepForm(onError);

  if (answer.totpSetup)
    return <TotpSetupForm enrolment={answer.totpSetup} stepTicket={answer.stepTicket} onSuccess={onSuccess} onError={onError} onCancel={onCancel} />;
  if (!ready) return null;

  const onSubmit = submit(codeRules, async (values) => {
    const result = await submitStepCode(answer.stepTicket, values.code);
    if (result.kind === 'success') onSuccess(result);
  });

  return (
    <form className={styles.form} noValidate onSubmit={(event) => void onSubmit(event)}>
      <p className={styles.hint}>{t('login:codeHintTotp')}</p>
      <Field
        label={t('login:code')}
        error={errors.code === undefined ? undefined : tRule(errors.code)}
        input={{
          name: 'code',
          type: 'text',
          autoComplete: 'one-time-code',
          autoCapitalize: 'none',
          spellCheck: false,
          placeholder: t('login:codePlaceholder'),
        }}
      />
      <FailureAlert text={failure} />
      <button type="submit" className={styles.submit} disabled={busy}>
        {t(busy ? 'login:submitting' : 'login:verify')}
      </button>
      <button type="button" className={styles.linkButton} onClick={onCancel}>
        {t('account:totpSetup.cancel')}
      </button>
    </form>
  );
}
