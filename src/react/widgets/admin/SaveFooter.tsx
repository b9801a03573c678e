// The end of an administration form: the server's refusal (if any) as an alert, then Cancel and
// Save. One footer for every admin dialog, so they read and behave alike.
import { useT } from '../../i18n';
import * as ui from '../ui.css';

export function SaveFooter({ failure, busy, onCancel }: { failure?: string; busy: boolean; onCancel?: () => void }) {
  const t = useT();
  return (
    <>
      {failure && (
        <p className={ui.formError} role="alert">
          {failure}
        </p>
      )}
      <div className={ui.actions}>
        {onCancel && (
          <button type="button" className={ui.button.secondary} onClick={onCancel}>
            {t('console:action.cancel')}
          </button>
        )}
        <button type="submit" className={ui.button.primary} disabled={busy} part="primary-button">
          {t('console:action.save')}
        </button>
      </div>
    </>
  );
}
