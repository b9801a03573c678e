// §7 sign-in and session calls. The session module (../session) builds the flows on them.
import { request, type Query } from '../http';
import type { CasLoginAnswer, LoginAnswer, LoginForm, LogoutAnswer, SessionAnswer } from '../types';

/** POST /authc/login; `form.password` must already be transformed. Query params (redirect …) pass through.
 *  Silent and without the 401 redirect: the sign-in flow reports its own errors. */
export function login(form: LoginForm, query?: Query): Promise<LoginAnswer> {
  return request<LoginAnswer>('POST', '/authc/login', { body: form, query, silent: true, authRedirect: false });
}

/** GET /cas/session (silent): the signed-in user. */
export function casSession(): Promise<SessionAnswer> {
  return request<SessionAnswer>('GET', '/cas/session', { silent: true, authRedirect: false });
}

/** GET /cas/login: whether the caller is signed in, and where to go next. */
export function casLogin(query?: Query): Promise<CasLoginAnswer> {
  return request<CasLoginAnswer>('GET', '/cas/login', { query, authRedirect: false });
}

/** GET /cas/logout: ends the session; answers where to go. */
export function casLogout(): Promise<LogoutAnswer> {
  return request<LogoutAnswer>('GET', '/cas/logout', { authRedirect: false });
}
