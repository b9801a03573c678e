// The audit log as the attack files read it: the records written since a known id (harness.ts's
// lastAuditId), straight from the database, oldest first.
import type { TestServer } from './harness';

export interface AuditRow {
  id: number;
  action: string;
  actorId: string | null;
  actorName: string | null;
  targetType: string | null;
  targetId: string | null;
  tenantId: string | null;
  success: number;
  ip: string | null;
  detail: string;
}

/** The audit records written after the one numbered `id`, in the order they were written. */
export const auditSince = async (server: TestServer, id: number) =>
  (await server.app.ctx.db.selectFrom('auditLog').selectAll().where('id', '>', id).orderBy('id').execute()) as unknown as AuditRow[];
