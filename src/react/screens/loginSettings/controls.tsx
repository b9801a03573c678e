// Form controls the settings, channel and message screens share beyond widgets/fields: a select,
// a checkbox, a text area and a titled group of fields. Each takes react-hook-form's `register`.
import { useId, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { FieldFrame } from '../../widgets/fields';
import * as ui from '../../widgets/ui.css';
import * as styles from './settings.css';

interface ControlProps {
  label: string;
  error?: string;
  hint?: ReactNode;
  required?: boolean;
  registration?: UseFormRegisterReturn;
}

const describedBy = (id: string, error?: string, hint?: ReactNode) => [error && `${id}-error`, hint && `${id}-hint`].filter(Boolean).join(' ') || undefined;

export function SelectField({ label, error, hint, required, registration, options, ...select }: ControlProps & { options: { value: string; label: string }[] } & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'name'>) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} required={required} error={error} hint={hint}>
      <select id={id} className={`${ui.input} ${styles.select}`} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error, hint)} {...select} {...registration}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

export function TextAreaField({ label, error, hint, required, registration, ...area }: ControlProps & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'name'>) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} required={required} error={error} hint={hint}>
      <textarea id={id} className={`${ui.input} ${styles.textArea}`} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error, hint)} {...area} {...registration} />
    </FieldFrame>
  );
}

export function CheckboxField({ label, hint, registration, ...input }: Omit<ControlProps, 'error' | 'required'> & { checked?: boolean; onChange?: (event: React.ChangeEvent<HTMLInputElement>) => void }) {
  const id = useId();
  return (
    <div className={styles.checkboxField}>
      <input id={id} type="checkbox" className={styles.checkbox} aria-describedby={hint ? `${id}-hint` : undefined} {...input} {...registration} />
      <span>
        <label htmlFor={id} className={ui.label}>
          {label}
        </label>
        {hint && (
          <span id={`${id}-hint`} className={`${ui.hint} ${styles.block}`}>
            {hint}
          </span>
        )}
      </span>
    </div>
  );
}

/** A titled group of fields laid out in a responsive grid. */
export function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <fieldset className={styles.section}>
      <legend className={styles.legend}>{title}</legend>
      {description && <p className={`${ui.hint} ${styles.sectionText}`}>{description}</p>}
      <div className={styles.fields}>{children}</div>
    </fieldset>
  );
}
