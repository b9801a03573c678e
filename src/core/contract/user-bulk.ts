// Calls of server/routes/user-bulk.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration } from './declare';
import { bulkUserAnswer, bulkUserBody } from '../schemas/user-bulk';

/** POST /user/bulk */
export const postUserBulk = { method: 'POST', path: '/user/bulk', body: bulkUserBody, response: bulkUserAnswer } as const satisfies CallDeclaration;
