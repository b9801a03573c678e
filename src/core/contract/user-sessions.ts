// Calls of server/routes/user-sessions.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration } from './declare';
import * as v from 'valibot';
import { idParams, okAnswer } from '../schemas/common';
import { userSession, userSessionParams } from '../schemas/auth';

/** GET /user/:id/sessions */
export const getUserSessions = {
  method: 'GET',
  path: '/user/:id/sessions',
  params: idParams,
  response: v.array(userSession),
} as const satisfies CallDeclaration;

/** DELETE /user/:id/sessions */
export const deleteUserSessions = {
  method: 'DELETE',
  path: '/user/:id/sessions',
  params: idParams,
  response: v.object({ revoked: v.number() }),
} as const satisfies CallDeclaration;

/** DELETE /user/:id/sessions/:sessionId */
export const deleteUserSessionsBySessionId = {
  method: 'DELETE',
  path: '/user/:id/sessions/:sessionId',
  params: userSessionParams,
  response: okAnswer,
} as const satisfies CallDeclaration;
