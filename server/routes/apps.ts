// Apps (Permission.Apps): platform administrators manage all apps and choose their administrators; an app
// administrator reaches only the apps they administer, with their privilege trees and roles.
import * as v from 'valibot';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { Ctx } from '../context';
import type { AppTable, PrivilegeTable, RoleTable } from '../db/tables';
import { defineRoute, type Gate } from '../http/route';
import { idParams, okAnswer } from '../../src/core/schemas/common';
import { MEMBER_LOOKUP_LIMIT, memberLookupQuery, privilegeOrderBody } from '../../src/core/schemas/admin';
import {
  app as appSchema, appCreateBody, appItemParams, appList, appListQuery, appParams, appUpdateBody, memberUser, privilege, privilegeBody,
  privilegeIdsBody, privilegeUpdateBody, role, roleCreateBody, roleList, roleListQuery, roleUpdateBody, userIdsBody,
} from '../../src/core/schemas/resources';
import { Status } from '../../src/core/enums';
import type { Actor } from '../auth/actor';
import { canManageApp, canManageUser, requirePlatform } from '../auth/scope';
import { assertMayAppointAppAdmins, assertMayGrantInApp, assertMayGrantRows } from '../auth/grants';
import { newId } from '../auth/secrets';
import { contains, paginate } from '../http/paging';
import { fieldError, notFound } from '../http/errors';
import { updateVersioned } from '../db/versioned';
import { isUniqueViolation } from '../db/errors';
import { Permission } from '../../src/core/permissions';

const tags = ['Apps'];
type AppRow = Selectable<AppTable>;

const toApp = (row: AppRow) => ({ ...row, isMaster: row.isMaster === 1 });
const toPrivilege = (row: Selectable<PrivilegeTable>) => ({ id: row.id, appId: row.appId, parentId: row.parentId, name: row.name, key: row.key, sort: row.sort, path: row.path });
const toRole = (row: Selectable<RoleTable>) => row;
const blank = (value: string | null | undefined) => (value === undefined ? undefined : value || null);

async function manageableApp(ctx: Ctx, actor: Actor, id: string): Promise<AppRow> {
  const row = await ctx.db.selectFrom('apps').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row || !canManageApp(actor, row.id)) throw notFound('App');
  return row;
}

async function roleOf(ctx: Ctx, appId: string, id: string) {
  const row = await ctx.db.selectFrom('roles').selectAll().where('id', '=', id).where('appId', '=', appId).executeTakeFirst();
  if (!row) throw notFound('Role');
  return row;
}

/** Maps a unique-constraint violation to a field error on `field`. */
async function unique<T>(field: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError([{ field, rule: 'rule.duplicate' }]);
    throw error;
  }
}

async function members(ctx: Ctx, table: 'appAdmins' | 'roleMembers', column: 'appId' | 'roleId', id: string) {
  return ctx.db.selectFrom(table).innerJoin('users', 'users.id', `${table}.userId`)
    .select(['users.id', 'users.username', 'users.realName'])
    .where(`${table}.${column}` as 'appAdmins.appId', '=', id).orderBy('users.username').execute();
}

/** Every user id must exist and lie in the actor's user scope (a role's members) or anywhere (platform). */
async function checkUsers(ctx: Ctx, actor: Actor, userIds: string[]): Promise<void> {
  if (!userIds.length) return;
  const rows = await ctx.db.selectFrom('users').selectAll().where('id', 'in', userIds).execute();
  const reachable = await Promise.all(rows.map((row) => actor.platformAdmin || canManageUser(ctx, actor, row)));
  if (rows.length !== new Set(userIds).size || reachable.some((ok) => !ok)) throw fieldError([{ field: 'userIds', rule: 'rule.userIds' }]);
}

export function appRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  defineRoute(app, gate, {
    method: 'GET', url: '/apps', tags, access: Permission.Apps, summary: 'Apps I may manage, paged', query: appListQuery, response: appList,
    handler: async ({ actor, query }) => {
      let select = ctx.db.selectFrom('apps').selectAll();
      if (!actor.platformAdmin) select = select.where('id', 'in', actor.ownedApps.length ? actor.ownedApps.map((owned) => owned.id) : ['-']);
      if (query.searchProp && query.searchValue) select = select.where(contains(ctx.engine, query.searchProp, query.searchValue));
      return paginate(select.orderBy('name'), query, toApp);
    },
  });

  defineRoute(app, gate, {
    method: 'GET', url: '/apps/:id', tags, access: Permission.Apps, summary: 'One app I may manage', params: idParams, response: appSchema,
    handler: async ({ actor, params }) => toApp(await manageableApp(ctx, actor, params.id)),
  });

  defineRoute(app, gate, {
    method: 'POST', url: '/apps', tags, access: Permission.Apps, summary: 'Create an app (platform administrators)', body: appCreateBody, response: appSchema,
    handler: async ({ actor, body, raw }) => {
      requirePlatform(actor);
      const now = ctx.now();
      const row: AppRow = {
        id: newId(), name: body.name, detail: blank(body.detail) ?? null, entrypoint: blank(body.entrypoint) ?? null,
        callbackUrl: blank(body.callbackUrl) ?? null, isMaster: body.isMaster ? 1 : 0, status: body.status ?? Status.Enable,
        version: 1, createdAt: now, updatedAt: now,
      };
      await unique('name', () => ctx.db.insertInto('apps').values(row).execute());
      await ctx.audit.record({ action: 'app.create', actor, target: { type: 'app', id: row.id }, ip: raw.ip, detail: { name: row.name } });
      return toApp(row);
    },
  });

  defineRoute(app, gate, {
    method: 'PUT', url: '/apps/:id', tags, access: Permission.Apps, summary: 'Update an app I manage (409 when version is stale)',
    params: idParams, body: appUpdateBody, response: appSchema,
    handler: async ({ actor, params, body, raw }) => {
      const current = await manageableApp(ctx, actor, params.id);
      if (body.isMaster !== undefined && !actor.platformAdmin) requirePlatform(actor);
      const changes = {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.detail !== undefined ? { detail: blank(body.detail) } : {}),
        ...(body.entrypoint !== undefined ? { entrypoint: blank(body.entrypoint) } : {}),
        ...(body.callbackUrl !== undefined ? { callbackUrl: blank(body.callbackUrl) } : {}),
        ...(body.isMaster !== undefined ? { isMaster: body.isMaster ? 1 : 0 } : {}),
        ...(body.status !== undefined ? { status: body.status } : {}),
      };
      await unique('name', () => updateVersioned(ctx.db, 'apps', current.id, body.version, changes, ctx.now()));
      await ctx.audit.record({ action: 'app.update', actor, target: { type: 'app', id: current.id }, ip: raw.ip, detail: { fields: Object.keys(changes) } });
      return toApp(await manageableApp(ctx, actor, current.id));
    },
  });

  defineRoute(app, gate, {
    method: 'DELETE', url: '/apps/:id', tags, access: Permission.Apps, summary: 'Delete an app (platform administrators)', params: idParams, response: okAnswer,
    handler: async ({ actor, params, raw }) => {
      requirePlatform(actor);
      const current = await manageableApp(ctx, actor, params.id);
      await ctx.db.deleteFrom('apps').where('id', '=', current.id).execute();
      await ctx.audit.record({ action: 'app.delete', actor, target: { type: 'app', id: current.id }, ip: raw.ip, detail: { name: current.name } });
      return null;
    },
  });

  defineRoute(app, gate, {
    method: 'GET', url: '/apps/:id/admins', tags, access: Permission.Apps, summary: "An app's administrators", params: idParams, response: v.array(memberUser),
    handler: async ({ actor, params }) => members(ctx, 'appAdmins', 'appId', (await manageableApp(ctx, actor, params.id)).id),
  });

  defineRoute(app, gate, {
    method: 'PUT', url: '/apps/:id/admins', tags, access: Permission.Apps, summary: "Set an app's administrators (platform administrators)",
    params: idParams, body: userIdsBody, response: v.array(memberUser),
    handler: async ({ actor, params, body, raw }) => {
      assertMayAppointAppAdmins(actor);
      const current = await manageableApp(ctx, actor, params.id);
      await checkUsers(ctx, actor, body.userIds);
      await ctx.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('appAdmins').where('appId', '=', current.id).execute();
        if (body.userIds.length) await trx.insertInto('appAdmins').values([...new Set(body.userIds)].map((userId) => ({ appId: current.id, userId }))).execute();
      });
      await ctx.audit.record({ action: 'app.update', actor, target: { type: 'app', id: current.id }, ip: raw.ip, detail: { admins: body.userIds } });
      return members(ctx, 'appAdmins', 'appId', current.id);
    },
  });

  // Privilege trees ---------------------------------------------------------------------------
  defineRoute(app, gate, {
    method: 'GET', url: '/apps/:appId/privileges', tags, access: Permission.Apps, summary: "An app's privilege tree (flat, by parentId and sort)",
    params: appParams, response: v.array(privilege),
    handler: async ({ actor, params }) => {
      const owner = await manageableApp(ctx, actor, params.appId);
      const rows = await ctx.db.selectFrom('privileges').selectAll().where('appId', '=', owner.id).orderBy('sort').orderBy('name').execute();
      return rows.map(toPrivilege);
    },
  });

  const parentInApp = async (appId: string, parentId: string | null | undefined, selfId?: string) => {
    if (!parentId) return;
    // Walk up from the parent: it must belong to the app, and a node cannot sit under itself.
    let cursor: string | null = parentId;
    for (let depth = 0; cursor && depth < 100; depth += 1) {
      if (cursor === selfId) throw fieldError([{ field: 'parentId', rule: 'rule.parentId' }]);
      const node: { parentId: string | null } | undefined = await ctx.db.selectFrom('privileges').select('parentId').where('id', '=', cursor).where('appId', '=', appId).executeTakeFirst();
      if (!node) throw fieldError([{ field: 'parentId', rule: 'rule.parentId' }]);
      cursor = node.parentId;
    }
  };

  defineRoute(app, gate, {
    method: 'POST', url: '/apps/:appId/privileges', tags, access: Permission.Apps, summary: 'Add a privilege node', params: appParams, body: privilegeBody, response: privilege,
    handler: async ({ actor, params, body, raw }) => {
      const owner = await manageableApp(ctx, actor, params.appId);
      await parentInApp(owner.id, body.parentId);
      const row = { id: newId(), appId: owner.id, parentId: body.parentId ?? null, name: body.name, key: body.key, sort: body.sort ?? 0, path: body.path || null, createdAt: ctx.now() };
      await unique('key', () => ctx.db.insertInto('privileges').values(row).execute());
      await ctx.audit.record({ action: 'privilege.create', actor, target: { type: 'privilege', id: row.id }, ip: raw.ip, detail: { appId: owner.id, key: row.key } });
      return toPrivilege(row);
    },
  });

  defineRoute(app, gate, {
    method: 'PUT', url: '/apps/:appId/privileges/:id', tags, access: Permission.Apps, summary: 'Change a privilege node', params: appItemParams, body: privilegeUpdateBody, response: privilege,
    handler: async ({ actor, params, body, raw }) => {
      const owner = await manageableApp(ctx, actor, params.appId);
      const current = await ctx.db.selectFrom('privileges').selectAll().where('id', '=', params.id).where('appId', '=', owner.id).executeTakeFirst();
      if (!current) throw notFound('Privilege');
      await parentInApp(owner.id, body.parentId, current.id);
      const changes = { ...body, ...(body.path !== undefined ? { path: body.path || null } : {}) };
      // A body without fields changes nothing (and an UPDATE needs at least one column).
      if (Object.keys(changes).length) await unique('key', () => ctx.db.updateTable('privileges').set(changes).where('id', '=', current.id).execute());
      await ctx.audit.record({ action: 'privilege.update', actor, target: { type: 'privilege', id: current.id }, ip: raw.ip, detail: { fields: Object.keys(body) } });
      return toPrivilege({ ...current, ...changes });
    },
  });

  defineRoute(app, gate, {
    method: 'DELETE', url: '/apps/:appId/privileges/:id', tags, access: Permission.Apps, summary: 'Remove a privilege node and its subtree', params: appItemParams, response: okAnswer,
    handler: async ({ actor, params, raw }) => {
      const owner = await manageableApp(ctx, actor, params.appId);
      const deleted = await ctx.db.deleteFrom('privileges').where('id', '=', params.id).where('appId', '=', owner.id).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) throw notFound('Privilege');
      await ctx.audit.record({ action: 'privilege.delete', actor, target: { type: 'privilege', id: params.id }, ip: raw.ip, detail: { appId: owner.id } });
      return null;
    },
  });

  defineRoute(app, gate, {
    method: 'PUT', url: '/apps/:appId/privileges/order', tags, access: Permission.Apps, summary: 'Reorder the children of one privilege node (or the top level)',
    params: appParams, body: privilegeOrderBody, response: v.array(privilege),
    handler: async ({ actor, params, body, raw }) => {
      const owner = await manageableApp(ctx, actor, params.appId);
      const siblings = await ctx.db.selectFrom('privileges').select('id').where('appId', '=', owner.id)
        .where('parentId', body.parentId === null ? 'is' : '=', body.parentId).execute();
      const wanted = new Set(body.ids);
      // The order must name every child of that parent exactly once.
      if (wanted.size !== body.ids.length || siblings.length !== wanted.size || siblings.some((row) => !wanted.has(row.id))) {
        throw fieldError([{ field: 'ids', rule: 'rule.ids' }]);
      }
      await ctx.db.transaction().execute(async (trx) => {
        for (const [index, id] of body.ids.entries()) await trx.updateTable('privileges').set({ sort: (index + 1) * 10 }).where('id', '=', id).execute();
      });
      await ctx.audit.record({ action: 'privilege.update', actor, target: { type: 'privilege', id: body.parentId }, ip: raw.ip, detail: { appId: owner.id, order: body.ids.length } });
      const rows = await ctx.db.selectFrom('privileges').selectAll().where('appId', '=', owner.id).orderBy('sort').orderBy('name').execute();
      return rows.map(toPrivilege);
    },
  });

  defineRoute(app, gate, {
    method: 'GET', url: '/apps/:appId/member-lookup', tags, access: Permission.Apps,
    summary: 'A few enabled users whose username or real name contains the text (to pick role members or app administrators)',
    params: appParams, query: memberLookupQuery, response: v.array(memberUser),
    handler: async ({ actor, params, query }) => {
      await manageableApp(ctx, actor, params.appId);
      // No ORDER BY: the scan stops at the first few matches (sorting all matches through the
      // username index took ~0.5 s over 100 000 users); the few found are sorted here.
      const found = await ctx.db.selectFrom('users').select(['users.id', 'users.username', 'users.realName'])
        .where('availabilityStatus', '=', Status.Enable)
        .where((eb) => eb.or([contains(ctx.engine, 'users.username', query.searchValue), contains(ctx.engine, 'users.realName', query.searchValue)]))
        .limit(MEMBER_LOOKUP_LIMIT).execute();
      return found.sort((a, b) => a.username.localeCompare(b.username));
    },
  });

  // Roles ---------------------------------------------------------------------------------------
  defineRoute(app, gate, {
    method: 'GET', url: '/apps/:appId/roles', tags, access: Permission.Apps, summary: "An app's roles, paged", params: appParams, query: roleListQuery, response: roleList,
    handler: async ({ actor, params, query }) => {
      const owner = await manageableApp(ctx, actor, params.appId);
      let select = ctx.db.selectFrom('roles').selectAll().where('appId', '=', owner.id);
      if (query.searchProp && query.searchValue) select = select.where(contains(ctx.engine, query.searchProp, query.searchValue));
      return paginate(select.orderBy('name'), query, toRole);
    },
  });

  defineRoute(app, gate, {
    method: 'POST', url: '/apps/:appId/roles', tags, access: Permission.Apps, summary: 'Create a role', params: appParams, body: roleCreateBody, response: role,
    handler: async ({ actor, params, body, raw }) => {
      const owner = await manageableApp(ctx, actor, params.appId);
      const now = ctx.now();
      const row = { id: newId(), appId: owner.id, name: body.name, description: body.description || null, version: 1, createdAt: now, updatedAt: now };
      await unique('name', () => ctx.db.insertInto('roles').values(row).execute());
      await ctx.audit.record({ action: 'role.create', actor, target: { type: 'role', id: row.id }, ip: raw.ip, detail: { appId: owner.id, name: row.name } });
      return row;
    },
  });

  defineRoute(app, gate, {
    method: 'PUT', url: '/apps/:appId/roles/:id', tags, access: Permission.Apps, summary: 'Update a role (409 when version is stale)', params: appItemParams, body: roleUpdateBody, response: role,
    handler: async ({ actor, params, body, raw }) => {
      const owner = await manageableApp(ctx, actor, params.appId);
      const current = await roleOf(ctx, owner.id, params.id);
      const { version, ...fields } = body;
      const changes = { ...(fields.name !== undefined ? { name: fields.name } : {}), ...(fields.description !== undefined ? { description: fields.description || null } : {}) };
      await unique('name', () => updateVersioned(ctx.db, 'roles', current.id, version, changes, ctx.now()));
      await ctx.audit.record({ action: 'role.update', actor, target: { type: 'role', id: current.id }, ip: raw.ip, detail: { fields: Object.keys(changes) } });
      return roleOf(ctx, owner.id, current.id);
    },
  });

  defineRoute(app, gate, {
    method: 'DELETE', url: '/apps/:appId/roles/:id', tags, access: Permission.Apps, summary: 'Delete a role', params: appItemParams, response: okAnswer,
    handler: async ({ actor, params, raw }) => {
      const owner = await manageableApp(ctx, actor, params.appId);
      const current = await roleOf(ctx, owner.id, params.id);
      await ctx.db.deleteFrom('roles').where('id', '=', current.id).execute();
      await ctx.audit.record({ action: 'role.delete', actor, target: { type: 'role', id: current.id }, ip: raw.ip, detail: { name: current.name } });
      return null;
    },
  });

  defineRoute(app, gate, {
    method: 'GET', url: '/apps/:appId/roles/:id/privileges', tags, access: Permission.Apps, summary: "A role's privilege ids", params: appItemParams, response: v.array(v.string()),
    handler: async ({ actor, params }) => {
      const owner = await manageableApp(ctx, actor, params.appId);
      const current = await roleOf(ctx, owner.id, params.id);
      const rows = await ctx.db.selectFrom('rolePrivileges').select('privilegeId').where('roleId', '=', current.id).execute();
      return rows.map((row) => row.privilegeId);
    },
  });

  defineRoute(app, gate, {
    method: 'PUT', url: '/apps/:appId/roles/:id/privileges', tags, access: Permission.Apps, summary: "Set a role's privileges (of the same app)",
    params: appItemParams, body: privilegeIdsBody, response: v.array(v.string()),
    handler: async ({ actor, params, body, raw }) => {
      const owner = await manageableApp(ctx, actor, params.appId);
      const current = await roleOf(ctx, owner.id, params.id);
      assertMayGrantInApp(actor, owner.id);
      await assertMayGrantRows(ctx, actor, 'privileges', body.privilegeIds);
      const ids = [...new Set(body.privilegeIds)];
      const known = ids.length ? await ctx.db.selectFrom('privileges').select('id').where('appId', '=', owner.id).where('id', 'in', ids).execute() : [];
      if (known.length !== ids.length) throw fieldError([{ field: 'privilegeIds', rule: 'rule.privilegeIds' }]);
      await ctx.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('rolePrivileges').where('roleId', '=', current.id).execute();
        if (ids.length) await trx.insertInto('rolePrivileges').values(ids.map((privilegeId) => ({ roleId: current.id, privilegeId }))).execute();
      });
      await ctx.audit.record({ action: 'role.update', actor, target: { type: 'role', id: current.id }, ip: raw.ip, detail: { privileges: ids.length } });
      return ids;
    },
  });

  defineRoute(app, gate, {
    method: 'GET', url: '/apps/:appId/roles/:id/members', tags, access: Permission.Apps, summary: "A role's members", params: appItemParams, response: v.array(memberUser),
    handler: async ({ actor, params }) => {
      const owner = await manageableApp(ctx, actor, params.appId);
      return members(ctx, 'roleMembers', 'roleId', (await roleOf(ctx, owner.id, params.id)).id);
    },
  });

  defineRoute(app, gate, {
    method: 'PUT', url: '/apps/:appId/roles/:id/members', tags, access: Permission.Apps, summary: "Set a role's members", params: appItemParams, body: userIdsBody, response: v.array(memberUser),
    handler: async ({ actor, params, body, raw }) => {
      const owner = await manageableApp(ctx, actor, params.appId);
      const current = await roleOf(ctx, owner.id, params.id);
      assertMayGrantInApp(actor, owner.id);
      const ids = [...new Set(body.userIds)];
      const rows = ids.length ? await ctx.db.selectFrom('users').select('id').where('id', 'in', ids).execute() : [];
      if (rows.length !== ids.length) throw fieldError([{ field: 'userIds', rule: 'rule.userIds' }]);
      await ctx.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('roleMembers').where('roleId', '=', current.id).execute();
        if (ids.length) await trx.insertInto('roleMembers').values(ids.map((userId) => ({ roleId: current.id, userId }))).execute();
      });
      await ctx.audit.record({ action: 'role.update', actor, target: { type: 'role', id: current.id }, ip: raw.ip, detail: { members: ids.length } });
      return members(ctx, 'roleMembers', 'roleId', current.id);
    },
  });
}

