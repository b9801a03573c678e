// The audit log of security events: who did what to whom, when, from where, and whether it worked.
// A change and its record are one transaction (`change`, over server/db/unit-of-work.ts); what
// other parts derive from an event (the webhooks' deliveries, server/webhooks/queue.ts) is written
// by followers in that transaction too.
import type { Kysely } from 'kysely';
import type { Database } from './db/tables';
import type { AuditAction } from '../src/core/schemas/audit';
import { afterCommit, inUnitOfWork, type UnitOfWork } from './db/unit-of-work';

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
  derive(events: readonly AuditEvent[], at: number): Promise<((db: Kysely<Database>) => Promise<void>) | undefined>;
  written?(): void;
}

/** Thrown by `record` outside a change: an audited change writes its record in its own transaction. */
export class RecordOutsideChange extends Error {
  constructor(action: string) {
    super(
      `audit record ${action} outside a change: write the change and its record in audit.change(), or use audit.standalone() for an event that changes nothing`,
    );
  }
}

export class AuditLog {
  private readonly listeners: ((event: AuditEvent) => void)[] = [];
  private readonly followers: AuditFollower[] = [];

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** Tells `listener` of every event committed from now on (the metrics count sign-ins this way). */
  listen(listener: (event: AuditEvent) => void): void {
    this.listeners.push(listener);
  }

  follow(follower: AuditFollower): void {
    this.followers.push(follower);
  }

  /**
   * Runs a change: what `work` writes (through any handle on the database), the audit records it
   * makes with `record` and what followers derive from them (webhook deliveries) commit in ONE
   * transaction, or nothing does when it throws (a database fault then answers 503 with nothing
   * stored). Inside another change it is part of that change. Keep slow work that needs no data
   * (hashing a password) before it: the transaction holds SQLite's write lock.
   */
  change<T>(work: () => Promise<T>): Promise<T> {
    return this.unitOfWork.run(work);
  }

  /** Records `event` as part of the change running now (see `change`); outside one it throws. */
  record(event: AuditEvent): Promise<void> {
    return this.recordAll([event]);
  }

  /** Several events in one statement (a chunk of a user import), part of the change running now. */
  async recordAll(events: readonly AuditEvent[]): Promise<void> {
    if (!events.length) return;
    if (!inUnitOfWork()) throw new RecordOutsideChange(events[0]!.action);
    await this.write(events);
  }

  /** Records an event that is no part of a change (a failed sign-in, a refused licence), in a
   *  transaction of its own with what follows from it. */
  standalone(event: AuditEvent): Promise<void> {
    return this.change(() => this.write([event]));
  }

  private async write(events: readonly AuditEvent[]): Promise<void> {
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
    await this.db.insertInto('auditLog').values(rows).execute();
    for (const follower of this.followers) {
      const write = await follower.derive(events, at);
      if (!write) continue;
      await write(this.db);
      if (follower.written) afterCommit(follower.written);
    }
    afterCommit(() => {
      for (const event of events) for (const listener of this.listeners) listener(event);
    });
  }
}
