// Calls of server/routes/passkeys.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration } from './declare';
import * as v from 'valibot';
import { idParams, okAnswer } from '../schemas/common';
import { loginAnswer, loginQuery } from '../schemas/auth';
import {
  passkeyAddBody,
  passkeyCreationOptions,
  passkeyInfo,
  passkeyLoginBody,
  passkeyOptionsBody,
  passkeyRemoveBody,
  passkeyRenameBody,
  passkeyRequestOptions,
} from '../schemas/passkeys';

/** GET /user/passkeys */
export const getUserPasskeys = { method: 'GET', path: '/user/passkeys', response: v.array(passkeyInfo) } as const satisfies CallDeclaration;

/** POST /user/passkeys/options */
export const postUserPasskeysOptions = {
  method: 'POST',
  path: '/user/passkeys/options',
  body: passkeyOptionsBody,
  response: passkeyCreationOptions,
} as const satisfies CallDeclaration;

/** POST /user/passkeys */
export const postUserPasskeys = { method: 'POST', path: '/user/passkeys', body: passkeyAddBody, response: passkeyInfo } as const satisfies CallDeclaration;

/** PUT /user/passkeys/:id */
export const putUserPasskeysById = {
  method: 'PUT',
  path: '/user/passkeys/:id',
  params: idParams,
  body: passkeyRenameBody,
  response: passkeyInfo,
} as const satisfies CallDeclaration;

/** DELETE /user/passkeys/:id */
export const deleteUserPasskeysById = {
  method: 'DELETE',
  path: '/user/passkeys/:id',
  params: idParams,
  body: passkeyRemoveBody,
  response: okAnswer,
} as const satisfies CallDeclaration;

/** POST /authc/passkey/options */
export const postAuthcPasskeyOptions = { method: 'POST', path: '/authc/passkey/options', response: passkeyRequestOptions } as const satisfies CallDeclaration;

/** POST /authc/passkey/login */
export const postAuthcPasskeyLogin = {
  method: 'POST',
  path: '/authc/passkey/login',
  query: loginQuery,
  body: passkeyLoginBody,
  response: loginAnswer,
} as const satisfies CallDeclaration;
