// The audit log: the list (paged on the server, filtered) and its CSV export (its address, its file).
import { PAGING } from '../config';
import { getAudit, getAuditExport } from '../contract/audit';
import type { CallAnswer } from '../contract/declare';
import type { AuditAction } from '../schemas/audit';
import { callList, fileOf, urlOf } from './call';

export type AuditEntry = CallAnswer<typeof getAudit>['list'][number];

export interface AuditFilter {
  /** Events at or after this time (epoch ms). */
  from?: number;
  /** Events at or before this time (epoch ms). */
  to?: number;
  /** Part of the actor's username. */
  actor?: string;
  /** Part of the target's name, or its id. */
  target?: string;
  /** The rows of one bulk action or import (its event's id). */
  parentId?: number;
  action?: AuditAction;
  /** Events of this tenant's subtree. */
  tenantId?: string;
}

export interface AuditQuery extends AuditFilter {
  page?: number;
  size?: number;
}

/** GET /audit, newest first; empty values are not sent. */
export function listAudit(query: AuditQuery = {}): Promise<CallAnswer<typeof getAudit>> {
  return callList(getAudit, { query: { page: PAGING.page, size: PAGING.size, ...query } });
}

/** GET /audit/export: the address of the filtered events as a CSV file. */
export function auditExportUrl(filter: AuditFilter): string {
  return urlOf(getAuditExport, { query: filter });
}

/** The same CSV file, fetched with the session (the cookie, or the token header). */
export function exportAudit(filter: AuditFilter): Promise<Blob> {
  return fileOf(getAuditExport, { query: filter });
}
