// A list saved whole: a role's members or privileges, an app's administrators, a person's roles in
// one app (join tables), a tenant's administrators (tenants.ts). The save is written as what it
// changes, the items added and the items removed, read and written under a lock held to the end of
// the change: two saves of one list at once (a double click on Save, a client's retry, two
// administrators) run one after the other, and the second finds the first's rows instead of
// inserting them again (a unique violation, 500, on PostgreSQL). Its audit record names the items
// added and removed (namedChange): who was given a role or lost it, which privileges a role gained;
// a list of people also records each of them (recordEachPerson).
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Ctx } from '../context';
import type { AuditEvent } from '../audit';
import type { Database } from '../db/tables';
import { lockByName } from '../db/named-lock';

/** What a save of a list changes. */
export interface ListChange {
  added: string[];
  removed: string[];
}

/** Whether a save changed its list: a save that changes nothing is not recorded (nor told to
 *  webhooks as a change of anyone's rights). */
export const changed = (change: ListChange) => change.added.length + change.removed.length > 0;

/** A change as its audit record names it, each item as a record names its target: its id and
 *  its display name (a person's username, a role's name, a privilege's key) as it was then. */
export async function namedChange(ctx: Ctx, type: 'user' | 'role' | 'privilege', change: ListChange) {
  return { added: await ctx.audit.named(type, change.added), removed: await ctx.audit.named(type, change.removed) };
}

/** Rows per statement of recordEachPerson: well below the engines' limits on bound values. */
const PEOPLE_PER_STATEMENT = 500;

/**
 * Records, beneath the list's own record `parentId` (a role's members, an app's administrators),
 * each person the save gave the right to or took it from: a `user.update` about them in their
 * tenant, as their own page's save records it, so their history (the log filtered to them) and
 * their tenant's log show it. `detail` says what the person gained (`added`) or lost.
 */
export async function recordEachPerson(
  ctx: Ctx,
  parentId: number,
  change: ListChange,
  by: Pick<AuditEvent, 'actor' | 'ip'>,
  detail: (added: boolean) => Record<string, unknown>,
): Promise<void> {
  const people = [...change.added, ...change.removed];
  await ctx.audit.under(parentId, async () => {
    for (let start = 0; start < people.length; start += PEOPLE_PER_STATEMENT) {
      const ids = people.slice(start, start + PEOPLE_PER_STATEMENT);
      const rows = await ctx.db.selectFrom('users').select(['id', 'tenantId']).where('id', 'in', ids).execute();
      const tenantOf = new Map(rows.map((row) => [row.id, row.tenantId]));
      await ctx.audit.recordAll(
        ids.map((id, index) => ({
          action: 'user.update',
          ...by,
          target: { type: 'user', id },
          tenantId: tenantOf.get(id) ?? null,
          detail: detail(start + index < change.added.length),
        })),
      );
    }
  });
}

/** What saving `wanted` over `held` changes. */
export const listChange = (held: readonly string[], wanted: readonly string[]): ListChange => ({
  added: wanted.filter((id) => !held.includes(id)),
  removed: held.filter((id) => !wanted.includes(id)),
});

/** A list kept as the rows of a join table: those whose `owner` column is the owner's id. */
export interface JoinList {
  table: 'roleMembers' | 'rolePrivileges' | 'appAdmins';
  owner: { column: 'roleId' | 'appId' | 'userId'; id: string };
  /** The column of the list's items (the users, privileges or roles listed). */
  item: 'userId' | 'privilegeId' | 'roleId';
  /** Only these items are the list (a person's roles of one app among all their roles). */
  among?: SelectQueryBuilder<Database, keyof Database, { id: string }>;
  /** The lock of every save that writes these rows (a role's members and a person's roles both
   *  write role_members: roleMembersLock). */
  lock: string;
}

/** The lock of every save of an app's role members: a role's members, a person's roles in the app. */
export const roleMembersLock = (appId: string) => `app ${appId} role members`;

type JoinRow = Record<string, string>;

/**
 * Makes `wanted` the list, under the list's lock: `check` sees the list as it is before the write
 * (who may change which members), then only the rows added are inserted and the rows removed
 * deleted. Runs inside the caller's change; answers what changed.
 */
export async function saveJoinList(ctx: Ctx, list: JoinList, wanted: readonly string[], check?: (held: string[]) => Promise<void>): Promise<ListChange> {
  await lockByName(ctx, list.lock);
  // Kysely cannot type a query over a union of tables; the three are (owner, item) pairs of ids.
  const db = ctx.db as unknown as Kysely<Record<string, JoinRow>>;
  let held = db.selectFrom(list.table).select(list.item).where(list.owner.column, '=', list.owner.id);
  if (list.among) held = held.where(list.item, 'in', list.among as never);
  const before = (await held.execute()).map((row) => row[list.item]);
  await check?.(before);
  const change = listChange(before, wanted);
  if (change.removed.length) await db.deleteFrom(list.table).where(list.owner.column, '=', list.owner.id).where(list.item, 'in', change.removed).execute();
  if (change.added.length)
    await db
      .insertInto(list.table)
      .values(change.added.map((id) => ({ [list.owner.column]: list.owner.id, [list.item]: id })))
      .execute();
  return change;
}
