// Operations (code 4): menu plans and the §7 multi-app menu list, and the audit log
// (channels and messages: channels.ts, messages.ts).
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { Ctx } from '../context';
import type { AuditTable, MenuPlanTable } from '../db/tables';
import { defineRoute, type Gate } from '../http/route';
import { idParams, okAnswer } from '../../src/core/schemas/common';
import {
  auditList, auditListQuery, menuListQuery, menuPlan, menuPlanBody, menuPlanList, menuPlanUpdateBody, multiAppMenu, multiAppMenuQuery,
} from '../../src/core/schemas/resources';
import { requirePlatform } from '../auth/scope';
import { newId } from '../auth/secrets';
import { contains, paginate } from '../http/paging';
import { fieldError, notFound } from '../http/errors';
import { updateVersioned } from '../db/versioned';

type MenuRow = Selectable<MenuPlanTable>;
const toMenuPlan = (row: MenuRow) => ({ ...row, items: JSON.parse(row.items) });

function menuRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  const tags = ['Menus'];
  const planOf = async (id: string) => {
    const row = await ctx.db.selectFrom('menuPlans').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Menu plan');
    return row;
  };
  const appExists = async (appId: string | null | undefined) => {
    if (appId && !(await ctx.db.selectFrom('apps').select('id').where('id', '=', appId).executeTakeFirst())) throw fieldError([{ field: 'appId', rule: 'rule.appId' }]);
  };

  defineRoute(app, gate, {
    method: 'GET', url: '/menu/app/assignment/public/multi_app_menu/list', tags, access: '0',
    summary: 'The menus of every app (and the global menu), for the console and portals', query: multiAppMenuQuery, response: multiAppMenu,
    handler: async ({ query }) => {
      let select = ctx.db.selectFrom('menuPlans').leftJoin('apps', 'apps.id', 'menuPlans.appId')
        .select(['menuPlans.id', 'menuPlans.appId', 'menuPlans.items', 'menuPlans.name', 'apps.name as appName']);
      if (query.appId) select = select.where('menuPlans.appId', '=', query.appId);
      const rows = await select.orderBy('apps.name').orderBy('menuPlans.name').limit(500).execute();
      return rows.map((row) => ({ appId: row.appId, appName: row.appName ?? row.name, planId: row.id, menus: JSON.parse(row.items) }));
    },
  });

  defineRoute(app, gate, {
    method: 'GET', url: '/menu-plans', tags, access: '4', summary: 'Menu plans, paged', query: menuListQuery, response: menuPlanList,
    handler: async ({ query }) => {
      let select = ctx.db.selectFrom('menuPlans').selectAll();
      if (query.appId) select = select.where('appId', '=', query.appId);
      if (query.searchProp && query.searchValue) select = select.where(contains(ctx.engine, query.searchProp, query.searchValue));
      return paginate(select.orderBy('name'), query, toMenuPlan);
    },
  });

  defineRoute(app, gate, {
    method: 'GET', url: '/menu-plans/:id', tags, access: '4', summary: 'One menu plan', params: idParams, response: menuPlan,
    handler: async ({ params }) => toMenuPlan(await planOf(params.id)),
  });

  defineRoute(app, gate, {
    method: 'POST', url: '/menu-plans', tags, access: '4', summary: 'Create a menu plan (platform administrators)', body: menuPlanBody, response: menuPlan,
    handler: async ({ actor, body, raw }) => {
      requirePlatform(actor);
      await appExists(body.appId);
      const now = ctx.now();
      const row: MenuRow = { id: newId(), appId: body.appId ?? null, name: body.name, description: body.description || null, items: JSON.stringify(body.items), version: 1, createdAt: now, updatedAt: now };
      await ctx.db.insertInto('menuPlans').values(row).execute();
      await ctx.audit.record({ action: 'menu.create', actor, target: { type: 'menu', id: row.id }, ip: raw.ip, detail: { name: row.name } });
      return toMenuPlan(row);
    },
  });

  defineRoute(app, gate, {
    method: 'PUT', url: '/menu-plans/:id', tags, access: '4', summary: 'Update a menu plan (platform administrators; 409 when version is stale)',
    params: idParams, body: menuPlanUpdateBody, response: menuPlan,
    handler: async ({ actor, params, body, raw }) => {
      requirePlatform(actor);
      const current = await planOf(params.id);
      await appExists(body.appId);
      const { version, items, description, ...fields } = body;
      const changes = { ...fields, ...(items ? { items: JSON.stringify(items) } : {}), ...(description !== undefined ? { description: description || null } : {}) };
      await updateVersioned(ctx.db, 'menuPlans', current.id, version, changes, ctx.now());
      await ctx.audit.record({ action: 'menu.update', actor, target: { type: 'menu', id: current.id }, ip: raw.ip, detail: { fields: Object.keys(changes) } });
      return toMenuPlan(await planOf(current.id));
    },
  });

  defineRoute(app, gate, {
    method: 'DELETE', url: '/menu-plans/:id', tags, access: '4', summary: 'Delete a menu plan (platform administrators)', params: idParams, response: okAnswer,
    handler: async ({ actor, params, raw }) => {
      requirePlatform(actor);
      const current = await planOf(params.id);
      await ctx.db.deleteFrom('menuPlans').where('id', '=', current.id).execute();
      await ctx.audit.record({ action: 'menu.delete', actor, target: { type: 'menu', id: current.id }, ip: raw.ip, detail: { name: current.name } });
      return null;
    },
  });
}

function auditRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  defineRoute(app, gate, {
    method: 'GET', url: '/audit', tags: ['Audit'], access: '4', summary: 'Security events, newest first (a tenant administrator sees their subtree’s)',
    query: auditListQuery, response: auditList,
    handler: ({ actor, query }) => {
      let select = ctx.db.selectFrom('auditLog').selectAll();
      if (!actor.platformAdmin) {
        const subtree = actor.tenantPath ?? '/-none-/';
        select = select.where((eb) => eb('tenantId', 'in', eb.selectFrom('tenants').select('tenants.id').where('tenants.path', 'like', `${subtree}%`)));
      }
      if (query.searchProp && query.searchValue) select = select.where(contains(ctx.engine, query.searchProp, query.searchValue));
      return paginate(select.orderBy('at', 'desc').orderBy('id', 'desc'), query, (row: Selectable<AuditTable>) => ({
        ...row, success: row.success === 1, detail: JSON.parse(row.detail),
      }));
    },
  });
}

export function operationRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  menuRoutes(app, gate, ctx);
  auditRoutes(app, gate, ctx);
}

