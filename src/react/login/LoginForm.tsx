// The sign-in form: username and password (with a show/hide toggle), the captcha when
// the server asks for one (from the first paint when the login settings always ask), and the next
// step of a multi-step sign-in. Validated with the core's rules (login messages), submitted
// through the core's session. Used by <iam-login> (rendered in the light DOM so password managers
// see it) and by the console's /login page. Every visible text is an i18n key (`login`
// namespace, `rule.*` of `common`).
//
// The other flows load lazily, outside the sign-in entry's size budget: the phone-and-code form
// of the PHONE_CAPTCHA login method, "Forgot password?", the new password an expired one asks
// for, and passkeys (PasskeySignIn: a button, the username field's autofill, the second step).
//
// The inputs are uncontrolled and read from the form on submit (what a password manager filled
// in is what is sent). No form library: the sign-in entry has a size budget that React
// already uses most of.
import { lazy, Suspense, useEffect, useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { useStore } from '../store';
import { newCaptchaKey } from '../../core/api/captcha';
import { useCaptchaImage } from './captchaImage';
import { LoginMethod, LoginStep } from '../../core/enums';
import type { Translate } from '../../core/i18n';
import { $loginCaptcha, LOGIN_SPECIAL_CODE, login, submitNextStep, type LoginResult } from '../../core/session';
import type { PasskeyRequestOptions } from '../../core/api/passkeys';
import { LocaleScope, useLocale, useT, useTexts, useTRule } from '../i18n';
import { connect, type ConnectionOptions } from './connect';
import { Field } from './Field';
import { usePublicLoginSettings } from './publicSettings';
import type { Flow } from './SignInFlow';
import { validateLogin, type LoginFieldErrors, type LoginValues } from './validateLogin';
import * as styles from './LoginForm.css';

const SignInFlow = lazy(() => import('./SignInFlow'));
const PasskeySignIn = lazy(() => import('./PasskeySignIn'));

export interface LoginSubmitDetail {
  username: string;
}
export interface LoginSuccessDetail {
  username: string;
  /** Where the server says to go next (POST /authc/login), when it says so. */
  redirectURL?: string;
}
export interface LoginErrorDetail {
  message: string;
}

export interface LoginFormProps extends ConnectionOptions {
  /** 'en' or 'zh', for this form only. Unset: the enclosing element's (the console's), else the page-wide one. */
  locale?: string;
  /** The application name in the subtitle (the console passes its branding); default the product's. */
  appName?: string;
  /** Before the sign-in call, once the input is valid. */
  onLoginSubmit?: (detail: LoginSubmitDetail) => void;
  onLoginSuccess?: (detail: LoginSuccessDetail) => void;
  onLoginError?: (detail: LoginErrorDetail) => void;
}

/** The core's special login error (Error('1001'): the server wants a captcha) has its own text. */
function failureText(error: unknown, t: Translate): string {
  const message = error instanceof Error ? error.message : String(error);
  return message === String(LOGIN_SPECIAL_CODE) ? t('login:captchaRequired') : message;
}

function send(values: LoginValues, nextStep: string | undefined, captchaKey: string, language: string, directory?: boolean): Promise<LoginResult> {
  const captcha = values.captcha === undefined ? {} : { captcha: values.captcha, captchaKey };
  if (nextStep !== undefined) return submitNextStep({ code: values.code ?? '', ...captcha, language });
  return login({ username: values.username, password: values.password, ...captcha, language, directory });
}

/** The sign-in form; with `locale`, in that language whatever the page's other elements show. */
export function LoginForm(props: LoginFormProps) {
  return props.locale === undefined ? (
    <SignInForm {...props} />
  ) : (
    <LocaleScope locale={props.locale}>
      <SignInForm {...props} />
    </LocaleScope>
  );
}

/** What <iam-login> renders: the form in its own `locale`, English when unset (never a neighbour's). */
export function LoginElementApp(props: LoginFormProps) {
  return (
    <LocaleScope locale={props.locale}>
      <SignInForm {...props} />
    </LocaleScope>
  );
}

function SignInForm({ appName, apiBase, authMode, tokenName, onLoginSubmit, onLoginSuccess, onLoginError }: LoginFormProps) {
  const t = useT();
  const tRule = useTRule();
  const textsReady = useTexts(undefined, 'login');
  // Before the settings' effect: it reads them from this API.
  useEffect(() => connect({ apiBase, authMode, tokenName }), [apiBase, authMode, tokenName]);
  const settings = usePublicLoginSettings(`${apiBase} ${authMode} ${tokenName}`);
  const passwordId = useId();
  const shownLocale = useLocale();
  const captchaUrl = useStore($loginCaptcha);
  const [captchaKey, setCaptchaKey] = useState(newCaptchaKey);
  const [passwordShown, setPasswordShown] = useState(false);
  const [errors, setErrors] = useState<LoginFieldErrors>();
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string>();
  /** The field whose value the server refused with `failure` (none when it asked for a captcha). */
  const [failedOn, setFailedOn] = useState<'password' | 'code'>();
  const failureId = useId();
  const failedBy = (field: 'password' | 'code') => (failure !== undefined && failedOn === field ? failureId : undefined);
  /** Set while the server waits for the next step of a multi-step sign-in (with a passkey's options when one may answer it). */
  const [nextStep, setNextStep] = useState<string>();
  const [passkeyOptions, setPasskeyOptions] = useState<PasskeyRequestOptions>();
  /** At the PASSKEY step: a recovery code is typed instead (no passkey at hand, or none usable on this page). */
  const [recoveryCode, setRecoveryCode] = useState(false);
  /** A flow in the form's place (forgot password, expired password); the phone form when it is the login method. */
  const [flow, setFlow] = useState<Flow>();
  /** A success message over the form (the password was reset). */
  const [notice, setNotice] = useState<string>();

  const captchaShown = captchaUrl !== undefined || settings?.captchaEnabled === true;
  // Every load of the image makes the server issue a new captcha: one URL per key.
  const captchaSrc = useCaptchaImage(captchaShown, captchaKey);

  // The settings first: the form's first paint already has the captcha or the phone form.
  if (!textsReady || settings === undefined) return null;

  const header = (
    <>
      <h2 className={styles.title}>{t('login:title')}</h2>
      <p className={styles.subtitle}>{t('login:subtitle', { app: appName || t('app.name') })}</p>
    </>
  );
  // What the first field takes: the settings' method (a username, an email or a mobile phone).
  const method = settings?.loginMethod ?? LoginMethod.USERNAME_PASSWORD;
  const shownFlow = flow ?? (method === LoginMethod.PHONE_CAPTCHA ? { kind: 'phone' as const } : undefined);
  if (shownFlow) {
    return (
      <div className={styles.card} lang={shownLocale}>
        <Suspense fallback={<p className={styles.hint}>{t('login:loading')}</p>}>
          <SignInFlow
            flow={shownFlow}
            header={header}
            settings={settings}
            onSubmitted={onLoginSubmit}
            onSuccess={(detail) => {
              setFlow(undefined);
              onLoginSuccess?.(detail);
            }}
            onError={onLoginError}
            onBack={(message) => {
              setFlow(undefined);
              setNotice(message);
            }}
          />
        </Suspense>
      </div>
    );
  }

  // Where the page may not use passkeys, a recovery code is the only answer to the PASSKEY step.
  const recoveryStep = nextStep === LoginStep.PASSKEY && (recoveryCode || !settings?.passkeyRpId);
  const passkeyStep = nextStep === LoginStep.PASSKEY && !recoveryStep;
  const shown = { captcha: captchaShown, code: nextStep !== undefined && !passkeyStep };
  const message = (name: keyof LoginFieldErrors) => {
    const rule = errors?.[name];
    return rule === undefined ? undefined : tRule(rule);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const form = event.currentTarget;
    const result = validateLogin(form, shown);
    setErrors(result.errors);
    if (!result.values) {
      form.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    const values = result.values;
    setFailure(undefined);
    setSubmitting(true);
    onLoginSubmit?.({ username: values.username });
    try {
      done(await send(values, nextStep, captchaKey, shownLocale, settings?.directorySignIn), values.username, values.password);
    } catch (error) {
      failed(error);
    } finally {
      setSubmitting(false);
    }
  };

  /** A sign-in's answer, whichever way it came (the form, a passkey). */
  const done = (answer: LoginResult, username: string, password = '') => {
    setFailure(undefined);
    setRecoveryCode(false);
    const inForm = answer.kind === 'nextStep' && answer.nextStep !== LoginStep.PASSWORD_EXPIRED && !answer.totpSetup;
    setNextStep(inForm ? answer.nextStep : undefined);
    if (answer.kind === 'success') onLoginSuccess?.({ username, redirectURL: answer.redirectURL });
    else if (answer.nextStep === LoginStep.PASSWORD_EXPIRED) setFlow({ kind: 'expired', username, password, stepTicket: answer.stepTicket ?? '' });
    else if (answer.totpSetup) setFlow({ kind: 'totpSetup', username, enrolment: answer.totpSetup });
    else setPasskeyOptions(answer.passkeyOptions);
  };

  const failed = (error: unknown) => {
    const text = failureText(error, t);
    setFailure(text);
    setFailedOn(error instanceof Error && error.message === String(LOGIN_SPECIAL_CODE) ? undefined : nextStep === undefined ? 'password' : 'code');
    onLoginError?.({ message: text });
    // A captcha is used up by every attempt: show a new one.
    setCaptchaKey(newCaptchaKey());
  };

  /** After a failed submit, the messages follow the input as it is corrected. */
  const onChange = (event: ChangeEvent<HTMLFormElement>) => {
    if (errors) setErrors(validateLogin(event.currentTarget, shown).errors);
  };

  return (
    <div className={styles.card} lang={shownLocale}>
      {header}
      {notice && (
        <p role="status" className={styles.notice}>
          {notice}
        </p>
      )}
      <form className={styles.form} noValidate onSubmit={onSubmit} onChange={onChange}>
        <Field
          label={t(`login:identifier.${method}`)}
          error={message('username')}
          input={{
            name: 'username',
            type: 'text',
            autoComplete: 'username webauthn',
            autoCapitalize: 'none',
            spellCheck: false,
            readOnly: shown.code,
            placeholder: t(`login:identifierPlaceholder.${method}`),
          }}
        />
        <Field
          label={t('login:password')}
          error={message('password')}
          failedBy={failedBy('password')}
          input={{
            id: passwordId,
            name: 'password',
            type: passwordShown ? 'text' : 'password',
            autoComplete: 'current-password',
            readOnly: shown.code,
            placeholder: t('login:passwordPlaceholder'),
          }}
          overlay
          addon={
            <button
              type="button"
              className={styles.toggle}
              aria-controls={passwordId}
              aria-label={t(passwordShown ? 'login:hidePassword' : 'login:showPassword')}
              onClick={() => setPasswordShown((isShown) => !isShown)}
            >
              <EyeIcon crossed={passwordShown} />
            </button>
          }
        />
        {shown.captcha && (
          <Field
            label={t('login:captcha')}
            error={message('captcha')}
            input={{
              name: 'captcha',
              type: 'text',
              autoComplete: 'off',
              autoCapitalize: 'none',
              spellCheck: false,
              placeholder: t('login:captchaPlaceholder'),
            }}
            addon={
              <button type="button" className={styles.captchaButton} aria-label={t('login:newCaptcha')} onClick={() => setCaptchaKey(newCaptchaKey())}>
                <img className={styles.captchaImage} src={captchaSrc} alt={t('login:captchaImage')} />
              </button>
            }
          />
        )}
        {shown.code && (
          <>
            <p className={styles.hint}>{t(nextStep === LoginStep.TOTP ? 'login:codeHintTotp' : recoveryStep ? 'login:codeHintRecovery' : 'login:codeHint')}</p>
            <Field
              label={t('login:code')}
              error={message('code')}
              failedBy={failedBy('code')}
              input={{
                name: 'code',
                type: 'text',
                inputMode: nextStep === LoginStep.PHONE_CAPTCHA ? 'numeric' : 'text',
                autoComplete: 'one-time-code',
                placeholder: t(
                  nextStep === LoginStep.TOTP ? 'login:codePlaceholderTotp' : recoveryStep ? 'login:codePlaceholderRecovery' : 'login:codePlaceholder',
                ),
              }}
            />
          </>
        )}
        {failure && (
          <p id={failureId} role="alert" className={styles.formError}>
            {failure}
          </p>
        )}
        {/* aria-disabled, not disabled: a disabled button loses the focus to the page's body. */}
        {!passkeyStep && (
          <button type="submit" className={styles.submit} aria-disabled={submitting}>
            {t(submitting ? 'login:submitting' : shown.code ? 'login:verify' : 'login:submit')}
          </button>
        )}
        {settings?.passkeyRpId && (
          <Suspense>
            <PasskeySignIn
              rpId={settings.passkeyRpId}
              step={nextStep === undefined ? undefined : passkeyStep ? 'passkey' : 'besideCode'}
              options={passkeyOptions}
              language={shownLocale}
              onDone={done}
              onFailed={failed}
            />
          </Suspense>
        )}
        {passkeyStep && (
          <button type="button" className={styles.linkButton} onClick={() => setRecoveryCode(true)}>
            {t('login:recoveryInstead')}
          </button>
        )}
        {nextStep === undefined && (
          <button type="button" className={styles.linkButton} onClick={() => setFlow({ kind: 'forgot' })}>
            {t('login:forgotPassword')}
          </button>
        )}
      </form>
    </div>
  );
}

/** An eye (password hidden: "show") or a crossed eye (password shown: "hide"). */
function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <svg
      className={styles.icon}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z" />
      <circle cx="12" cy="12" r="3" />
      {crossed && <path d="M4 4l16 16" />}
    </svg>
  );
}
