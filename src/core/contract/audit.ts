// Calls of server/routes/audit.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration } from './declare';
import { auditList, auditListQuery } from '../schemas/audit';

/** GET /audit */
export const getAudit = { method: 'GET', path: '/audit', query: auditListQuery, response: auditList } as const satisfies CallDeclaration;
