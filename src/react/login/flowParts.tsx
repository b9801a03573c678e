// Pieces the lazily loaded sign-in flows (phone code, forgot password, expired password) share.
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
