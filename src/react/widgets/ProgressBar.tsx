// A thin bar at the top while non-silent calls are in flight (the core's $progress count).
import { useStore } from '../store';
import { $progress } from '../../core/http';
import { useT } from '../i18n';
import * as styles from './feedback.css';

export function ProgressBar() {
  const busy = useStore($progress) > 0;
  const t = useT();
  if (!busy) return null;
  return (
    <div className={styles.progress} role="progressbar" aria-label={t('console:loading')}>
      <div className={styles.progressBar} />
    </div>
  );
}
