// The audit log: the list (paged on the server, filtered) and the address of its CSV export.
import type * as v from 'valibot';
import { PAGING } from '../config';
import { apiUrl, requestList } from '../http';
import type { AuditAction, auditEntry } from '../schemas/audit';
import type { PagedList } from '../types';

export type AuditEntry = v.InferOutput<typeof auditEntry>;

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
export function listAudit(query: AuditQuery = {}): Promise<PagedList<AuditEntry>> {
  return requestList<AuditEntry>('/audit', { page: PAGING.page, size: PAGING.size, ...query });
}

/** GET /audit/export: the filtered events as a CSV file (a link the browser downloads, with the session cookie). */
export function auditExportUrl(filter: AuditFilter): string {
  return apiUrl('/audit/export', { ...filter });
}
