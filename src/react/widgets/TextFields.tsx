// Form fields: a label, the input, a hint and the validation message under the field (a `rule.*`
// key translated with useTRule, in the element's locale). Used with react-hook-form's `register`.
import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useT, useTRule } from '../i18n';
import { Icon } from './Icon';
import * as ui from './ui.css';

export interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'onChange' | 'onBlur'> {
  label: string;
  /** The `rule.*` message of the field's first issue. */
  error?: string;
  hint?: ReactNode;
  registration?: UseFormRegisterReturn;
}

interface FieldFrameProps {
  id: string;
  label: string;
  required?: boolean;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
}

/** Label, control, hint and message of one field (the control is passed in, with `id`). */
export function FieldFrame({ id, label, required, error, hint, children }: FieldFrameProps) {
  const tRule = useTRule();
  return (
    <div className={ui.field}>
      {/* The marker stays outside the label: the field's name is the label's text alone. */}
      <span className={ui.labelRow}>
        <label className={ui.label} htmlFor={id}>
          {label}
        </label>
        {required && (
          <span className={ui.required} aria-hidden="true">
            *
          </span>
        )}
      </span>
      {children}
      {hint && (
        <p id={`${id}-hint`} className={ui.hint}>
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className={ui.fieldError}>
          {tRule(error)}
        </p>
      )}
    </div>
  );
}

function describedBy(id: string, error?: string, hint?: ReactNode): string | undefined {
  return [error && `${id}-error`, hint && `${id}-hint`].filter(Boolean).join(' ') || undefined;
}

export function TextField({ label, error, hint, registration, required, id: givenId, className, ...input }: FieldProps) {
  const generated = useId();
  const id = givenId ?? generated;
  return (
    <FieldFrame id={id} label={label} required={required} error={error} hint={hint}>
      <input
        id={id}
        className={`${ui.input} ${className ?? ''}`}
        aria-invalid={error ? true : undefined}
        aria-required={required || undefined}
        aria-describedby={describedBy(id, error, hint)}
        {...input}
        {...registration}
      />
    </FieldFrame>
  );
}

/** A password input with a show/hide toggle. */
export function PasswordField({ label, error, hint, registration, required, id: givenId, ...input }: FieldProps) {
  const t = useT();
  const generated = useId();
  const id = givenId ?? generated;
  const [shown, setShown] = useState(false);
  return (
    <FieldFrame id={id} label={label} required={required} error={error} hint={hint}>
      <div className={ui.inputRow}>
        <input
          id={id}
          className={`${ui.input} ${ui.inputWithToggle}`}
          type={shown ? 'text' : 'password'}
          aria-invalid={error ? true : undefined}
          aria-required={required || undefined}
          aria-describedby={describedBy(id, error, hint)}
          {...input}
          {...registration}
        />
        <button
          type="button"
          className={ui.inputToggle}
          aria-controls={id}
          aria-label={t(shown ? 'console:field.hidePassword' : 'console:field.showPassword', { field: label })}
          onClick={() => setShown((value) => !value)}
        >
          <Icon name={shown ? 'eyeOff' : 'eye'} />
        </button>
      </div>
    </FieldFrame>
  );
}
