// The passkey part of the sign-in form, loaded lazily (outside the sign-in entry's size budget)
// where the server says this page may use passkeys (public login settings' passkeyRpId) and the
// browser can: "Sign in with a passkey", the username field's autofill (conditional mediation,
// started once the form shows and ended when it goes), and a passkey as the second step (the
// PASSKEY step, or "Use a passkey instead" beside an authenticator app's or a recovery code), also
// after a phone code or a third-party provider (SecondStepForm, with the step's ticket). The
// browser code itself (../../core/passkeys, with @simplewebauthn/browser) comes on first use.
import { useEffect, useState } from 'react';
import type { PasskeyRequestOptions } from '../../core/api/passkeys';
import type { LoginResult } from '../../core/session';
import { useT, useTexts } from '../i18n';
import * as form from './LoginForm.css';
import * as styles from './PasskeySignIn.css';

const passkeys = () => import('../../core/passkeys');

export interface PasskeySignInProps {
  /** The RP ID the server named for this page. */
  rpId: string;
  /** What the pending sign-in's next step shows, if one is pending: the passkey asked for, or a
   *  code field a passkey may answer instead; and the passkey options the step came with. */
  step?: 'passkey' | 'besideCode';
  options?: PasskeyRequestOptions;
  /** The step ticket of a first factor that cannot be sent again (SecondStepForm): the passkey
   *  answers that sign-in's step, not the password form's pending one. */
  stepTicket?: string;
  language: string;
  onDone: (answer: LoginResult, username: string) => void;
  onFailed: (error: unknown) => void;
}

/** Browsers use a passkey only on a page of its RP ID or below it (docs/elements.md). */
const usable = (rpId: string) => typeof PublicKeyCredential === 'function' && (location.hostname === rpId || location.hostname.endsWith(`.${rpId}`));

export default function PasskeySignIn({ rpId, step, options, stepTicket, language, onDone, onFailed }: PasskeySignInProps) {
  const t = useT();
  // Its texts live with the personal center's passkey texts (`account`), outside the sign-in's own.
  const ready = useTexts(undefined, 'account');
  const [busy, setBusy] = useState(false);
  const available = usable(rpId);
  const done = (answer: LoginResult) => onDone(answer, answer.kind === 'success' ? (answer.session.user?.username ?? '') : '');

  // Autofill: a request that waits for the person to pick a passkey in the username's suggestions.
  useEffect(() => {
    if (!available || step !== undefined) return;
    let live = true;
    void passkeys().then(async (module) => {
      if (!live || !(await module.autofillSupported())) return;
      try {
        const answer = await module.signInWithPasskey({ autofill: true, language });
        if (live) done(answer);
      } catch (error) {
        // Ended by the form (another ceremony, the form going away) or by the person: nothing to say.
        if (live && !module.promptDeclined(error)) onFailed(error);
      }
    });
    return () => {
      live = false;
      void passkeys().then((module) => module.cancelPrompt());
    };
    // The callbacks change on every render of the form; the request lives as long as the step.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [available, step, language]);

  if (!ready || !available || (step !== undefined && !options)) return null;

  const run = async () => {
    if (busy) return;
    setBusy(true);
    const module = await passkeys();
    try {
      done(options && step !== undefined ? await module.passkeySecondStep(options, language, stepTicket) : await module.signInWithPasskey({ language }));
    } catch (error) {
      onFailed(module.promptDeclined(error) ? new Error(t('account:passkeySignIn.cancelled')) : error);
    } finally {
      setBusy(false);
    }
  };
  const button = (className: string, label: string) => (
    <button type="button" className={className} aria-disabled={busy} onClick={() => void run()}>
      {label}
    </button>
  );

  if (step === 'passkey') {
    return (
      <>
        <p className={form.hint}>{t('account:passkeySignIn.stepHint')}</p>
        {button(form.submit, t(busy ? 'login:submitting' : 'account:passkeySignIn.useStep'))}
      </>
    );
  }
  if (step !== undefined) return button(form.linkButton, t('account:passkeySignIn.useInstead'));
  return (
    <>
      <p className={styles.divider}>{t('account:passkeySignIn.or')}</p>
      {button(styles.button, t('account:passkeySignIn.signIn'))}
    </>
  );
}
