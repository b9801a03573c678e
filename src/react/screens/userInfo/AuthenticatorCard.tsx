// The personal center's authenticator app (TOTP): whether it is on; setting it up (the current
// password first, then the secret is shown this once, as a QR code of the otpauth:// URI and as
// text, then confirmed with a code from the app); turning it off with a current code. The server then asks enrolled people for a code
// at sign-in.
import { lazy, Suspense, useState } from 'react';
import { useForm } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import { confirmTotp, disableTotp, startTotpEnrolment, totpStatusOf, type TotpEnrolment } from '../../../core/api/totp';
import { notifySuccess } from '../../../core/messages';
import { totpCodeBody } from '../../../core/schemas/totp';
import { showServerFieldErrors } from '../../dialogs/fieldErrors';
import { useT } from '../../i18n';
import { TextField } from '../../widgets/TextFields';
import { useResource } from '../../widgets/useResource';
import * as ui from '../../widgets/ui.css';
import { SecretValue } from '../../widgets/SecretValue';
import { Card } from '../../widgets/Card';
import * as styles from './UserInfoScreen.css';
import { CurrentPasswordForm, FormActions } from './CurrentPasswordForm';

const QrCode = lazy(() => import('../../widgets/QrCode'));

/** A code from the app and a submit button (confirming the set-up, or turning it off). */
function CodeForm({ submitLabel, onCode, onCancel }: { submitLabel: string; onCode: (code: string) => Promise<void>; onCancel: () => void }) {
  const t = useT();
  const { register, handleSubmit, setError, formState } = useForm<{ code: string }>({ resolver: valibotResolver(totpCodeBody), defaultValues: { code: '' } });
  const onSubmit = handleSubmit(async ({ code }) => {
    try {
      await onCode(code);
    } catch (error) {
      showServerFieldErrors(error, ['code'], setError);
    }
  });
  return (
    <form className={ui.form} onSubmit={(event) => void onSubmit(event)} noValidate>
      <TextField
        label={t('account:totp.code')}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        required
        error={formState.errors.code?.message}
        registration={register('code')}
      />
      <FormActions submitLabel={submitLabel} busy={formState.isSubmitting} onCancel={onCancel} />
    </form>
  );
}

function Enrolment({ enrolment, onDone, onCancel }: { enrolment: TotpEnrolment; onDone: () => void; onCancel: () => void }) {
  const t = useT();
  return (
    <div className={styles.steps}>
      <p className={styles.text}>{t('account:totp.scan')}</p>
      <Suspense fallback={<p className={ui.empty}>{t('console:loading')}</p>}>
        <QrCode text={enrolment.uri} label={t('account:totp.qrCode')} />
      </Suspense>
      <SecretValue label={t('account:totp.key')} value={enrolment.secret} warning={t('account:totp.keyOnce')} />
      <CodeForm
        submitLabel={t('account:totp.turnOn')}
        onCancel={onCancel}
        onCode={async (code) => {
          await confirmTotp(code);
          notifySuccess(t('account:totp.turnedOn'));
          onDone();
        }}
      />
    </div>
  );
}

type Step = { kind: 'idle' } | { kind: 'password' } | { kind: 'enrolling'; enrolment: TotpEnrolment } | { kind: 'turningOff' };

/** `onChange` runs once the app was turned on or off. */
export function AuthenticatorCard({ onChange }: { onChange?: () => void }) {
  const t = useT();
  const status = useResource(totpStatusOf, []);
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const enabled = status.data?.enabled;
  const idle = () => setStep({ kind: 'idle' });
  const finish = () => {
    idle();
    status.reload();
    onChange?.();
  };

  const action =
    step.kind !== 'idle' || enabled === undefined ? undefined : enabled ? (
      <button type="button" className={ui.button.secondary} onClick={() => setStep({ kind: 'turningOff' })}>
        {t('account:totp.turnOff')}
      </button>
    ) : (
      <button type="button" className={ui.button.primary} onClick={() => setStep({ kind: 'password' })}>
        {t('account:totp.setUp')}
      </button>
    );

  return (
    <Card id="iam-userinfo-totp" title={t('account:totp.title')} action={action}>
      {status.failed ? (
        <p className={ui.empty}>{t('console:unavailable')}</p>
      ) : enabled === undefined ? (
        // The status line's stand-in: laid out as the most common answer ("Off"), so as tall as it.
        <p className={styles.status} aria-hidden="true">
          <span className={`${ui.badge} ${ui.standIn}`}>{t('account:totp.off')}</span>
          <span>
            <span className={ui.standIn}>{t('account:totp.textOff')}</span>
          </span>
        </p>
      ) : (
        <p className={styles.status}>
          <span className={`${ui.badge} ${enabled ? '' : styles.offBadge}`}>{t(enabled ? 'account:totp.on' : 'account:totp.off')}</span>
          <span className={ui.muted}>{t(enabled ? 'account:totp.textOn' : 'account:totp.textOff')}</span>
        </p>
      )}
      {step.kind === 'password' && (
        // The current password first: an app set up with a borrowed session alone would be a proof
        // for removing the person's passkeys.
        <CurrentPasswordForm
          text={t('account:totp.passwordText')}
          label={t('account:totp.password')}
          submitLabel={t('account:totp.continue')}
          onCancel={idle}
          onPassword={async (password) => setStep({ kind: 'enrolling', enrolment: await startTotpEnrolment(password) })}
        />
      )}
      {step.kind === 'enrolling' && <Enrolment enrolment={step.enrolment} onDone={finish} onCancel={idle} />}
      {step.kind === 'turningOff' && (
        <>
          <p className={styles.text}>{t('account:totp.turnOffText')}</p>
          <CodeForm
            submitLabel={t('account:totp.turnOff')}
            onCancel={idle}
            onCode={async (code) => {
              await disableTotp(code);
              notifySuccess(t('account:totp.turnedOff'));
              finish();
            }}
          />
        </>
      )}
    </Card>
  );
}
