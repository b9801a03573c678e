// A list's filter as a labelled <select>: "all" (no filter) first, then the choices. Used by the
// delivery logs (channels, webhooks), the audit log and the tenant filter.
import { useId, type ReactNode } from 'react';
import * as styles from './admin.css';

export interface FilterSelectProps<V extends string> {
  label: string;
  /** The first choice's text: no filter. */
  allLabel: string;
  /** The chosen value; undefined: all. */
  value: V | undefined;
  onChange: (value: V | undefined) => void;
  /** The choices; or, for choices drawn otherwise (a tree's indented options), `children`. */
  options?: readonly { value: V; label: string }[];
  children?: ReactNode;
}

export function FilterSelect<V extends string>({ label, allLabel, value, onChange, options, children }: FilterSelectProps<V>) {
  const id = useId();
  return (
    <div className={styles.control}>
      <label htmlFor={id} className={styles.controlLabel}>
        {label}
      </label>
      <select id={id} className={styles.select} value={value ?? ''} onChange={(event) => onChange((event.currentTarget.value || undefined) as V | undefined)}>
        <option value="">{allLabel}</option>
        {options?.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
        {children}
      </select>
    </div>
  );
}
