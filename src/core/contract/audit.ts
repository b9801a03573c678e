// Calls of server/routes/audit.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration, LinkDeclaration } from './declare';
import { auditExportQuery, auditList, auditListQuery } from '../schemas/audit';

/** GET /audit */
export const getAudit = { method: 'GET', path: '/audit', query: auditListQuery, response: auditList } as const satisfies CallDeclaration;

/** GET /audit/export (a download) */
export const getAuditExport = { method: 'GET', path: '/audit/export', query: auditExportQuery, answers: 'text/csv' } as const satisfies LinkDeclaration;
