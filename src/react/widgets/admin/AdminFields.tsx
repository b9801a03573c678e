// Form controls the administration dialogs add to the shared text fields (../TextFields): a select,
// a text area and a checkbox, labelled the same way and showing their `rule.*` message.
import { useId, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { FieldFrame } from '../TextFields';
import * as ui from '../ui.css';
import * as styles from './admin.css';

interface CommonProps {
  label: string;
  error?: string;
  hint?: ReactNode;
  registration?: UseFormRegisterReturn;
}

const describedBy = (id: string, error?: string, hint?: ReactNode) => [error && `${id}-error`, hint && `${id}-hint`].filter(Boolean).join(' ') || undefined;

export function SelectField({
  label,
  error,
  hint,
  registration,
  required,
  children,
  ...select
}: CommonProps & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'name'>) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} required={required} error={error} hint={hint}>
      <select
        id={id}
        className={styles.select}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        {...select}
        {...registration}
      >
        {children}
      </select>
    </FieldFrame>
  );
}

export function TextAreaField({
  label,
  error,
  hint,
  registration,
  required,
  ...area
}: CommonProps & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'name'>) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} required={required} error={error} hint={hint}>
      <textarea
        id={id}
        className={`${ui.input} ${styles.textarea}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        {...area}
        {...registration}
      />
    </FieldFrame>
  );
}

export function CheckboxField({
  label,
  registration,
  ...input
}: {
  label: string;
  registration?: UseFormRegisterReturn;
  disabled?: boolean;
  checked?: boolean;
  onChange?: (checked: boolean) => void;
}) {
  const { onChange, ...rest } = input;
  return (
    <label className={styles.checkRow}>
      <input
        type="checkbox"
        className={styles.checkbox}
        {...rest}
        {...(onChange ? { onChange: (event) => onChange(event.currentTarget.checked) } : {})}
        {...registration}
      />
      {label}
    </label>
  );
}

/** A text field held in component state rather than a form library (the menu editor). */
export function PlainTextField({
  label,
  error,
  hint,
  required,
  value,
  onValue,
  readOnly,
}: {
  label: string;
  error?: string;
  hint?: ReactNode;
  required?: boolean;
  value: string;
  onValue: (value: string) => void;
  readOnly?: boolean;
}) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} required={required} error={error} hint={hint}>
      <input
        id={id}
        className={ui.input}
        value={value}
        readOnly={readOnly}
        autoComplete="off"
        aria-invalid={error ? true : undefined}
        aria-required={required || undefined}
        aria-describedby={describedBy(id, error, hint)}
        onChange={(event) => onValue(event.currentTarget.value)}
      />
    </FieldFrame>
  );
}
