// The save button of a settings form, and what a 409 (someone else saved first) means: a clear
// message, the typed values kept, and a way to take the latest version without losing them.
import { useT } from '../../i18n';
import * as ui from '../../widgets/ui.css';
import * as styles from './settings.css';

export function SaveBar({ stale, busy, onReload }: { stale: boolean; busy: boolean; onReload: () => void }) {
  const t = useT();
  return (
    <div className={styles.saveBar}>
      {stale && (
        <div role="alert" className={ui.formError}>
          {t('settings:stale.text')}{' '}
          <button type="button" className={ui.button.secondary} onClick={onReload}>
            {t('settings:stale.reload')}
          </button>
        </div>
      )}
      <button type="submit" className={ui.button.primary} disabled={busy} part="primary-button">
        {t('console:action.save')}
      </button>
    </div>
  );
}
