// The status of a message: queued, sending, sent, failed (outgoing) or unread, read (in-site).
import { useT } from '../i18n';
import * as styles from './StatusBadge.css';
import { messageStatusText } from './messageTexts';

const tone = (status: string): keyof typeof styles.status =>
  status === 'sent' ? 'sent' : status === 'unread' ? 'unread' : status === 'failed' ? 'failed' : 'waiting';

export function StatusBadge({ status }: { status: string }) {
  const t = useT();
  return <span className={styles.status[tone(status)]}>{messageStatusText(t, status)}</span>;
}
