// Menu plans (Permission.Operations): declaration and access of each call; the work is done by
// server/services/menu-plans.ts. Changing a plan is for platform administrators (the service checks).
import * as v from 'valibot';
import type { FastifyPluginAsync } from 'fastify';
import { defineRoute, type RouteOptions } from '../http/route';
import { idParams, okAnswer } from '../../src/core/schemas/common';
import { privilege } from '../../src/core/schemas/privileges';
import { GLOBAL_MENU, plan, planBody, planForParams, planList, planListQuery, planUpdateBody } from '../../src/core/schemas/menu-plans';
import { Permission } from '../../src/core/permission-codes';
import * as plans from '../services/menu-plans';

const tags = ['Menus'];
const access = Permission.Operations;

export const menuPlanRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  defineRoute(app, gate, {
    method: 'GET',
    url: '/menu-plans',
    tags,
    access,
    summary: 'Menu plans, paged',
    query: planListQuery,
    response: planList,
    handler: ({ query }) => plans.listPlans(ctx, query),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/menu-plans/for/:appId',
    tags,
    access,
    summary: `The menu plan of an app ('${GLOBAL_MENU}': the global menu), or null`,
    params: planForParams,
    response: v.nullable(plan),
    handler: ({ params }) => plans.planOfApp(ctx, params.appId === GLOBAL_MENU ? null : params.appId),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/menu-plans/:id',
    tags,
    access,
    summary: 'One menu plan',
    params: idParams,
    response: plan,
    handler: async ({ params }) => plans.toMenuPlan(await plans.planOf(ctx, params.id)),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/menu-plans',
    idempotent: true,
    tags,
    access,
    summary: 'Create the menu plan of an app or the global one (platform administrators; one each)',
    body: planBody,
    response: plan,
    handler: ({ actor, body, raw }) => plans.createPlan(ctx, actor, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'PUT',
    url: '/menu-plans/:id',
    tags,
    access,
    summary: 'Update a menu plan (platform administrators; 409 when version is stale)',
    params: idParams,
    body: planUpdateBody,
    response: plan,
    handler: ({ actor, params, body, raw }) => plans.updatePlan(ctx, actor, params.id, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'DELETE',
    url: '/menu-plans/:id',
    tags,
    access,
    summary: 'Delete a menu plan (platform administrators)',
    params: idParams,
    response: okAnswer,
    handler: ({ actor, params, raw }) => plans.deletePlan(ctx, actor, params.id, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/menu-plans/:id/privileges',
    tags,
    access,
    summary: 'The privileges the items of a menu plan are bound to (names, keys, parents), for every reader of the plan',
    params: idParams,
    response: v.array(privilege),
    handler: ({ params }) => plans.planPrivileges(ctx, params.id),
  });
};
