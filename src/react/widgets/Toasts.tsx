// The core's message store ($messages) as toasts. Each message removes itself after its duration
// (5 s, 403 2 s, other errors 6 s); the close button removes it at once.
import { useStore } from '../store';
import { $messages, dismissMessage } from '../../core/messages';
import { useT } from '../i18n';
import { Icon } from './Icon';
import * as styles from './feedback.css';

export function Toasts() {
  const messages = useStore($messages);
  const t = useT();
  return (
    <div className={styles.toasts} part="toasts" data-stays-live>
      {messages.map((message) => (
        // Errors interrupt (alert); other messages wait for a pause (status).
        <div key={message.id} className={styles.toast[message.kind]} role={message.kind === 'error' ? 'alert' : 'status'}>
          <p className={styles.toastText}>{message.text}</p>
          <button type="button" className={styles.toastClose} aria-label={t('console:action.dismiss')} onClick={() => dismissMessage(message.id)}>
            <Icon name="close" className={styles.toastIcon} />
          </button>
        </div>
      ))}
    </div>
  );
}
