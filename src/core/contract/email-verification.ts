// Calls of server/routes/email-verification.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration } from './declare';
import { okAnswer } from '../schemas/common';
import { verificationParams, verifiedAnswer } from '../schemas/email-verification';

/** POST /user/email/verification */
export const postUserEmailVerification = { method: 'POST', path: '/user/email/verification', response: okAnswer } as const satisfies CallDeclaration;

/** POST /verified/:code */
export const postVerifiedByCode = {
  method: 'POST',
  path: '/verified/:code',
  params: verificationParams,
  response: verifiedAnswer,
} as const satisfies CallDeclaration;
