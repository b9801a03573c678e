// The frame of an administration screen: waits for the admin texts, then shows the title, the
// header actions and the content.
import type { ReactNode } from 'react';
import { useTexts, useT } from '../../i18n';
import type { TextKey } from '../../../core/i18n';
import * as styles from './admin.css';

export function AdminPage({ title, actions, children }: { title: TextKey; actions?: ReactNode; children: ReactNode }) {
  const t = useT();
  const ready = useTexts(undefined, 'admin');
  return (
    <div>
      <div className={styles.header}>
        <h1 className={styles.title}>{t(title)}</h1>
        {ready && actions && <div className={styles.headerActions}>{actions}</div>}
      </div>
      {ready ? children : <p role="status">{t('console:loading')}</p>}
    </div>
  );
}
