// Calls of server/routes/password-reset.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration } from './declare';
import { okAnswer } from '../schemas/common';
import { passwordResetBody, resetCodeBody } from '../schemas/password-reset';

/** POST /user/password/reset-code */
export const postUserPasswordResetCode = {
  method: 'POST',
  path: '/user/password/reset-code',
  body: resetCodeBody,
  response: okAnswer,
} as const satisfies CallDeclaration;

/** PUT /user/password/reset */
export const putUserPasswordReset = {
  method: 'PUT',
  path: '/user/password/reset',
  body: passwordResetBody,
  response: okAnswer,
} as const satisfies CallDeclaration;
