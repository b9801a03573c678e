// Calls of server/routes/auth.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration, LinkDeclaration } from './declare';
import * as v from 'valibot';
import {
  captchaQuery,
  casLoginAnswer,
  expiredPasswordBody,
  loginAnswer,
  loginBody,
  loginCodeBody,
  loginQuery,
  loginStepBody,
  logoutAnswer,
  sessionAnswer,
  sessionInfo,
} from '../schemas/auth';
import { idParams, okAnswer } from '../schemas/common';

/** POST /authc/login */
export const postAuthcLogin = {
  method: 'POST',
  path: '/authc/login',
  query: loginQuery,
  body: loginBody,
  response: loginAnswer,
} as const satisfies CallDeclaration;

/** POST /authc/login/step */
export const postAuthcLoginStep = {
  method: 'POST',
  path: '/authc/login/step',
  query: loginQuery,
  body: loginStepBody,
  response: loginAnswer,
} as const satisfies CallDeclaration;

/** POST /authc/login/code */
export const postAuthcLoginCode = { method: 'POST', path: '/authc/login/code', body: loginCodeBody, response: okAnswer } as const satisfies CallDeclaration;

/** PUT /authc/password/expired */
export const putAuthcPasswordExpired = {
  method: 'PUT',
  path: '/authc/password/expired',
  query: loginQuery,
  body: expiredPasswordBody,
  response: loginAnswer,
} as const satisfies CallDeclaration;

/** GET /cas/session */
export const getCasSession = { method: 'GET', path: '/cas/session', response: sessionAnswer } as const satisfies CallDeclaration;

/** GET /cas/login */
export const getCasLogin = { method: 'GET', path: '/cas/login', query: loginQuery, response: casLoginAnswer } as const satisfies CallDeclaration;

/** GET /cas/logout */
export const getCasLogout = { method: 'GET', path: '/cas/logout', response: logoutAnswer } as const satisfies CallDeclaration;

/** DELETE /authc/user/:id/login/unlock */
export const deleteAuthcUserLoginUnlock = {
  method: 'DELETE',
  path: '/authc/user/:id/login/unlock',
  params: idParams,
  response: okAnswer,
} as const satisfies CallDeclaration;

/** GET /cas/sessions */
export const getCasSessions = { method: 'GET', path: '/cas/sessions', response: v.array(sessionInfo) } as const satisfies CallDeclaration;

/** DELETE /cas/sessions/:id */
export const deleteCasSessionsById = { method: 'DELETE', path: '/cas/sessions/:id', params: idParams, response: okAnswer } as const satisfies CallDeclaration;

/** DELETE /cas/sessions */
export const deleteCasSessions = { method: 'DELETE', path: '/cas/sessions', response: v.object({ revoked: v.number() }) } as const satisfies CallDeclaration;

/** GET /captcha/image/display (an image's `src`) */
export const getCaptchaImage = {
  method: 'GET',
  path: '/captcha/image/display',
  query: captchaQuery,
  answers: 'image/png',
} as const satisfies LinkDeclaration;
