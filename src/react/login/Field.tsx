// One labelled input of the sign-in form, with its message under it (linked by aria-describedby).
import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import * as styles from './LoginForm.css';

export interface FieldProps {
  label: string;
  /** The translated message, shown under the input. */
  error?: string;
  input: InputHTMLAttributes<HTMLInputElement> & { name: string };
  /** Shown beside the input, inside its row (the password toggle, the captcha image). */
  addon?: ReactNode;
  /** The addon overlays the input's right end (the password toggle) instead of following it. */
  overlay?: boolean;
  /** The id of the form's failure message when the server refused this field's value (a wrong
   *  password, a wrong code): the input is marked invalid and described by that message. */
  failedBy?: string;
}

export function Field({ label, error, input, addon, overlay = false, failedBy }: FieldProps) {
  const generatedId = useId();
  const id = input.id ?? generatedId;
  const errorId = `${id}-error`;
  const control = (
    <input
      {...input}
      id={id}
      className={`${styles.input}${overlay ? ` ${styles.inputWithOverlay}` : ''}`}
      aria-invalid={error || failedBy ? true : undefined}
      aria-describedby={error ? errorId : failedBy}
    />
  );
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      {addon ? (
        <div className={overlay ? styles.overlayRow : styles.addonRow}>
          {control}
          {addon}
        </div>
      ) : (
        control
      )}
      {error && (
        <p id={errorId} className={styles.fieldError}>
          {error}
        </p>
      )}
    </div>
  );
}
