// What a menu plan's items are bound to (operations, code 4): the bound privileges with their
// names and places in their apps' trees. Everyone who may read a plan reads these too — a tenant
// administrator cannot read apps' privilege trees (code 1), but sees a plan's bindings by name.
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import type { Ctx } from '../context';
import { defineRoute, type Gate } from '../http/route';
import { Permission } from '../../src/core/permission-codes';
import { idParams } from '../../src/core/schemas/common';
import { privilege } from '../../src/core/schemas/resources';
import { boundPrivileges } from '../menus/visibility';
import type { PlanMenuItem } from '../../src/core/schemas/menu-plans';
import { notFound } from '../http/errors';

export function menuBindingRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  defineRoute(app, gate, {
    method: 'GET', url: '/menu-plans/:id/privileges', tags: ['Menus'], access: Permission.Operations,
    summary: 'The privileges the items of a menu plan are bound to (names, keys, parents), for every reader of the plan',
    params: idParams, response: v.array(privilege),
    handler: async ({ params }) => {
      const plan = await ctx.db.selectFrom('menuPlans').select('items').where('id', '=', params.id).executeTakeFirst();
      if (!plan) throw notFound('Menu plan');
      const ids = boundPrivileges(JSON.parse(plan.items) as PlanMenuItem[]);
      if (!ids.length) return [];
      return ctx.db.selectFrom('privileges').select(['id', 'appId', 'parentId', 'name', 'key', 'sort', 'path']).where('id', 'in', ids).orderBy('sort').execute();
    },
  });
}
