// sign-in and session calls. The session module (../session) builds the flows on them.
import { request, type Query } from '../http';
import type { CasLoginAnswer, LoginAnswer, LoginForm, LogoutAnswer, SessionAnswer } from '../types';

/** POST /authc/login; `form.password` must already be transformed. Query params (redirect …) pass through;
 *  `language` asks for the answer's message in that language.
 *  Silent and without the 401 redirect: the sign-in flow reports its own errors. */
export function login(form: LoginForm, query?: Query, language?: string): Promise<LoginAnswer> {
  const headers = language ? { 'accept-language': language } : undefined;
  return request<LoginAnswer>('POST', '/authc/login', { body: form, query, headers, silent: true, authRedirect: false });
}

/** GET /cas/session/probe (silent): the signed-in user, or null without a session (answered 200,
 *  so that an anonymous visit logs no network error in the browser). */
export function casSession(): Promise<SessionAnswer | null> {
  return request<SessionAnswer | null>('GET', '/cas/session/probe', { silent: true, authRedirect: false });
}

/** GET /cas/login: whether the caller is signed in, and where to go next. */
export function casLogin(query?: Query): Promise<CasLoginAnswer> {
  return request<CasLoginAnswer>('GET', '/cas/login', { query, authRedirect: false });
}

/** GET /cas/logout: ends the session; answers where to go. */
export function casLogout(): Promise<LogoutAnswer> {
  return request<LogoutAnswer>('GET', '/cas/logout', { authRedirect: false });
}

/** POST /authc/login/code (PHONE_CAPTCHA login method): sends a sign-in code by SMS. The server
 *  answers alike whether or not the number belongs to someone; 1001 asks for the captcha first. */
export function sendLoginCode(phone: string, captcha?: { captcha: string; captchaKey: string }): Promise<void> {
  return request<void>('POST', '/authc/login/code', { body: { phone: phone.trim(), ...captcha }, silent: true, authRedirect: false });
}

/** POST /authc/login with the PHONE_CAPTCHA login method: the phone and the code sent to it. */
export function loginWithCode(phone: string, code: string, query?: Query): Promise<LoginAnswer> {
  return request<LoginAnswer>('POST', '/authc/login', { body: { username: phone.trim(), code: code.trim() }, query, silent: true, authRedirect: false });
}

/** PUT /authc/password/expired: after the sign-in answered PASSWORD_EXPIRED, its step ticket, the old
 *  and the new password (both already transformed); opens the session like a sign-in. */
export function changeExpiredPassword(
  input: { stepTicket: string; username: string; password: string; newPassword: string },
  query?: Query,
): Promise<LoginAnswer> {
  return request<LoginAnswer>('PUT', '/authc/password/expired', {
    body: { ...input, username: input.username.trim() },
    query,
    silent: true,
    authRedirect: false,
  });
}
