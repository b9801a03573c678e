// The audit log of security events: who did what to whom, when, from where, and whether it worked.
// What other parts derive from an event (the webhooks' deliveries, server/webhooks/queue.ts) is
// written by followers in the same transaction as the event's row.
import type { Kysely, Transaction } from 'kysely';
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

/** Derives work from events recorded at `at`: answers what to write with them (in their
 *  transaction), or undefined when there is nothing. `written` runs after the commit. */
export interface AuditFollower {
  derive(events: readonly AuditEvent[], at: number): Promise<((trx: Transaction<Database>) => Promise<void>) | undefined>;
  written?(): void;
}

export class AuditLog {
  private readonly listeners: ((event: AuditEvent) => void)[] = [];
  private readonly followers: AuditFollower[] = [];

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number,
  ) {}

  /** Tells `listener` of every event recorded from now on (the metrics count sign-ins this way). */
  listen(listener: (event: AuditEvent) => void): void {
    this.listeners.push(listener);
  }

  follow(follower: AuditFollower): void {
    this.followers.push(follower);
  }

  record(event: AuditEvent): Promise<void> {
    return this.recordAll([event]);
  }

  /** Several events in one statement (a chunk of a user import). */
  async recordAll(events: readonly AuditEvent[]): Promise<void> {
    if (!events.length) return;
    for (const event of events) for (const listener of this.listeners) listener(event);
    const at = this.now();
    const rows = events.map((event) => ({
      at,
      actorId: event.actor?.id ?? null,
      actorName: event.actor?.username ?? null,
      action: event.action,
      targetType: event.target?.type ?? null,
      targetId: event.target?.id ?? null,
      tenantId: event.tenantId ?? null,
      ip: event.ip ?? null,
      success: event.success === false ? 0 : 1,
      detail: JSON.stringify(event.detail ?? {}),
    }));
    const derived = await Promise.all(this.followers.map(async (follower) => ({ follower, write: await follower.derive(events, at) })));
    const writes = derived.filter((item) => item.write);
    if (!writes.length) {
      await this.db.insertInto('auditLog').values(rows).execute();
      return;
    }
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('auditLog').values(rows).execute();
      for (const { write } of writes) await write!(trx);
    });
    for (const { follower } of writes) follower.written?.();
  }
}
