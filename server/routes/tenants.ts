// Tenants (Permission.Operations): a tree kept as materialised paths. A tenant administrator sees and
// changes only their own tenant's subtree.
import * as v from 'valibot';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { Ctx } from '../context';
import type { TenantTable } from '../db/tables';
import { defineRoute, type Gate } from '../http/route';
import { idParams, okAnswer } from '../../src/core/schemas/common';
import { tenantMoveBody } from '../../src/core/schemas/admin';
import { memberUser, userIdsBody } from '../../src/core/schemas/resources';
import { tenant, tenantCreateBody, tenantList, tenantListQuery, tenantUpdateBody } from '../../src/core/schemas/resources';
import { Scope, Status, UserType } from '../../src/core/enums';
import type { Actor } from '../auth/actor';
import { canManageTenantPath } from '../auth/scope';
import { assertMayAppointTenantAdmins } from '../auth/grants';
import { newId } from '../auth/secrets';
import { contains, paginate } from '../http/paging';
import { conflict, fieldError, forbidden, notFound } from '../http/errors';
import { updateVersioned } from '../db/versioned';
import { Permission } from '../../src/core/permissions';

const tags = ['Tenants'];
type TenantRow = Selectable<TenantTable>;

const toTenant = ({ path: _path, ...row }: TenantRow) => row;

async function manageableTenant(ctx: Ctx, actor: Actor, id: string): Promise<TenantRow> {
  const row = await ctx.db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row || !canManageTenantPath(actor, row.path)) throw notFound('Tenant');
  return row;
}

/** The subtree an actor may see: everything for the platform, their own subtree for a tenant administrator. */
const visiblePrefix = (actor: Actor) => (actor.platformAdmin ? '/' : actor.tenantPath ?? '/-none-/');

/** Moves `current` and its subtree under `parent`: one path rewrite for the whole subtree, guarded by the version. */
async function moveTenant(ctx: Ctx, current: TenantRow, parent: TenantRow, version: number): Promise<void> {
  const newPath = `${parent.path}${current.id}/`;
  await ctx.db.transaction().execute(async (trx) => {
    await updateVersioned(trx, 'tenants', current.id, version, { parentId: parent.id }, ctx.now());
    await trx.updateTable('tenants')
      .set({ path: sql<string>`${newPath} || substr(path, ${current.path.length + 1})` })
      .where('path', 'like', `${current.path}%`).execute();
  });
}

/** The administrators of a tenant: its own tenant users with the admin flag. */
const tenantAdmins = (ctx: Ctx, tenantId: string) => ctx.db.selectFrom('users').select(['id', 'username', 'realName'])
  .where('tenantId', '=', tenantId).where('userType', '=', UserType.Tenant).where('isAdmin', '=', 1).orderBy('username').limit(500).execute();

/** Makes exactly `userIds` (tenant users of this very tenant) its administrators. */
async function setTenantAdmins(ctx: Ctx, actor: Actor, tenant: TenantRow, userIds: string[]): Promise<void> {
  assertMayAppointTenantAdmins(actor, tenant.path);
  const ids = [...new Set(userIds)];
  const members = ids.length ? await ctx.db.selectFrom('users').select('id').where('id', 'in', ids)
    .where('tenantId', '=', tenant.id).where('userType', '=', UserType.Tenant).execute() : [];
  if (members.length !== ids.length) throw fieldError([{ field: 'userIds', rule: 'rule.userIds' }]);
  if (actor.user.tenantId === tenant.id && actor.tenantAdmin && !ids.includes(actor.id)) throw forbidden('You cannot remove your own administrator rights');
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    const bump = { version: sql<number>`version + 1`, updatedAt: now };
    let revoke = trx.updateTable('users').set({ isAdmin: 0, ...bump }).where('tenantId', '=', tenant.id).where('userType', '=', UserType.Tenant).where('isAdmin', '=', 1);
    if (ids.length) revoke = revoke.where('id', 'not in', ids);
    await revoke.execute();
    if (ids.length) await trx.updateTable('users').set({ isAdmin: 1, ...bump }).where('id', 'in', ids).where('isAdmin', '=', 0).execute();
  });
}

export function tenantRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  defineRoute(app, gate, {
    method: 'GET', url: '/tenants', tags, access: Permission.Operations, summary: 'Tenants of my scope, paged',
    query: tenantListQuery, response: tenantList,
    handler: async ({ actor, query }) => {
      let select = ctx.db.selectFrom('tenants').selectAll().where('path', 'like', `${visiblePrefix(actor)}%`);
      if (query.parentId) select = select.where('parentId', '=', query.parentId);
      if (query.searchProp && query.searchValue) select = select.where(contains(ctx.engine, query.searchProp, query.searchValue));
      return paginate(select.orderBy('path'), query, toTenant);
    },
  });

  defineRoute(app, gate, {
    method: 'GET', url: '/tenants/tree', tags, access: Permission.Operations, summary: 'All tenants of my scope (flat, with parentId), for a tree',
    response: v.array(tenant),
    handler: async ({ actor }) => {
      const rows = await ctx.db.selectFrom('tenants').selectAll().where('path', 'like', `${visiblePrefix(actor)}%`).orderBy('path').limit(5000).execute();
      return rows.map(toTenant);
    },
  });

  defineRoute(app, gate, {
    method: 'GET', url: '/tenants/:id', tags, access: Permission.Operations, summary: 'One tenant of my scope', params: idParams, response: tenant,
    handler: async ({ actor, params }) => toTenant(await manageableTenant(ctx, actor, params.id)),
  });

  defineRoute(app, gate, {
    method: 'POST', url: '/tenants', tags, access: Permission.Operations, summary: 'Create a tenant under a parent of my scope',
    body: tenantCreateBody, response: tenant,
    handler: async ({ actor, body, raw }) => {
      const parent = await manageableTenant(ctx, actor, body.parentId);
      const now = ctx.now();
      const id = newId();
      const row: TenantRow = {
        id, parentId: parent.id, path: `${parent.path}${id}/`, name: body.name, type: body.type, scope: Scope.Tenant,
        status: Status.Enable, description: body.description || null, version: 1, createdAt: now, updatedAt: now,
      };
      await ctx.db.insertInto('tenants').values(row).execute();
      await ctx.audit.record({ action: 'tenant.create', actor, target: { type: 'tenant', id }, tenantId: id, ip: raw.ip, detail: { name: body.name } });
      return toTenant(row);
    },
  });

  defineRoute(app, gate, {
    method: 'PUT', url: '/tenants/:id', tags, access: Permission.Operations, summary: 'Update a tenant of my scope (409 when version is stale)',
    params: idParams, body: tenantUpdateBody, response: tenant,
    handler: async ({ actor, params, body, raw }) => {
      const current = await manageableTenant(ctx, actor, params.id);
      if (current.parentId === null && body.type) throw forbidden('The root tenant keeps its type');
      const { version, ...changes } = body;
      await updateVersioned(ctx.db, 'tenants', current.id, version, { ...changes, description: changes.description === undefined ? current.description : changes.description || null }, ctx.now());
      await ctx.audit.record({ action: 'tenant.update', actor, target: { type: 'tenant', id: current.id }, tenantId: current.id, ip: raw.ip, detail: { fields: Object.keys(changes) } });
      return toTenant(await manageableTenant(ctx, actor, current.id));
    },
  });

  defineRoute(app, gate, {
    method: 'DELETE', url: '/tenants/:id', tags, access: Permission.Operations, summary: 'Delete an empty tenant of my scope (not my own, not the root)',
    params: idParams, response: okAnswer,
    handler: async ({ actor, params, raw }) => {
      const current = await manageableTenant(ctx, actor, params.id);
      if (current.parentId === null || current.path === actor.tenantPath) throw forbidden('This tenant cannot be deleted');
      const child = await ctx.db.selectFrom('tenants').select('id').where('parentId', '=', current.id).limit(1).executeTakeFirst();
      const member = await ctx.db.selectFrom('users').select('id').where('tenantId', '=', current.id).limit(1).executeTakeFirst();
      if (child || member) throw conflict('The tenant still has sub-tenants or users');
      await ctx.db.deleteFrom('tenants').where('id', '=', current.id).execute();
      await ctx.audit.record({ action: 'tenant.delete', actor, target: { type: 'tenant', id: current.id }, tenantId: current.parentId, ip: raw.ip, detail: { name: current.name } });
      return null;
    },
  });

  defineRoute(app, gate, {
    method: 'PUT', url: '/tenants/:id/parent', tags, access: Permission.Operations,
    summary: 'Move a tenant of my scope (with its subtree) under another parent of my scope (409 when version is stale)',
    params: idParams, body: tenantMoveBody, response: tenant,
    handler: async ({ actor, params, body, raw }) => {
      const current = await manageableTenant(ctx, actor, params.id);
      if (current.parentId === null || current.path === actor.tenantPath) throw forbidden('This tenant cannot be moved');
      const parent = await manageableTenant(ctx, actor, body.parentId);
      // Not under itself or one of its own descendants.
      if (parent.path.startsWith(current.path)) throw fieldError([{ field: 'parentId', rule: 'rule.parentId' }]);
      if (parent.id !== current.parentId) await moveTenant(ctx, current, parent, body.version);
      await ctx.audit.record({ action: 'tenant.update', actor, target: { type: 'tenant', id: current.id }, tenantId: current.id, ip: raw.ip, detail: { parentId: parent.id } });
      return toTenant(await manageableTenant(ctx, actor, current.id));
    },
  });

  defineRoute(app, gate, {
    method: 'GET', url: '/tenants/:id/admins', tags, access: Permission.Operations, summary: "A tenant's administrators (its tenant users with the admin flag)",
    params: idParams, response: v.array(memberUser),
    handler: async ({ actor, params }) => tenantAdmins(ctx, (await manageableTenant(ctx, actor, params.id)).id),
  });

  defineRoute(app, gate, {
    method: 'PUT', url: '/tenants/:id/admins', tags, access: Permission.Operations, summary: "Set a tenant's administrators (tenant users of that very tenant)",
    params: idParams, body: userIdsBody, response: v.array(memberUser),
    handler: async ({ actor, params, body, raw }) => {
      const current = await manageableTenant(ctx, actor, params.id);
      await setTenantAdmins(ctx, actor, current, body.userIds);
      await ctx.audit.record({ action: 'tenant.update', actor, target: { type: 'tenant', id: current.id }, tenantId: current.id, ip: raw.ip, detail: { admins: body.userIds.length } });
      return tenantAdmins(ctx, current.id);
    },
  });
}
