// A titled card (a region named by its heading), with an optional action beside the title: the
// home screen's sections and the personal center's cards.
import type { ReactNode } from 'react';
import * as ui from './ui.css';

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
