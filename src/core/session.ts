// The session (nanostores): sign-in (with the optional next step), reload, logout. The store itself
// lives in session-state.ts so that the HTTP client can clear it on a 401.
import { atom } from 'nanostores';
import * as auth from './api/auth';
import { $config } from './config-store';
import { HttpError, setToken, type Query } from './http';
import { t } from './i18n';
import { notifyError } from './messages';
import { currentLocation, requestNavigation } from './navigation';
import { transformPassword } from './password-transform';
import { accessDenial } from './permissions';
import { LOGIN_PATH, isPublicLocation, withRedirect } from './public-routes';
import { $session, clearSession, type SessionState } from './session-state';
import type { LoginAnswer, LoginErrorData, LoginForm } from './types';
import type { TotpEnrolment } from './api/totp';
import type { AuthenticationCredential, PasskeyRequestOptions } from './api/passkeys';

export { $session, type SessionState };

/** The login code that is rethrown as Error('1001') (the server uses it for "captcha needed"). */
export const LOGIN_SPECIAL_CODE = 1001;

export interface LoginInput {
  username: string;
  /** The plain password: trimmed and transformed before it is sent. */
  password: string;
  captcha?: string;
  /** The key of the captcha image shown (api/captcha `newCaptchaKey`). */
  captchaKey?: string;
  /** The language of the server's answer (the form's own locale), else the page-wide one. */
  language?: string;
  /** A directory checks passwords here (public login settings' `directorySignIn`): the password as
   *  typed goes along, for the LDAP bind. */
  directory?: boolean | undefined;
}

export type LoginResult =
  | { kind: 'success'; redirectURL?: string; session: SessionState }
  /** Multi-step login: show the next step, then call `submitNextStep`; with `passkeyOptions` a
   *  passkey may answer it (passkeys.ts `passkeySecondStep`). PASSWORD_EXPIRED comes with the
   *  `stepTicket` its change takes (api/auth.ts `changeExpiredPassword`). */
  | { kind: 'nextStep'; nextStep: string; message?: string; totpSetup?: TotpEnrolment; passkeyOptions?: PasskeyRequestOptions; stepTicket?: string };

/** The captcha image URL a failed sign-in asked for: while set, the UI shows the captcha field. */
export const $loginCaptcha = atom<string | undefined>(undefined);

/** The first step of a multi-step sign-in, kept in memory until the next step is submitted. */
let pendingStep: { form: LoginForm; query?: Query; nextStep: string; language?: string } | undefined;

function failLogin(error: unknown): never {
  if (error instanceof HttpError) {
    const data = (error.data ?? {}) as LoginErrorData;
    $loginCaptcha.set(data.captchaImageUrl);
    if (error.code === LOGIN_SPECIAL_CODE || Number(data.code) === LOGIN_SPECIAL_CODE) throw new Error(String(LOGIN_SPECIAL_CODE));
  }
  // The call is silent and the sign-in form shows the message itself: no toast, announced once.
  throw error;
}

async function submit(form: LoginForm, query: Query | undefined, language: string | undefined): Promise<LoginResult> {
  let answer: LoginAnswer;
  try {
    answer = await auth.login(form, query, language);
  } catch (error) {
    failLogin(error);
  }
  if (answer.hasNextStep) {
    const nextStep = answer.nextStep ?? '';
    pendingStep = { form, query, nextStep, language };
    // The answer's message, totpSetup, passkeyOptions and stepTicket as they came (its other
    // fields ride along: spelling out each one costs the sign-in entry bytes it does not have).
    return { ...answer, kind: 'nextStep', nextStep };
  }
  pendingStep = undefined;
  return finishSignIn(answer);
}

/** Ends a sign-in answer, this module's or another call's (the PHONE_CAPTCHA code, the change of an
 *  expired password): a refusal throws its message; a success forgets the captcha, keeps the token
 *  in token mode and reads the session. */
export async function finishSignIn(answer: LoginAnswer): Promise<Extract<LoginResult, { kind: 'success' }>> {
  if (!answer.loginSuccess) throw new Error(answer.message || t('message.userAuthInfoUnavailable'));
  $loginCaptcha.set(undefined);
  if (answer.token) setToken(answer.token, answer.tokenName);
  return { kind: 'success', redirectURL: answer.redirectURL, session: await reload() };
}

/** Signs in: POST /authc/login with the transformed password (query params such as `redirect` pass
 *  through), then reloads the session. Failures show the message (or 'User auth info unavailable');
 *  the special code 1001 is rethrown as Error('1001'). */
export async function login(input: LoginInput, query?: Query): Promise<LoginResult> {
  const password = await transformPassword(input.password);
  const directoryPassword = input.directory ? input.password.trim() : undefined;
  return submit({ username: input.username.trim(), password, directoryPassword, captcha: input.captcha, captchaKey: input.captchaKey }, query, input.language);
}

/** Continues a multi-step sign-in with the next step's code, or a passkey's assertion. */
export async function submitNextStep(input: {
  code?: string;
  passkey?: AuthenticationCredential;
  captcha?: string;
  captchaKey?: string;
  language?: string;
}): Promise<LoginResult> {
  if (!pendingStep) throw new Error('No sign-in step is pending');
  const { form, query, nextStep, language } = pendingStep;
  return submit(
    {
      ...form,
      nextStep,
      code: input.code?.trim(),
      passkey: input.passkey,
      captcha: input.captcha ?? form.captcha,
      captchaKey: input.captchaKey ?? form.captchaKey,
    },
    query,
    input.language ?? language,
  );
}

/** Leaves for the session-read failure target: the answer's redirectURL, else /login with a redirect
 *  query, unless the current page needs no sign-in (the login page itself, 404 …). */
function leaveAfterReadFailure(error: unknown): void {
  const location = currentLocation();
  if (isPublicLocation(location)) return;
  const data = error instanceof HttpError ? (error.data as { redirectURL?: unknown } | null) : null;
  const target = typeof data?.redirectURL === 'string' && data.redirectURL ? data.redirectURL : withRedirect(LOGIN_PATH, location);
  requestNavigation(target);
}

function deny(text: string): never {
  notifyError(text);
  clearSession();
  setToken(undefined);
  throw new Error(text);
}

/** Reads the session (GET /cas/session, silent). An empty permission table (or, with `authCheck`, a
 *  non-master user without administered apps) shows 'Access is denied' and clears the session. */
export async function reload(options: { authCheck?: boolean } = {}): Promise<SessionState> {
  let answer;
  try {
    answer = await auth.casSession();
    // No session: what the server answered with 401 before the anonymous probe.
    if (answer === null) throw new HttpError(401, 401, t('message.authorizationError'));
  } catch (error) {
    clearSession();
    if (error instanceof HttpError && error.status === 401) setToken(undefined);
    leaveAfterReadFailure(error);
    throw error;
  }
  if (!answer?.user || !Array.isArray(answer.user.permissions)) deny(t('message.invalidAuthUserInfo'));
  const { user, administeredApps = [] } = answer;
  if (accessDenial(user, administeredApps, { aclSwitch: $config.get().settings.business.aclSwitch, authCheck: options.authCheck })) {
    deny(t('message.accessDenied'));
  }
  const state: SessionState = { status: 'authenticated', user, administeredApps, id: answer.id };
  $session.set(state);
  return state;
}

/** Signs out (GET /cas/logout), forgets the session and goes to the answer's appLogoutURL (a full
 *  page load through the SAML apps' sign-out), else its redirectURL or /login.
 *  Resolves to that target; the local session is cleared even when the call fails. */
export async function logout(): Promise<string> {
  let target = LOGIN_PATH;
  let appLogoutURL: string | undefined;
  try {
    const answer = await auth.casLogout();
    if (answer?.redirectURL) target = answer.redirectURL;
    appLogoutURL = answer?.appLogoutURL;
  } catch {
    // Already reported by the HTTP client; signing out locally still goes on.
  } finally {
    pendingStep = undefined;
    clearSession();
    setToken(undefined);
  }
  // SAML apps reached only through the browser: the server's page visits each, then the sign-in page.
  if (appLogoutURL && globalThis.location) {
    globalThis.location.assign(appLogoutURL);
    return appLogoutURL;
  }
  requestNavigation(target);
  return target;
}
