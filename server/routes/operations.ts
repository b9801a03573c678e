// Operations (Permission.Operations): menu plans and the multi-app menu list (channels and messages: channels.ts,
// messages.ts; the audit log: audit.ts).
import * as v from 'valibot';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { Ctx } from '../context';
import type { MenuPlanTable } from '../db/tables';
import { defineRoute, type Gate } from '../http/route';
import { idParams, okAnswer } from '../../src/core/schemas/common';
import {
  appMenus, appMenusQuery, GLOBAL_MENU, plan, planBody, planForParams, planList, planListQuery, planUpdateBody, type PlanMenuItem,
} from '../../src/core/schemas/menu-plans';
import { boundPrivileges, heldPrivileges, visibleItems, type Viewer } from '../menus/visibility';
import { appTokenHolder, bearerToken } from '../oidc/bearer';
import { OidcProvider } from '../oidc/provider';
import { assertMayBindMenus } from '../auth/grants';
import { newId } from '../auth/secrets';
import { contains, paginate } from '../http/paging';
import { fieldError, forbidden, notFound } from '../http/errors';
import { updateVersioned } from '../db/versioned';
import { Permission } from '../../src/core/permission-codes';

type MenuRow = Selectable<MenuPlanTable>;
const toMenuPlan = (row: MenuRow) => ({ ...row, items: JSON.parse(row.items) as PlanMenuItem[] });

function menuRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  const tags = ['Menus'];
  const planOf = async (id: string) => {
    const row = await ctx.db.selectFrom('menuPlans').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Menu plan');
    return row;
  };
  /** The plan of an app (or of the global menu, appId null), if there is one. */
  const planFor = (appId: string | null) => {
    const select = ctx.db.selectFrom('menuPlans').selectAll();
    return (appId === null ? select.where('appId', 'is', null) : select.where('appId', '=', appId)).executeTakeFirst();
  };
  const appExists = async (appId: string | null | undefined) => {
    if (appId && !(await ctx.db.selectFrom('apps').select('id').where('id', '=', appId).executeTakeFirst())) throw fieldError([{ field: 'appId', rule: 'rule.appId' }]);
  };
  /** Bound privileges must exist; an app's plan binds only that app's privileges. */
  const privilegesExist = async (appId: string | null, items: PlanMenuItem[]) => {
    const ids = boundPrivileges(items);
    if (!ids.length) return;
    let select = ctx.db.selectFrom('privileges').select('id').where('id', 'in', ids);
    if (appId) select = select.where('appId', '=', appId);
    if ((await select.execute()).length !== ids.length) throw fieldError([{ field: 'items', rule: 'rule.privilegeIds' }]);
  };

  defineRoute(app, gate, {
    // Signed in to the console (Permission.SelfService), or an app with a person's access token from our provider
    // (Authorization: Bearer), which gets that person's menu of that app only.
    method: 'GET', url: '/menu/app/assignment/public/multi_app_menu/list', tags, access: Permission.SelfService, appToken: true,
    summary: 'The menus of every app (and the global menu), with only the items the caller may see; with an app\'s access token (Authorization: Bearer), that app\'s menu for its person',
    query: appMenusQuery, response: appMenus,
    handler: async ({ actor, query, raw }) => {
      const bearer = bearerToken(raw);
      let viewer: Viewer;
      let appId = query.appId;
      if (bearer !== undefined) {
        const holder = await appTokenHolder(ctx, OidcProvider.of(ctx), bearer);
        if (appId && appId !== holder.appId) throw forbidden('This access token was issued to another app');
        ({ appId } = holder);
        viewer = holder.person;
      } else {
        viewer = actor!; // signed in: checked by defineRoute without a bearer token
      }
      let select = ctx.db.selectFrom('menuPlans').leftJoin('apps', 'apps.id', 'menuPlans.appId')
        .select(['menuPlans.id', 'menuPlans.appId', 'menuPlans.items', 'menuPlans.name', 'apps.name as appName', 'apps.entrypoint']);
      if (appId) select = select.where('menuPlans.appId', '=', appId);
      const rows = await select.orderBy('apps.name').orderBy('menuPlans.name').limit(500).execute();
      const held = await heldPrivileges(ctx, viewer);
      return rows.map((row) => ({
        appId: row.appId, appName: row.appName ?? row.name, planId: row.id, planName: row.name, entrypoint: row.entrypoint ?? null,
        menus: visibleItems(JSON.parse(row.items) as PlanMenuItem[], held),
      }));
    },
  });

  defineRoute(app, gate, {
    method: 'GET', url: '/menu-plans', tags, access: Permission.Operations, summary: 'Menu plans, paged', query: planListQuery, response: planList,
    handler: async ({ query }) => {
      let select = ctx.db.selectFrom('menuPlans').selectAll();
      if (query.appId) select = select.where('appId', '=', query.appId);
      if (query.searchProp && query.searchValue) select = select.where(contains(ctx.engine, query.searchProp, query.searchValue));
      return paginate(select.orderBy('name'), query, toMenuPlan);
    },
  });

  defineRoute(app, gate, {
    method: 'GET', url: '/menu-plans/for/:appId', tags, access: Permission.Operations, summary: `The menu plan of an app ('${GLOBAL_MENU}': the global menu), or null`,
    params: planForParams, response: v.nullable(plan),
    handler: async ({ params }) => {
      const row = await planFor(params.appId === GLOBAL_MENU ? null : params.appId);
      return row ? toMenuPlan(row) : null;
    },
  });

  defineRoute(app, gate, {
    method: 'GET', url: '/menu-plans/:id', tags, access: Permission.Operations, summary: 'One menu plan', params: idParams, response: plan,
    handler: async ({ params }) => toMenuPlan(await planOf(params.id)),
  });

  defineRoute(app, gate, {
    method: 'POST', url: '/menu-plans', tags, access: Permission.Operations, summary: 'Create the menu plan of an app or the global one (platform administrators; one each)',
    body: planBody, response: plan,
    handler: async ({ actor, body, raw }) => {
      assertMayBindMenus(actor);
      const appId = body.appId ?? null;
      await appExists(appId);
      if (await planFor(appId)) throw fieldError([{ field: 'appId', rule: 'rule.duplicate' }]);
      await privilegesExist(appId, body.items);
      const now = ctx.now();
      const row: MenuRow = { id: newId(), appId, name: body.name, description: body.description || null, items: JSON.stringify(body.items), version: 1, createdAt: now, updatedAt: now };
      await ctx.db.insertInto('menuPlans').values(row).execute();
      await ctx.audit.record({ action: 'menu.create', actor, target: { type: 'menu', id: row.id }, ip: raw.ip, detail: { name: row.name } });
      return toMenuPlan(row);
    },
  });

  defineRoute(app, gate, {
    method: 'PUT', url: '/menu-plans/:id', tags, access: Permission.Operations, summary: 'Update a menu plan (platform administrators; 409 when version is stale)',
    params: idParams, body: planUpdateBody, response: plan,
    handler: async ({ actor, params, body, raw }) => {
      assertMayBindMenus(actor);
      const current = await planOf(params.id);
      const { version, items, description, ...fields } = body;
      if (items) await privilegesExist(current.appId, items);
      const changes = { ...fields, ...(items ? { items: JSON.stringify(items) } : {}), ...(description !== undefined ? { description: description || null } : {}) };
      await updateVersioned(ctx.db, 'menuPlans', current.id, version, changes, ctx.now());
      await ctx.audit.record({ action: 'menu.update', actor, target: { type: 'menu', id: current.id }, ip: raw.ip, detail: { fields: Object.keys(changes) } });
      return toMenuPlan(await planOf(current.id));
    },
  });

  defineRoute(app, gate, {
    method: 'DELETE', url: '/menu-plans/:id', tags, access: Permission.Operations, summary: 'Delete a menu plan (platform administrators)', params: idParams, response: okAnswer,
    handler: async ({ actor, params, raw }) => {
      assertMayBindMenus(actor);
      const current = await planOf(params.id);
      await ctx.db.deleteFrom('menuPlans').where('id', '=', current.id).execute();
      await ctx.audit.record({ action: 'menu.delete', actor, target: { type: 'menu', id: current.id }, ip: raw.ip, detail: { name: current.name } });
      return null;
    },
  });
}

export function operationRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  menuRoutes(app, gate, ctx);
}

