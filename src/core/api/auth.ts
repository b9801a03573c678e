// sign-in and session calls. The session module (../session) builds the flows on them.
import { getCasLogin, getCasLogout, postAuthcLogin, postAuthcLoginCode, putAuthcPasswordExpired } from '../contract/auth';
import type { CallAnswer, CallInput } from '../contract/declare';
import { getCasSessionProbe } from '../contract/session-probe';
import type { LoginForm } from '../types';
import { call } from './call';

/** What passes through a sign-in (where to go afterwards). */
export type LoginQuery = CallInput<typeof postAuthcLogin>['query'];
type LoginAnswer = CallAnswer<typeof postAuthcLogin>;

/** POST /authc/login; `form.password` must already be transformed. Query params (redirect …) pass through;
 *  `language` asks for the answer's message in that language.
 *  Silent and without the 401 redirect: the sign-in flow reports its own errors. */
export function login(form: LoginForm, query?: LoginQuery, language?: string): Promise<LoginAnswer> {
  const headers = language ? { 'accept-language': language } : undefined;
  return call(postAuthcLogin, { body: form, query }, { headers, silent: true, authRedirect: false });
}

/** GET /cas/session/probe (silent): the signed-in user, or null without a session (answered 200,
 *  so that an anonymous visit logs no network error in the browser). */
export function casSession(): Promise<CallAnswer<typeof getCasSessionProbe>> {
  return call(getCasSessionProbe, {}, { silent: true, authRedirect: false });
}

/** GET /cas/login: whether the caller is signed in, and where to go next. */
export function casLogin(query?: CallInput<typeof getCasLogin>['query']): Promise<CallAnswer<typeof getCasLogin>> {
  return call(getCasLogin, { query }, { authRedirect: false });
}

/** GET /cas/logout: ends the session; answers where to go. */
export function casLogout(): Promise<CallAnswer<typeof getCasLogout>> {
  return call(getCasLogout, {}, { authRedirect: false });
}

/** POST /authc/login/code (PHONE_CAPTCHA login method): sends a sign-in code by SMS. The server
 *  answers alike whether or not the number belongs to someone; 1001 asks for the captcha first. */
export async function sendLoginCode(phone: string, captcha?: { captcha: string; captchaKey: string }): Promise<void> {
  await call(postAuthcLoginCode, { body: { phone: phone.trim(), ...captcha } }, { silent: true, authRedirect: false });
}

/** POST /authc/login with the PHONE_CAPTCHA login method: the phone and the code sent to it. */
export function loginWithCode(phone: string, code: string, query?: LoginQuery): Promise<LoginAnswer> {
  return call(postAuthcLogin, { body: { username: phone.trim(), code: code.trim() }, query }, { silent: true, authRedirect: false });
}

/** PUT /authc/password/expired: after the sign-in answered PASSWORD_EXPIRED, its step ticket, the old
 *  and the new password (both already transformed); opens the session like a sign-in. */
export function changeExpiredPassword(input: CallInput<typeof putAuthcPasswordExpired>['body'], query?: LoginQuery): Promise<LoginAnswer> {
  return call(putAuthcPasswordExpired, { body: { ...input, username: input.username.trim() }, query }, { silent: true, authRedirect: false });
}
