// Tenant calls (Permission.Operations): declaration and access of each; the work is done by
// server/services/tenants.ts.
import type { FastifyPluginAsync } from 'fastify';
import { route, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/tenants';
import { Permission } from '../../src/core/permission-codes';
import * as tenants from '../services/tenants';
import { deleteTenant } from '../services/tenant-removal';

const tags = ['Tenants'];
const access = Permission.Operations;

export const tenantRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  route(app, gate, calls.getTenants, {
    tags,
    access,
    summary: 'Tenants of my scope, paged',
    handler: ({ actor, query }) => tenants.listTenants(ctx, actor, query),
  });

  route(app, gate, calls.getTenantsTree, {
    tags,
    access,
    summary: 'All tenants of my scope (flat, with parentId), for a tree',
    handler: ({ actor }) => tenants.tenantTree(ctx, actor),
  });

  route(app, gate, calls.getTenantsById, {
    tags,
    access,
    summary: 'One tenant of my scope',
    handler: async ({ actor, params }) => tenants.toTenant(await tenants.manageableTenant(ctx, actor, params.id)),
  });

  route(app, gate, calls.postTenants, {
    idempotent: true,
    tags,
    access,
    summary: 'Create a tenant under a parent of my scope',
    handler: ({ actor, body, raw }) => tenants.createTenant(ctx, actor, body, raw.ip),
  });

  route(app, gate, calls.putTenantsById, {
    tags,
    access,
    summary: 'Update a tenant of my scope (409 when version is stale)',
    handler: ({ actor, params, body, raw }) => tenants.updateTenant(ctx, actor, params.id, body, raw.ip),
  });

  route(app, gate, calls.deleteTenantsById, {
    tags,
    access,
    summary: 'Delete an empty tenant of my scope (not my own, not the root)',
    handler: ({ actor, params, raw }) => deleteTenant(ctx, actor, params.id, raw.ip),
  });

  route(app, gate, calls.putTenantsParent, {
    tags,
    access,
    summary: 'Move a tenant of my scope (with its subtree) under another parent of my scope (409 when version is stale)',
    handler: ({ actor, params, body, raw }) => tenants.changeParent(ctx, actor, params.id, body, raw.ip),
  });

  route(app, gate, calls.getTenantsAdmins, {
    tags,
    access,
    summary: "A tenant's administrators (its tenant users with the admin flag)",
    handler: ({ actor, params }) => tenants.administratorsOf(ctx, actor, params.id),
  });

  route(app, gate, calls.putTenantsAdmins, {
    tags,
    access,
    summary: "Set a tenant's administrators (tenant users of that very tenant)",
    handler: ({ actor, params, body, raw }) => tenants.setTenantAdmins(ctx, actor, params.id, body.userIds, raw.ip),
  });
};
