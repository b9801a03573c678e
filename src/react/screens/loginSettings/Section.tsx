// A titled group of settings fields, laid out in a responsive grid.
import type { ReactNode } from 'react';
import * as ui from '../../widgets/ui.css';
import * as styles from './settings.css';

export function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <fieldset className={styles.section}>
      <legend className={styles.legend}>{title}</legend>
      {description && <p className={`${ui.hint} ${styles.sectionText}`}>{description}</p>}
      <div className={styles.fields}>{children}</div>
    </fieldset>
  );
}
