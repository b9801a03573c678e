// The audit log of security events: who did what to whom, when, from where, and whether it worked.
// A change and its record are one transaction (`change`, over server/db/unit-of-work.ts); what
// other parts derive from an event (the webhooks' deliveries, server/webhooks/queue.ts) is written
// by followers in that transaction too.
import type { Kysely } from 'kysely';
import type { Database } from './db/tables';
import type { AuditAction } from '../src/core/schemas/audit';
import { ScopedValue } from './async-scope';
import { afterCommit, inUnitOfWork, type UnitOfWork } from './db/unit-of-work';

/** The event of the bulk action or import whose rows are being recorded now. */
const parents = new ScopedValue<number>('audit parent');

/** Where a target's display name is found, by target type: table and column. */
const NAMED_TARGETS = {
  user: ['users', 'username'],
  tenant: ['tenants', 'name'],
  app: ['apps', 'name'],
  role: ['roles', 'name'],
  menu: ['menuPlans', 'name'],
  channel: ['channels', 'name'],
  privilege: ['privileges', 'key'],
  scim_token: ['scimTokens', 'name'],
  passkey: ['passkeys', 'name'],
} as const;
type NamedTarget = keyof typeof NAMED_TARGETS;

/** Sign-in events name the account the attempt named, when no actor is known (a failed sign-in). */
const attemptedAccount = (event: AuditEvent) =>
  event.action.startsWith('login.') && typeof event.detail?.username === 'string' ? event.detail.username : null;

export type { AuditAction } from '../src/core/schemas/audit';

export interface AuditEvent {
  action: AuditAction;
  actor?: { id: string; username: string } | null;
  /** What the event is about; its `name` is looked up when not given (see targetNames). */
  target?: { type: string; id: string | null; name?: string | null } | null;
  tenantId?: string | null;
  /** The tenant the target left, when the event moved it to `tenantId`: read in both tenants' logs. */
  formerTenantId?: string | null;
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
class RecordOutsideChange extends Error {
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

  /** Records `event` as part of the change running now (see `change`); outside one it throws.
   *  Answers the event's id. */
  async record(event: AuditEvent): Promise<number> {
    return (await this.recordAll([event]))[0]!;
  }

  /** Several events in one statement (a chunk of a user import), part of the change running now. */
  async recordAll(events: readonly AuditEvent[]): Promise<number[]> {
    if (!events.length) return [];
    if (!inUnitOfWork()) throw new RecordOutsideChange(events[0]!.action);
    return this.write(events);
  }

  /**
   * A bulk action: `event` (the action itself) and, beneath it, the events `work` records, in one
   * change. The event's row is written first (the rows beneath name it as their parent) and
   * completed once the work is done by `outcome`: its success and detail (what was done and what
   * was refused: a bulk action refused for everyone is no success). Followers and listeners see
   * the completed event.
   */
  group<T>(event: AuditEvent, work: () => Promise<T>, outcome: (result: T) => Required<Pick<AuditEvent, 'success' | 'detail'>>): Promise<T> {
    return this.change(async () => {
      const at = this.now();
      const [id] = await this.insert([event], at);
      const result = await parents.run(id!, work);
      const done = { ...event, ...outcome(result) };
      await this.db
        .updateTable('auditLog')
        .set({ success: done.success ? 1 : 0, detail: JSON.stringify(done.detail) })
        .where('id', '=', id!)
        .execute();
      await this.followed([done], at);
      return result;
    });
  }

  /** Records the events of `work` beneath the event `parentId` (an import's, recorded earlier). */
  under<T>(parentId: number, work: () => Promise<T>): Promise<T> {
    return parents.run(parentId, work);
  }

  /** Records an event that is no part of a change (a failed sign-in, a refused licence), in a
   *  transaction of its own with what follows from it. */
  async standalone(event: AuditEvent): Promise<void> {
    await this.change(() => this.write([event]));
  }

  /** The items of a record's detail named as its target is: each id with its display name
   *  (a role's members, the privileges granted), read in the change's transaction. */
  async named(type: NamedTarget, ids: readonly string[]): Promise<{ id: string; name: string | null }[]> {
    const found = ids.length ? await this.namesOf(type, ids) : new Map<string, string>();
    return ids.map((id) => ({ id, name: found.get(id) ?? null }));
  }

  /** The display names of `ids`, rows of one target type (one query). */
  private async namesOf(type: NamedTarget, ids: Iterable<string>): Promise<Map<string, string>> {
    const [table, column] = NAMED_TARGETS[type];
    const rows = (await this.db
      .selectFrom(table)
      .select(['id', `${column} as name`] as never)
      .where('id', 'in', [...ids])
      .execute()) as unknown as { id: string; name: string }[];
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  /** The display names of the events' targets that did not bring one: looked up in the change's
   *  transaction (one query per target type), else the name the detail gives (a deleted row's). */
  private async targetNames(events: readonly AuditEvent[]): Promise<(string | null)[]> {
    const wanted = new Map<NamedTarget, Set<string>>();
    for (const { target } of events) {
      if (!target?.id || target.name !== undefined || !(target.type in NAMED_TARGETS)) continue;
      const type = target.type as NamedTarget;
      wanted.set(type, (wanted.get(type) ?? new Set()).add(target.id));
    }
    const found = new Map<string, string>();
    for (const [type, ids] of wanted) for (const [id, name] of await this.namesOf(type, ids)) found.set(`${type}:${id}`, name);
    return events.map(({ target, detail }) => {
      if (!target) return null;
      if (target.name !== undefined) return target.name;
      const fromDetail = detail?.username ?? detail?.name;
      return found.get(`${target.type}:${target.id}`) ?? (typeof fromDetail === 'string' ? fromDetail : null);
    });
  }

  private async write(events: readonly AuditEvent[]): Promise<number[]> {
    const at = this.now();
    const ids = await this.insert(events, at);
    await this.followed(events, at);
    return ids;
  }

  /** The events' rows (beneath the event being recorded now, if any); answers their ids. */
  private async insert(events: readonly AuditEvent[], at: number): Promise<number[]> {
    const names = await this.targetNames(events);
    const parentId = parents.getStore() ?? null;
    const rows = events.map((event, index) => ({
      at,
      actorId: event.actor?.id ?? null,
      actorName: event.actor?.username ?? attemptedAccount(event),
      action: event.action,
      targetType: event.target?.type ?? null,
      targetId: event.target?.id ?? null,
      targetName: names[index] ?? null,
      parentId,
      tenantId: event.tenantId ?? null,
      formerTenantId: event.formerTenantId ?? null,
      ip: event.ip ?? null,
      success: event.success === false ? 0 : 1,
      detail: JSON.stringify(event.detail ?? {}),
    }));
    return (await this.db.insertInto('auditLog').values(rows).returning('id').execute()).map((row) => Number(row.id));
  }

  /** What the followers derive from the events, written now; the listeners told after the commit. */
  private async followed(events: readonly AuditEvent[], at: number): Promise<void> {
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
