// Roles of the apps: the queries and audit records behind /apps/{appId}/roles, with each role's
// privileges and members.
import type * as v from 'valibot';
import type { Selectable } from 'kysely';
import type { Ctx } from '../context';
import { removedOnce } from '../db/removal';
import type { RoleTable } from '../db/tables';
import { changeDetail, changedFields } from '../audit-changes';
import type { roleCreateBody, roleListQuery, roleUpdateBody } from '../../src/core/schemas/resources';
import type { Actor } from '../auth/actor';
import { assertMayChangeMembers, assertMayGrantInApp, assertMayGrantRows } from '../auth/grants';
import { newId } from '../auth/secrets';
import { contains, paginate } from '../http/paging';
import { fieldError, notFound } from '../http/errors';
import { updateVersioned } from '../db/versioned';
import { manageableApp, members, unique } from './apps';
import { changed, namedChange, recordEachPerson, roleMembersLock, saveJoinList } from './list-save';

/** The role `id` of an app the actor manages. */
async function manageableRole(ctx: Ctx, actor: Actor, appId: string, id: string) {
  const owner = await manageableApp(ctx, actor, appId);
  return roleOf(ctx, owner.id, id);
}

async function roleOf(ctx: Ctx, appId: string, id: string) {
  const row = await ctx.db.selectFrom('roles').selectAll().where('id', '=', id).where('appId', '=', appId).executeTakeFirst();
  if (!row) throw notFound('Role');
  return row;
}

/** A role row is answered as it is stored. */
export async function listRoles(ctx: Ctx, actor: Actor, appId: string, query: v.InferOutput<typeof roleListQuery>) {
  const owner = await manageableApp(ctx, actor, appId);
  let select = ctx.db.selectFrom('roles').selectAll().where('appId', '=', owner.id);
  if (query.searchProp && query.searchValue) select = select.where(contains(ctx.engine, query.searchProp, query.searchValue));
  return paginate(select.orderBy('name').orderBy('id'), query, (row: Selectable<RoleTable>) => row);
}

export async function createRole(ctx: Ctx, actor: Actor, appId: string, body: v.InferOutput<typeof roleCreateBody>, ip: string) {
  const owner = await manageableApp(ctx, actor, appId);
  const now = ctx.now();
  const row = { id: newId(), appId: owner.id, name: body.name, description: body.description || null, version: 1, createdAt: now, updatedAt: now };
  await ctx.audit.change(async () => {
    await unique('name', () => ctx.db.insertInto('roles').values(row).execute());
    await ctx.audit.record({ action: 'role.create', actor, target: { type: 'role', id: row.id }, ip, detail: { appId: owner.id, name: row.name } });
  });
  return row;
}

export async function updateRole(ctx: Ctx, actor: Actor, appId: string, id: string, body: v.InferOutput<typeof roleUpdateBody>, ip: string) {
  const current = await manageableRole(ctx, actor, appId, id);
  const { version, ...fields } = body;
  const changes = {
    ...(fields.name !== undefined ? { name: fields.name } : {}),
    ...(fields.description !== undefined ? { description: fields.description || null } : {}),
  };
  await ctx.audit.change(async () => {
    await unique('name', () => updateVersioned(ctx.db, 'roles', current.id, version, changes, ctx.now()));
    await ctx.audit.record({
      action: 'role.update',
      actor,
      target: { type: 'role', id: current.id },
      ip,
      detail: changeDetail(changedFields(current, changes)),
    });
  });
  return roleOf(ctx, current.appId, current.id);
}

export async function deleteRole(ctx: Ctx, actor: Actor, appId: string, id: string, ip: string): Promise<void> {
  const current = await manageableRole(ctx, actor, appId, id);
  await ctx.audit.change(async () => {
    await removedOnce(ctx.db.deleteFrom('roles').where('id', '=', current.id).executeTakeFirst(), 'Role');
    await ctx.audit.record({ action: 'role.delete', actor, target: { type: 'role', id: current.id }, ip, detail: { name: current.name } });
  });
}

export async function rolePrivileges(ctx: Ctx, actor: Actor, appId: string, id: string): Promise<string[]> {
  const current = await manageableRole(ctx, actor, appId, id);
  const rows = await ctx.db.selectFrom('rolePrivileges').select('privilegeId').where('roleId', '=', current.id).execute();
  return rows.map((row) => row.privilegeId);
}

/** Replaces a role's privileges (all of the same app). */
export async function setRolePrivileges(ctx: Ctx, actor: Actor, appId: string, id: string, privilegeIds: string[], ip: string): Promise<string[]> {
  const current = await manageableRole(ctx, actor, appId, id);
  assertMayGrantInApp(actor, current.appId);
  await assertMayGrantRows(ctx, actor, 'privileges', privilegeIds);
  const ids = [...new Set(privilegeIds)];
  const known = ids.length ? await ctx.db.selectFrom('privileges').select('id').where('appId', '=', current.appId).where('id', 'in', ids).execute() : [];
  if (known.length !== ids.length) throw fieldError([{ field: 'privilegeIds', rule: 'rule.privilegeIds' }]);
  await ctx.audit.change(async () => {
    const change = await saveJoinList(
      ctx,
      { table: 'rolePrivileges', owner: { column: 'roleId', id: current.id }, item: 'privilegeId', lock: `role ${current.id} privileges` },
      ids,
    );
    if (!changed(change)) return;
    const detail = { privileges: await namedChange(ctx, 'privilege', change) };
    await ctx.audit.record({ action: 'role.update', actor, target: { type: 'role', id: current.id }, ip, detail });
  });
  return ids;
}

export const roleMembers = async (ctx: Ctx, actor: Actor, appId: string, id: string) =>
  members(ctx, 'roleMembers', 'roleId', (await manageableRole(ctx, actor, appId, id)).id);

/** Replaces a role's members. */
export async function setRoleMembers(ctx: Ctx, actor: Actor, appId: string, id: string, userIds: string[], ip: string) {
  const current = await manageableRole(ctx, actor, appId, id);
  assertMayGrantInApp(actor, current.appId);
  const ids = [...new Set(userIds)];
  const rows = ids.length ? await ctx.db.selectFrom('users').select('id').where('id', 'in', ids).execute() : [];
  if (rows.length !== ids.length) throw fieldError([{ field: 'userIds', rule: 'rule.userIds' }]);
  await ctx.audit.change(async () => {
    const change = await saveJoinList(
      ctx,
      { table: 'roleMembers', owner: { column: 'roleId', id: current.id }, item: 'userId', lock: roleMembersLock(current.appId) },
      ids,
      (held) => assertMayChangeMembers(ctx, actor, held, ids),
    );
    if (!changed(change)) return;
    const detail = { members: await namedChange(ctx, 'user', change) };
    const recorded = await ctx.audit.record({ action: 'role.update', actor, target: { type: 'role', id: current.id }, ip, detail });
    const [role] = await ctx.audit.named('role', [current.id]);
    await recordEachPerson(ctx, recorded, change, { actor, ip }, (added) => ({
      appId: current.appId,
      roles: added ? { added: [role], removed: [] } : { added: [], removed: [role] },
    }));
  });
  return members(ctx, 'roleMembers', 'roleId', current.id);
}
