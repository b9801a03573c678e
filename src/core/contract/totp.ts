// Calls of server/routes/totp.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration } from './declare';
import { okAnswer } from '../schemas/common';
import { totpCodeBody, totpEnrolBody, totpEnrolment, totpStatus } from '../schemas/totp';

/** GET /user/totp */
export const getUserTotp = { method: 'GET', path: '/user/totp', response: totpStatus } as const satisfies CallDeclaration;

/** POST /user/totp */
export const postUserTotp = { method: 'POST', path: '/user/totp', body: totpEnrolBody, response: totpEnrolment } as const satisfies CallDeclaration;

/** POST /user/totp/confirm */
export const postUserTotpConfirm = { method: 'POST', path: '/user/totp/confirm', body: totpCodeBody, response: okAnswer } as const satisfies CallDeclaration;

/** POST /user/totp/disable */
export const postUserTotpDisable = { method: 'POST', path: '/user/totp/disable', body: totpCodeBody, response: okAnswer } as const satisfies CallDeclaration;
