// Calls of server/routes/idp.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration } from './declare';
import * as v from 'valibot';
import { okAnswer } from '../schemas/common';
import { loginAnswer } from '../schemas/auth';
import { accessInfo, accessInfoParams, accessTicketQuery, idpCodeParams, idpCreateBody, idpDetail, idpSummary, linkBody } from '../schemas/idp';
import { complementBody } from '../schemas/idp-complement';
import { complementAnswer, idpUpdateBody } from '../schemas/idp-login';

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
