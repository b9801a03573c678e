// The second step after a first factor that cannot be sent again (loaded lazily): the phone code
// form and the way back from a third-party provider (/infoComplete) show it when the sign-in
// answered a next step with a step ticket. The authenticator app's code (or a recovery code, with
// "Use a passkey instead" when the person has one), the person's passkey (or one of their recovery
// codes instead), or an administrator's set-up of the app; the ticket is kept in memory here,
// never in a URL.
import { Suspense, lazy, useState } from 'react';
import * as v from 'valibot';
import { LoginStep } from '../../core/enums';
import type { LoginResult } from '../../core/session';
import type { LoginAnswer } from '../../core/types';
import { secondStepCode } from '../../core/validation/login';
import { useLocale, useT, useTexts, useTRule } from '../i18n';
import { Field } from './Field';
import { FailureAlert } from './flowParts';
import { failureText, submitStepCode, useStepForm } from './flowSupport';
import TotpSetupForm from './TotpSetupForm';
import * as styles from './LoginForm.css';

// Its own chunk, as from the sign-in form: the passkey part comes only with a step a passkey answers.
const PasskeySignIn = lazy(() => import('./PasskeySignIn'));

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
  const language = useLocale();
  const ready = useTexts(undefined, 'login', 'account');
  const { errors, failure, busy, submit, report } = useStepForm(onError);
  /** At the PASSKEY step: a recovery code is typed instead (no passkey at hand). */
  const [recoveryCode, setRecoveryCode] = useState(false);

  if (answer.totpSetup)
    return <TotpSetupForm enrolment={answer.totpSetup} stepTicket={answer.stepTicket} onSuccess={onSuccess} onError={onError} onCancel={onCancel} />;
  if (!ready) return null;

  // The options name the relying party; without them a recovery code is the only answer to the
  // PASSKEY step (on a page the browser may not use that passkey on, PasskeySignIn shows nothing
  // and "Use a recovery code instead" remains).
  const rpId = answer.passkeyOptions?.rpId;
  const passkeyStep = answer.nextStep === LoginStep.PASSKEY && rpId !== undefined && !recoveryCode;
  const recoveryStep = answer.nextStep === LoginStep.PASSKEY && !passkeyStep;

  const onSubmit = submit(codeRules, async (values) => {
    const result = await submitStepCode(answer.stepTicket, values.code, language);
    if (result.kind === 'success') onSuccess(result);
  });
  const passkeyDone = (result: LoginResult) => {
    if (result.kind === 'success') onSuccess(result);
  };

  return (
    <form className={styles.form} noValidate onSubmit={(event) => void onSubmit(event)}>
      {!passkeyStep && (
        <>
          <p className={styles.hint}>{t(recoveryStep ? 'login:codeHintRecovery' : 'login:codeHintTotp')}</p>
          <Field
            label={t('login:code')}
            error={errors.code === undefined ? undefined : tRule(errors.code)}
            input={{
              name: 'code',
              type: 'text',
              autoComplete: 'one-time-code',
              autoCapitalize: 'none',
              spellCheck: false,
              placeholder: t(recoveryStep ? 'login:codePlaceholderRecovery' : 'login:codePlaceholderTotp'),
            }}
          />
        </>
      )}
      <FailureAlert text={failure} />
      {!passkeyStep && (
        <button type="submit" className={styles.submit} disabled={busy}>
          {t(busy ? 'login:submitting' : 'login:verify')}
        </button>
      )}
      {rpId !== undefined && !recoveryStep && (
        <Suspense>
          <PasskeySignIn
            rpId={rpId}
            step={passkeyStep ? 'passkey' : 'besideCode'}
            options={answer.passkeyOptions}
            stepTicket={answer.stepTicket}
            language={language}
            onDone={passkeyDone}
            onFailed={(error) => report(failureText(error))}
          />
        </Suspense>
      )}
      {passkeyStep && (
        <button type="button" className={styles.linkButton} onClick={() => setRecoveryCode(true)}>
          {t('login:recoveryInstead')}
        </button>
      )}
      <button type="button" className={styles.linkButton} onClick={onCancel}>
        {t('account:totpSetup.cancel')}
      </button>
    </form>
  );
}
