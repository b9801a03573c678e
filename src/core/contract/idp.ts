// Calls of server/routes/idp.ts, and the links of server/routes/idp-login.ts (the third-party
// sign-in's redirects), one declaration each (src/core/contract/declare.ts). The links live here
// rather than in a module of their own: the sign-in page and the providers' settings read both, and
// a second module would be a chunk of its own (one more file on the console's first visit).
import type { CallDeclaration, LinkDeclaration } from './declare';
import * as v from 'valibot';
import { okAnswer } from '../schemas/common';
import { loginAnswer } from '../schemas/auth';
import { accessInfo, accessInfoParams, accessTicketQuery, idpCodeParams, idpCreateBody, idpDetail, idpSummary, linkBody } from '../schemas/idp';
import { complementBody } from '../schemas/idp-complement';
import { complementAnswer, idpUpdateBody, providerStartQuery } from '../schemas/idp-login';

/** GET /interaction/idp/:idpCode/authorize/user/access/info/:token */
export const getProviderAccessInfo = {
  method: 'GET',
  path: '/interaction/idp/:idpCode/authorize/user/access/info/:token',
  params: accessInfoParams,
  query: accessTicketQuery,
  response: accessInfo,
} as const satisfies CallDeclaration;

/** POST /interaction/idp/:idpCode/authorize/after/user/complement */
export const postProviderComplement = {
  method: 'POST',
  path: '/interaction/idp/:idpCode/authorize/after/user/complement',
  params: idpCodeParams,
  query: accessTicketQuery,
  body: complementBody,
  response: complementAnswer,
} as const satisfies CallDeclaration;

/** POST /interaction/idp/:idpCode/authorize/after/user/link */
export const postProviderLink = {
  method: 'POST',
  path: '/interaction/idp/:idpCode/authorize/after/user/link',
  params: idpCodeParams,
  query: accessTicketQuery,
  body: linkBody,
  response: loginAnswer,
} as const satisfies CallDeclaration;

/** GET /idps */
export const getIdps = { method: 'GET', path: '/idps', response: v.array(idpSummary) } as const satisfies CallDeclaration;

/** GET /idps/all */
export const getIdpsAll = { method: 'GET', path: '/idps/all', response: v.array(idpDetail) } as const satisfies CallDeclaration;

/** POST /idps */
export const postIdps = { method: 'POST', path: '/idps', body: idpCreateBody, response: idpSummary } as const satisfies CallDeclaration;

/** PUT /idps/:idpCode */
export const putIdpsByIdpCode = {
  method: 'PUT',
  path: '/idps/:idpCode',
  params: idpCodeParams,
  body: idpUpdateBody,
  response: idpSummary,
} as const satisfies CallDeclaration;

/** DELETE /idps/:idpCode */
export const deleteIdpsByIdpCode = { method: 'DELETE', path: '/idps/:idpCode', params: idpCodeParams, response: okAnswer } as const satisfies CallDeclaration;

/** GET /interaction/idp/:idpCode/authorize (a sign-in button's `href`) */
export const getProviderStart = {
  method: 'GET',
  path: '/interaction/idp/:idpCode/authorize',
  params: idpCodeParams,
  query: providerStartQuery,
  answers: 'redirect',
} as const satisfies LinkDeclaration;

/** GET /interaction/idp/:idpCode/authorize/callback (the redirect URI registered at the provider) */
export const getProviderCallback = {
  method: 'GET',
  path: '/interaction/idp/:idpCode/authorize/callback',
  params: idpCodeParams,
  answers: 'redirect',
} as const satisfies LinkDeclaration;
