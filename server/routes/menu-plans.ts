// Menu plans (Permission.Operations): declaration and access of each call; the work is done by
// server/services/menu-plans.ts. Changing a plan is for platform administrators (the service checks).
import type { FastifyPluginAsync } from 'fastify';
import { route, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/menu-plans';
import { GLOBAL_MENU } from '../../src/core/schemas/menu-plans';
import { Permission } from '../../src/core/permission-codes';
import * as plans from '../services/menu-plans';

const tags = ['Menus'];
const access = Permission.Operations;

export const menuPlanRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  route(app, gate, calls.getMenuPlans, {
    tags,
    access,
    summary: 'Menu plans, paged',
    handler: ({ query }) => plans.listPlans(ctx, query),
  });

  route(app, gate, calls.getMenuPlansForApp, {
    tags,
    access,
    summary: `The menu plan of an app ('${GLOBAL_MENU}': the global menu), or null`,
    handler: ({ params }) => plans.planOfApp(ctx, params.appId === GLOBAL_MENU ? null : params.appId),
  });

  route(app, gate, calls.getMenuPlansById, {
    tags,
    access,
    summary: 'One menu plan',
    handler: async ({ params }) => plans.toMenuPlan(await plans.planOf(ctx, params.id)),
  });

  route(app, gate, calls.postMenuPlans, {
    idempotent: true,
    tags,
    access,
    summary: 'Create the menu plan of an app or the global one (platform administrators; one each)',
    handler: ({ actor, body, raw }) => plans.createPlan(ctx, actor, body, raw.ip),
  });

  route(app, gate, calls.putMenuPlansById, {
    tags,
    access,
    summary: 'Update a menu plan (platform administrators; 409 when version is stale)',
    handler: ({ actor, params, body, raw }) => plans.updatePlan(ctx, actor, params.id, body, raw.ip),
  });

  route(app, gate, calls.deleteMenuPlansById, {
    tags,
    access,
    summary: 'Delete a menu plan (platform administrators)',
    handler: ({ actor, params, raw }) => plans.deletePlan(ctx, actor, params.id, raw.ip),
  });

  route(app, gate, calls.getMenuPlansPrivileges, {
    tags,
    access,
    summary: 'The privileges the items of a menu plan are bound to (names, keys, parents), for every reader of the plan',
    handler: ({ params }) => plans.planPrivileges(ctx, params.id),
  });
};
