// /verified/{code} (plain, no sign-in): the link of an email verification mail. The page
// uses the code once (POST /verified/{code}), says whether the address is now verified or why
// the link is refused (unknown, already used, expired), then offers the sign-in.
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { redeemVerificationLink } from '../../../core/api/codes';
import { HttpError } from '../../../core/http';
import { LOGIN_PATH } from '../../../core/routes';
import { useT, useTexts } from '../../i18n';
import { Icon } from '../../widgets/Icon';
import { StatusPage } from '../../widgets/StatusPage';
import * as styles from '../../widgets/StatusPage.css';
import * as ui from '../../widgets/ui.css';
import type { ScreenProps } from '../types';

type Outcome = { verified: { username: string; email: string } } | { refused: string };

/** A link works once: a second mount (StrictMode, a re-render) must not use it up again. */
const outcomes = new Map<string, Promise<Outcome>>();

function redeem(code: string): Promise<Outcome> {
  let outcome = outcomes.get(code);
  if (!outcome) {
    outcome = redeemVerificationLink(code).then(
      (verified) => ({ verified }),
      (error: unknown) => {
        const reason = error instanceof HttpError ? (error.data as { reason?: unknown } | null)?.reason : undefined;
        if (reason === 'unknown' || reason === 'used' || reason === 'expired') return { refused: reason };
        // A malformed code is refused by the server's validation: also not a valid link.
        if (error instanceof HttpError && error.status === 400) return { refused: 'unknown' };
        return { refused: error instanceof Error ? error.message : String(error) };
      },
    );
    outcomes.set(code, outcome);
  }
  return outcome;
}

export default function VerifiedScreen({ params }: ScreenProps) {
  const t = useT();
  const ready = useTexts(undefined, 'login');
  const code = params.code ?? '';
  const [outcome, setOutcome] = useState<Outcome>();

  useEffect(() => {
    let current = true;
    void redeem(code).then((value) => current && setOutcome(value));
    return () => {
      current = false;
    };
  }, [code]);

  if (!ready) return null;
  const refusal = outcome && 'refused' in outcome ? outcome.refused : undefined;
  const knownRefusal = refusal === 'unknown' || refusal === 'used' || refusal === 'expired';
  return (
    <StatusPage
      mark={<Icon name="key" className={styles.mark} />}
      title={t('login:verified.title')}
      actions={
        outcome && (
          <Link href={LOGIN_PATH} className={ui.button.primary}>
            {t('login:verified.signIn')}
          </Link>
        )
      }
    >
      {!outcome ? (
        <p className={styles.text} role="status">
          {t('login:verified.checking')}
        </p>
      ) : 'verified' in outcome ? (
        <p className={styles.text} role="status">
          {t('login:verified.success', outcome.verified)}
        </p>
      ) : (
        <p className={styles.text} role="alert">
          {knownRefusal ? t(`login:verified.${refusal}`) : t('login:verified.failed', { message: refusal })}
        </p>
      )}
    </StatusPage>
  );
}
