// The passkeys card as it first shows (its list still loading): what the personal center renders
// while the card's lazily loaded chunk and the `account` texts arrive, and what the card renders
// until its list is there, so that the card keeps its place and its size (bench/layout-shift.mjs).
import type { ReactNode } from 'react';
import { useT, useTexts } from '../../i18n';
import { Card } from '../../widgets/Card';
import * as ui from '../../widgets/ui.css';
import * as styles from './UserInfoScreen.css';

/** The browser can create passkeys (the card offers "Add a passkey" only then). */
export const passkeysSupported = () => typeof PublicKeyCredential === 'function';

/** The card's frame: title, the add button's place, the introduction, then `children`. */
export function PasskeysFrame({ action, children }: { action?: ReactNode; children: ReactNode }) {
  const t = useT();
  const ready = useTexts(undefined, 'account');
  const skeleton = <span className={ui.skeleton} aria-hidden="true" />;
  return (
    <Card id="iam-userinfo-passkeys" title={ready ? t('account:passkeys.title') : '\u00a0'} action={action}>
      {ready ? (
        <p className={styles.text}>{t(passkeysSupported() ? 'account:passkeys.text' : 'account:passkeys.unsupported')}</p>
      ) : (
        <p className={`${styles.text} ${styles.textStandIn}`}>{skeleton}</p>
      )}
      {children}
    </Card>
  );
}

export function PasskeysStandIn() {
  const t = useT();
  const ready = useTexts(undefined, 'account');
  return (
    <PasskeysFrame
      action={
        passkeysSupported() && (
          <button type="button" className={ui.button.primary} disabled>
            {ready ? t('account:passkeys.add') : <span className={ui.skeleton} aria-hidden="true" />}
          </button>
        )
      }
    >
      <p className={ui.empty}>{t('console:loading')}</p>
    </PasskeysFrame>
  );
}
