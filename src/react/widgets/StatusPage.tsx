// A page of its own (no menu): 403, 404, the sign-in prompt, "signing in…". A big code or mark,
// a heading, texts and actions.
import type { ReactNode } from 'react';
import * as styles from './StatusPage.css';

export interface StatusPageProps {
  /** '403', '404' …; or a mark (icon) instead. */
  code?: string;
  mark?: ReactNode;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
}

export function StatusPage({ code, mark, title, children, actions }: StatusPageProps) {
  return (
    <main className={styles.page}>
      <div className={styles.panel}>
        {code ? (
          <p className={styles.code} aria-hidden="true">
            {code}
          </p>
        ) : (
          mark
        )}
        <h1 className={styles.title}>{title}</h1>
        {children}
        {actions && <div className={styles.actions}>{actions}</div>}
      </div>
    </main>
  );
}
