// The recovery codes card while it loads: the screen shows the whole stand-in until the card's
// chunk is there, the card its status line until the status is. Both are laid out with the most
// common answer ("set up a second factor first"), so that the card keeps its size as it arrives.
import { useT } from '../../i18n';
import { CardStandIn } from '../../widgets/LazyCard';
import * as ui from '../../widgets/ui.css';
import * as styles from './UserInfoScreen.css';

export function RecoveryStatusStandIn() {
  const t = useT();
  return (
    <p className={ui.muted} aria-hidden="true">
      <span className={ui.standIn}>{t('account:recovery.unavailable')}</span>
    </p>
  );
}

export function RecoveryCodesStandIn() {
  const t = useT();
  return (
    <CardStandIn title={t('account:recovery.title')}>
      <p className={styles.text}>
        <span className={ui.standIn}>{t('account:recovery.text')}</span>
      </p>
      <RecoveryStatusStandIn />
    </CardStandIn>
  );
}
