// The next step TOTP_SETUP (loaded lazily): the login settings ask administrators for a strong
// second factor and this one has neither a passkey nor an authenticator app, so after the password
// they set up the app here (the QR code of the secret the sign-in answered, and the key as text)
// and confirm it with a code from it; that sign-in call opens the session. After a phone code or a
// third-party provider the step goes with the step ticket the sign-in answered.
import { lazy, Suspense, useId } from 'react';
import type { TotpEnrolment } from '../../core/api/totp';
import { totpCodeBody } from '../../core/schemas/totp';
import type { LoginResult } from '../../core/session';
import { useT, useTexts, useTRule } from '../i18n';
import { Field } from './Field';
import { StepForm } from './flowParts';
import { submitStepCode, useStepForm } from './flowSupport';
import * as styles from './LoginForm.css';
import * as own from './TotpSetupForm.css';

const QrCode = lazy(() => import('../widgets/QrCode'));

export interface TotpSetupFormProps {
  enrolment: TotpEnrolment;
  /** The sign-in's step ticket (after a phone code or a provider); unset: the password form's pending step. */
  stepTicket?: string;
  onSuccess: (result: Extract<LoginResult, { kind: 'success' }>) => void;
  onError?: (message: string) => void;
  onCancel: () => void;
}

const codeRules = () => ({ code: totpCodeBody.entries.code });

export default function TotpSetupForm({ enrolment, stepTicket, onSuccess, onError, onCancel }: TotpSetupFormProps) {
  const t = useT();
  const tRule = useTRule();
  const ready = useTexts(undefined, 'login', 'account');
  const keyId = useId();
  const { errors, failure, busy, submit } = useStepForm(onError);

  if (!ready) return null;

  const onSubmit = submit(codeRules, async (values) => {
    const result = await submitStepCode(stepTicket, values.code);
    if (result.kind === 'success') onSuccess(result);
  });

  const codeError = errors.code;
  return (
    <StepForm
      title={t('account:totpSetup.title')}
      intro={t('account:totpSetup.intro')}
      submitLabel={t('account:totpSetup.submit')}
      cancelLabel={t('account:totpSetup.cancel')}
      busy={busy}
      failure={failure}
      onSubmit={onSubmit}
      onCancel={onCancel}
    >
      <Suspense fallback={<p className={styles.hint}>{t('login:loading')}</p>}>
        <QrCode text={enrolment.uri} label={t('account:totpSetup.qrCode')} />
      </Suspense>
      <div role="group" aria-labelledby={keyId} className={styles.field}>
        <span id={keyId} className={styles.label}>
          {t('account:totpSetup.key')}
        </span>
        <code className={own.secret}>{enrolment.secret}</code>
        <p className={styles.hint}>{t('account:totpSetup.keyOnce')}</p>
      </div>
      <Field
        label={t('account:totpSetup.code')}
        error={codeError === undefined ? undefined : tRule(codeError)}
        input={{ name: 'code', type: 'text', inputMode: 'numeric', autoComplete: 'one-time-code', maxLength: 6 }}
      />
    </StepForm>
  );
}
