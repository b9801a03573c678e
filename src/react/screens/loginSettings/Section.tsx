// A titled group of settings fields, laid out in a responsive grid.
import type { ReactNode } from 'react';
import * as ui from '../../widgets/ui.css';
import * as styles from './settings.css';

/** `wide`: room for 290 px image previews in each column. */
export function Section({ title, description, wide, children }: { title: string; description?: string; wide?: boolean; children: ReactNode }) {
  return (
    <fieldset className={styles.section}>
      <legend className={styles.legend}>{title}</legend>
      {description && <p className={`${ui.hint} ${styles.sectionText}`}>{description}</p>}
      <div className={wide ? styles.wideFields : styles.fields}>{children}</div>
    </fieldset>
  );
}
