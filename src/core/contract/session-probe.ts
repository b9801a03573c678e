// Calls of server/routes/session-probe.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration } from './declare';
import * as v from 'valibot';
import { sessionAnswer } from '../schemas/auth';

/** GET /cas/session/probe */
export const getCasSessionProbe = { method: 'GET', path: '/cas/session/probe', response: v.nullable(sessionAnswer) } as const satisfies CallDeclaration;
