// Calls of server/routes/account-security.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration } from './declare';
import { recoveryCodes, recoveryCodesBody, recoveryCodeStatus, signedOutEverywhere, signOutEverywhereBody } from '../schemas/account-security';

/** GET /user/recovery-codes */
export const getUserRecoveryCodes = { method: 'GET', path: '/user/recovery-codes', response: recoveryCodeStatus } as const satisfies CallDeclaration;

/** POST /user/recovery-codes */
export const postUserRecoveryCodes = {
  method: 'POST',
  path: '/user/recovery-codes',
  body: recoveryCodesBody,
  response: recoveryCodes,
} as const satisfies CallDeclaration;

/** POST /cas/logout/everywhere */
export const postCasLogoutEverywhere = {
  method: 'POST',
  path: '/cas/logout/everywhere',
  body: signOutEverywhereBody,
  response: signedOutEverywhere,
} as const satisfies CallDeclaration;
