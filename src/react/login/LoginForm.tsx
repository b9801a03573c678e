// The sign-in form of §2.5: username and password (with a show/hide toggle), validated with the
// core's login schema (§5 login messages), submitted through the core's session. Used by
// <iam-login> (rendered in the light DOM so password managers see it) and by the console's
// /login page. Every visible text is an i18n key of the `login` namespace.
//
// The inputs are uncontrolled and read from the form on submit (what a password manager filled
// in is what is sent). No form library: the sign-in entry has a size budget (85 KiB) that React
// and i18next already use most of, and two fields need none.
import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { tRule } from '../../core/i18n';
import { useTexts, useT } from '../i18n';
import { validateLogin, type LoginFieldErrors } from './validateLogin';
import { signIn, type SignInOptions } from './signIn';
import * as styles from './LoginForm.css';

export interface LoginSubmitDetail {
  username: string;
}
export interface LoginSuccessDetail {
  username: string;
  /** Where the server says to go next (§7 POST /authc/login), when it says so. */
  redirectURL?: string;
}
export interface LoginErrorDetail {
  message: string;
}

export interface LoginFormProps extends SignInOptions {
  /** 'en' or 'zh'; switches the page-wide locale. Unset: the current locale stays. */
  locale?: string;
  /** Before the sign-in call, once the input is valid. */
  onLoginSubmit?: (detail: LoginSubmitDetail) => void;
  onLoginSuccess?: (detail: LoginSuccessDetail) => void;
  onLoginError?: (detail: LoginErrorDetail) => void;
}

export function LoginForm({ locale, apiBase, authMode, tokenName, onLoginSubmit, onLoginSuccess, onLoginError }: LoginFormProps) {
  const t = useT();
  const textsReady = useTexts(locale, 'login');
  const id = useId();
  const [passwordShown, setPasswordShown] = useState(false);
  const [errors, setErrors] = useState<LoginFieldErrors>();
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string>();

  if (!textsReady) return null;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const result = validateLogin(form);
    setErrors(result.errors);
    if (!result.values) {
      form.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    const { username, password } = result.values;
    setFailure(undefined);
    setSubmitting(true);
    onLoginSubmit?.({ username });
    try {
      const { redirectURL } = await signIn({ username, password }, { apiBase, authMode, tokenName });
      onLoginSuccess?.({ username, redirectURL });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      setFailure(message);
      onLoginError?.({ message });
    } finally {
      setSubmitting(false);
    }
  };

  /** After a failed submit, the messages follow the input as it is corrected. */
  const onChange = (event: ChangeEvent<HTMLFormElement>) => {
    if (errors) setErrors(validateLogin(event.currentTarget).errors);
  };

  const ids = { username: `${id}-username`, password: `${id}-password`, usernameError: `${id}-username-error`, passwordError: `${id}-password-error` };
  const usernameError = errors?.username;
  const passwordError = errors?.password;

  return (
    <div className={styles.card}>
      <h2 className={styles.title}>{t('login:title')}</h2>
      <p className={styles.subtitle}>{t('login:subtitle', { app: t('app.name') })}</p>
      <form className={styles.form} noValidate onSubmit={onSubmit} onChange={onChange}>
        <div className={styles.field}>
          <label className={styles.label} htmlFor={ids.username}>
            {t('login:username')}
          </label>
          <input
            id={ids.username}
            className={styles.input}
            type="text"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            placeholder={t('login:usernamePlaceholder')}
            aria-invalid={usernameError ? true : undefined}
            aria-describedby={usernameError ? ids.usernameError : undefined}
            name="username"
          />
          {usernameError && (
            <p id={ids.usernameError} className={styles.fieldError}>
              {tRule(usernameError)}
            </p>
          )}
        </div>
        <div className={styles.field}>
          <label className={styles.label} htmlFor={ids.password}>
            {t('login:password')}
          </label>
          <div className={styles.inputRow}>
            <input
              id={ids.password}
              className={`${styles.input} ${styles.passwordInput}`}
              type={passwordShown ? 'text' : 'password'}
              autoComplete="current-password"
              placeholder={t('login:passwordPlaceholder')}
              aria-invalid={passwordError ? true : undefined}
              aria-describedby={passwordError ? ids.passwordError : undefined}
              name="password"
            />
            <button
              type="button"
              className={styles.toggle}
              aria-controls={ids.password}
              aria-label={t(passwordShown ? 'login:hidePassword' : 'login:showPassword')}
              onClick={() => setPasswordShown((shown) => !shown)}
            >
              <EyeIcon crossed={passwordShown} />
            </button>
          </div>
          {passwordError && (
            <p id={ids.passwordError} className={styles.fieldError}>
              {tRule(passwordError)}
            </p>
          )}
        </div>
        {failure && (
          <p role="alert" className={styles.formError}>
            {failure}
          </p>
        )}
        <button type="submit" className={styles.submit} disabled={submitting}>
          {t(submitting ? 'login:submitting' : 'login:submit')}
        </button>
      </form>
    </div>
  );
}

/** An eye (password hidden: "show") or a crossed eye (password shown: "hide"). */
function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <svg className={styles.icon} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z" />
      <circle cx="12" cy="12" r="3" />
      {crossed && <path d="M4 4l16 16" />}
    </svg>
  );
}
