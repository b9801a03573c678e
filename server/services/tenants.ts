// Tenants: the queries and audit records behind the tenant calls (server/routes/tenants.ts). A tree
// kept as materialised paths; a tenant administrator sees and changes only their own subtree.
import type * as v from 'valibot';
import { sql, type Selectable } from 'kysely';
import type { Ctx } from '../context';
import { lockByName } from '../db/named-lock';
import { changeDetail, changedFields } from '../audit-changes';
import type { TenantTable } from '../db/tables';
import type { tenantMoveBody } from '../../src/core/schemas/admin';
import type { tenant, tenantCreateBody, tenantListQuery, tenantUpdateBody } from '../../src/core/schemas/resources';
import { Scope, Status, UserType } from '../../src/core/enums';
import type { Actor } from '../auth/actor';
import { canManageTenantPath } from '../auth/scope';
import { assertMayAppointTenantAdmins, assertMayChangeMembers } from '../auth/grants';
import { newId } from '../auth/secrets';
import { contains, paginate } from '../http/paging';
import { fieldError, forbidden, notFound } from '../http/errors';
import { updateVersioned } from '../db/versioned';
import { MEMBER_COLUMNS } from './user-answer';
import { changed, listChange, namedChange, type ListChange } from './list-save';

type TenantRow = Selectable<TenantTable>;

/** A tenant row as the API answers it (its materialised path stays inside). */
/** The answer of a tenant row (the path stays inside; the scope column holds a Scope code). */
export const toTenant = ({ path: _path, ...row }: TenantRow): v.InferInput<typeof tenant> => ({ ...row, scope: row.scope as Scope });

/** The tenant, when it lies in the actor's subtree (404 otherwise). */
export async function manageableTenant(ctx: Ctx, actor: Actor, id: string): Promise<TenantRow> {
  const row = await ctx.db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row || !canManageTenantPath(actor, row.path)) throw notFound('Tenant');
  return row;
}

/** The subtree an actor may see: everything for the platform, their own subtree for a tenant administrator. */
const visiblePrefix = (actor: Actor) => (actor.platformAdmin ? '/' : (actor.tenantPath ?? '/-none-/'));

/**
 * Holds the tenant tree for the rest of the running change: changes that read paths to write paths
 * (a move, a new tenant under a parent) run one after the other, each reading the paths the one
 * before committed. Without it two parallel moves, X under Y and Y under X, both passed the
 * descendant check on paths read before either wrote, and left a cycle cut off from the root.
 * PostgreSQL: a transaction-level advisory lock (row locks on the two tenants are not enough: moves
 * of disjoint tenants can still close a cycle through their subtrees). SQLite: the change already
 * began with BEGIN IMMEDIATE, which holds the database's write lock.
 */
export async function lockTenantTree(ctx: Ctx): Promise<void> {
  await lockByName(ctx, 'tenant tree');
}

/** Moves `current` and its subtree under `parent`: one path rewrite for the whole subtree, guarded by the version. */
async function moveTenant(ctx: Ctx, current: TenantRow, parent: TenantRow, version: number): Promise<void> {
  const newPath = `${parent.path}${current.id}/`;
  await updateVersioned(ctx.db, 'tenants', current.id, version, { parentId: parent.id }, ctx.now());
  await ctx.db
    .updateTable('tenants')
    .set({ path: sql<string>`${newPath} || substr(path, ${current.path.length + 1})` })
    .where('path', 'like', `${current.path}%`)
    .execute();
}

/** The administrators of a tenant: its own tenant users with the admin flag. */
const tenantAdmins = (ctx: Ctx, tenantId: string) =>
  ctx.db
    .selectFrom('users')
    .select(MEMBER_COLUMNS)
    .where('tenantId', '=', tenantId)
    .where('userType', '=', UserType.Tenant)
    .where('isAdmin', '=', 1)
    .orderBy('username')
    .limit(500)
    .execute();

/** Makes exactly `userIds` (tenant users of this very tenant) its administrators, read and written
 *  under the tenant's lock of its administrators (as a list save, list-save.ts); answers who was
 *  appointed and who stepped down. */
async function replaceTenantAdmins(ctx: Ctx, actor: Actor, tenant: TenantRow, userIds: string[]): Promise<ListChange> {
  assertMayAppointTenantAdmins(actor, tenant.path);
  const ids = [...new Set(userIds)];
  const members = ids.length
    ? await ctx.db.selectFrom('users').select('id').where('id', 'in', ids).where('tenantId', '=', tenant.id).where('userType', '=', UserType.Tenant).execute()
    : [];
  if (members.length !== ids.length) throw fieldError([{ field: 'userIds', rule: 'rule.userIds' }]);
  if (actor.user.tenantId === tenant.id && actor.tenantAdmin && !ids.includes(actor.id)) throw forbidden('You cannot remove your own administrator rights');
  await lockByName(ctx, `tenant ${tenant.id} administrators`);
  const held = (
    await ctx.db.selectFrom('users').select('id').where('tenantId', '=', tenant.id).where('userType', '=', UserType.Tenant).where('isAdmin', '=', 1).execute()
  ).map((row) => row.id);
  await assertMayChangeMembers(ctx, actor, held, ids);
  const change = listChange(held, ids);
  const bump = { version: sql<number>`version + 1`, updatedAt: ctx.now() };
  if (change.removed.length)
    await ctx.db
      .updateTable('users')
      .set({ isAdmin: 0, ...bump })
      .where('id', 'in', change.removed)
      .execute();
  if (change.added.length)
    await ctx.db
      .updateTable('users')
      .set({ isAdmin: 1, ...bump })
      .where('id', 'in', change.added)
      .execute();
  return change;
}

export async function listTenants(ctx: Ctx, actor: Actor, query: v.InferOutput<typeof tenantListQuery>) {
  let select = ctx.db
    .selectFrom('tenants')
    .selectAll()
    .where('path', 'like', `${visiblePrefix(actor)}%`);
  if (query.parentId) select = select.where('parentId', '=', query.parentId);
  if (query.searchProp && query.searchValue) select = select.where(contains(ctx.engine, query.searchProp, query.searchValue));
  return paginate(select.orderBy('path').orderBy('id'), query, toTenant);
}

/** All tenants of the actor's scope (flat, with parentId), for a tree. */
export async function tenantTree(ctx: Ctx, actor: Actor) {
  const rows = await ctx.db
    .selectFrom('tenants')
    .selectAll()
    .where('path', 'like', `${visiblePrefix(actor)}%`)
    .orderBy('path')
    .orderBy('id')
    .limit(5000)
    .execute();
  return rows.map(toTenant);
}

export async function createTenant(ctx: Ctx, actor: Actor, body: v.InferOutput<typeof tenantCreateBody>, ip: string) {
  const row = await ctx.audit.change(async () => {
    await lockTenantTree(ctx);
    // The parent's path as it is now, not as it was before a parallel move of the parent.
    const parent = await manageableTenant(ctx, actor, body.parentId);
    const now = ctx.now();
    const id = newId();
    const created: TenantRow = {
      id,
      parentId: parent.id,
      path: `${parent.path}${id}/`,
      name: body.name,
      type: body.type,
      scope: Scope.Tenant,
      status: Status.Enable,
      description: body.description || null,
      version: 1,
      createdAt: now,
      updatedAt: now,
    };
    await ctx.db.insertInto('tenants').values(created).execute();
    await ctx.audit.record({ action: 'tenant.create', actor, target: { type: 'tenant', id }, tenantId: id, ip, detail: { name: body.name } });
    return created;
  });
  return toTenant(row);
}

export async function updateTenant(ctx: Ctx, actor: Actor, id: string, body: v.InferOutput<typeof tenantUpdateBody>, ip: string) {
  const current = await manageableTenant(ctx, actor, id);
  if (current.parentId === null && body.type) throw forbidden('The root tenant keeps its type');
  const { version, ...changes } = body;
  await ctx.audit.change(async () => {
    const written = { ...changes, description: changes.description === undefined ? current.description : changes.description || null };
    await updateVersioned(ctx.db, 'tenants', current.id, version, written, ctx.now());
    await ctx.audit.record({
      action: 'tenant.update',
      actor,
      target: { type: 'tenant', id: current.id },
      tenantId: current.id,
      ip,
      detail: changeDetail(changedFields(current, written)),
    });
  });
  return toTenant(await manageableTenant(ctx, actor, current.id));
}

/** Moves a tenant of the actor's scope (with its subtree) under another parent of their scope. */
export async function changeParent(ctx: Ctx, actor: Actor, id: string, body: v.InferOutput<typeof tenantMoveBody>, ip: string) {
  await ctx.audit.change(async () => {
    await lockTenantTree(ctx);
    // Both tenants read inside the change, after the lock: the paths the previous move committed.
    const current = await manageableTenant(ctx, actor, id);
    if (current.parentId === null || current.path === actor.tenantPath) throw forbidden('This tenant cannot be moved');
    const parent = await manageableTenant(ctx, actor, body.parentId);
    // Not under itself or one of its own descendants.
    if (parent.path.startsWith(current.path)) throw fieldError([{ field: 'parentId', rule: 'rule.parentId' }]);
    if (parent.id !== current.parentId) await moveTenant(ctx, current, parent, body.version);
    await ctx.audit.record({
      action: 'tenant.update',
      actor,
      target: { type: 'tenant', id: current.id },
      tenantId: current.id,
      ip,
      detail: { parentId: parent.id },
    });
  });
  return toTenant(await manageableTenant(ctx, actor, id));
}

export const administratorsOf = async (ctx: Ctx, actor: Actor, id: string) => tenantAdmins(ctx, (await manageableTenant(ctx, actor, id)).id);

export async function setTenantAdmins(ctx: Ctx, actor: Actor, id: string, userIds: string[], ip: string) {
  const current = await manageableTenant(ctx, actor, id);
  await ctx.audit.change(async () => {
    const change = await replaceTenantAdmins(ctx, actor, current, userIds);
    if (!changed(change)) return;
    await ctx.audit.record({
      action: 'tenant.update',
      actor,
      target: { type: 'tenant', id: current.id },
      tenantId: current.id,
      ip,
      detail: { admins: await namedChange(ctx, 'user', change) },
    });
  });
  return tenantAdmins(ctx, current.id);
}
