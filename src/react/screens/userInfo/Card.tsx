// A titled card of the personal center (a region named by its heading).
import type { ReactNode } from 'react';
import * as ui from '../../widgets/ui.css';

export function Card({ id, title, action, className, children }: { id: string; title: string; action?: ReactNode; className?: string; children: ReactNode }) {
  return (
    <section className={`${ui.card} ${className ?? ''}`} aria-labelledby={id}>
      <div className={ui.cardHeader}>
        <h2 id={id} className={ui.cardTitle}>
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  );
}
