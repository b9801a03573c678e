// The audit log of security events: who did what to whom, when, from where, and whether it worked.
import type { Kysely } from 'kysely';
import type { Database } from './db/tables';
import type { AuditAction } from '../src/core/schemas/audit';

export type { AuditAction } from '../src/core/schemas/audit';

export interface AuditEvent {
  action: AuditAction;
  actor?: { id: string; username: string } | null;
  target?: { type: string; id: string | null } | null;
  tenantId?: string | null;
  ip?: string | null;
  success?: boolean;
  detail?: Record<string, unknown>;
}

export class AuditLog {
  private readonly listeners: ((event: AuditEvent) => void)[] = [];

  constructor(private readonly db: Kysely<Database>, private readonly now: () => number) {}

  /** Tells `listener` of every event recorded from now on (the metrics count sign-ins this way). */
  listen(listener: (event: AuditEvent) => void): void {
    this.listeners.push(listener);
  }

  async record(event: AuditEvent): Promise<void> {
    for (const listener of this.listeners) listener(event);
    await this.db.insertInto('auditLog').values({
      at: this.now(),
      actorId: event.actor?.id ?? null,
      actorName: event.actor?.username ?? null,
      action: event.action,
      targetType: event.target?.type ?? null,
      targetId: event.target?.id ?? null,
      tenantId: event.tenantId ?? null,
      ip: event.ip ?? null,
      success: event.success === false ? 0 : 1,
      detail: JSON.stringify(event.detail ?? {}),
    }).execute();
  }
}
