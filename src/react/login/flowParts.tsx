// Pieces the lazily loaded sign-in flows (phone code, forgot password, expired password,
// authenticator set-up) share.
import { useId, type FormEvent, type ReactNode } from 'react';
import { Field } from './Field';
import { useT } from '../i18n';
import * as styles from './LoginForm.css';

/** The form's failure that belongs to no field, announced as an alert. */
export function FailureAlert({ text }: { text: string | undefined }) {
  return text ? (
    <p role="alert" className={styles.formError}>
      {text}
    </p>
  ) : null;
}

export interface CodeFieldProps {
  id?: string;
  error: string | undefined;
  placeholder: string;
  busy: boolean;
  /** Seconds until a new code may be asked for (0: now). */
  left: number;
  onSend: () => void;
}

/** The one-time code's field, with the button that sends a code (a countdown while it must wait). */
export function CodeField({ id, error, placeholder, busy, left, onSend }: CodeFieldProps) {
  const t = useT();
  return (
    <Field
      label={t('login:code')}
      error={error}
      input={{ id, name: 'code', type: 'text', inputMode: 'numeric', autoComplete: 'one-time-code', placeholder }}
      addon={
        <button type="button" className={styles.sendButton} disabled={busy || left > 0} onClick={onSend}>
          {left > 0 ? t('login:resendIn', { seconds: left }) : t('login:sendCode')}
        </button>
      }
    />
  );
}

export interface StepFormProps {
  title: string;
  intro: string;
  /** The submit button's text while not busy. */
  submitLabel: string;
  cancelLabel: string;
  busy: boolean;
  failure: string | undefined;
  onSubmit: (event: FormEvent<HTMLFormElement>) => Promise<void>;
  onCancel: () => void;
  /** The step's own fields, between the explanation and the failure. */
  children: ReactNode;
}

/** A next step of the sign-in as a titled region (expired password, authenticator set-up): its
 *  explanation, fields, failure, submit and a way back to the sign-in. State: useStepForm. */
export function StepForm({ title, intro, submitLabel, cancelLabel, busy, failure, onSubmit, onCancel, children }: StepFormProps) {
  const t = useT();
  const titleId = useId();
  return (
    <section aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.title}>
        {title}
      </h2>
      <form className={styles.form} noValidate onSubmit={(event) => void onSubmit(event)}>
        <p className={styles.hint}>{intro}</p>
        {children}
        <FailureAlert text={failure} />
        <button type="submit" className={styles.submit} disabled={busy}>
          {busy ? t('login:submitting') : submitLabel}
        </button>
        <button type="button" className={styles.linkButton} onClick={onCancel}>
          {cancelLabel}
        </button>
      </form>
    </section>
  );
}
