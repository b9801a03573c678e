// Tenant calls (Permission.Operations): declaration and access of each; the work is done by
// server/services/tenants.ts.
import * as v from 'valibot';
import type { FastifyPluginAsync } from 'fastify';
import { defineRoute, type RouteOptions } from '../http/route';
import { idParams, okAnswer } from '../../src/core/schemas/common';
import { tenantMoveBody } from '../../src/core/schemas/admin';
import { memberUser, tenant, tenantCreateBody, tenantList, tenantListQuery, tenantUpdateBody, userIdsBody } from '../../src/core/schemas/resources';
import { Permission } from '../../src/core/permission-codes';
import * as tenants from '../services/tenants';

const tags = ['Tenants'];
const access = Permission.Operations;

export const tenantRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  defineRoute(app, gate, {
    method: 'GET',
    url: '/tenants',
    tags,
    access,
    summary: 'Tenants of my scope, paged',
    query: tenantListQuery,
    response: tenantList,
    handler: ({ actor, query }) => tenants.listTenants(ctx, actor, query),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/tenants/tree',
    tags,
    access,
    summary: 'All tenants of my scope (flat, with parentId), for a tree',
    response: v.array(tenant),
    handler: ({ actor }) => tenants.tenantTree(ctx, actor),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/tenants/:id',
    tags,
    access,
    summary: 'One tenant of my scope',
    params: idParams,
    response: tenant,
    handler: async ({ actor, params }) => tenants.toTenant(await tenants.manageableTenant(ctx, actor, params.id)),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/tenants',
    idempotent: true,
    tags,
    access,
    summary: 'Create a tenant under a parent of my scope',
    body: tenantCreateBody,
    response: tenant,
    handler: ({ actor, body, raw }) => tenants.createTenant(ctx, actor, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'PUT',
    url: '/tenants/:id',
    tags,
    access,
    summary: 'Update a tenant of my scope (409 when version is stale)',
    params: idParams,
    body: tenantUpdateBody,
    response: tenant,
    handler: ({ actor, params, body, raw }) => tenants.updateTenant(ctx, actor, params.id, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'DELETE',
    url: '/tenants/:id',
    tags,
    access,
    summary: 'Delete an empty tenant of my scope (not my own, not the root)',
    params: idParams,
    response: okAnswer,
    handler: ({ actor, params, raw }) => tenants.deleteTenant(ctx, actor, params.id, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'PUT',
    url: '/tenants/:id/parent',
    tags,
    access,
    summary: 'Move a tenant of my scope (with its subtree) under another parent of my scope (409 when version is stale)',
    params: idParams,
    body: tenantMoveBody,
    response: tenant,
    handler: ({ actor, params, body, raw }) => tenants.changeParent(ctx, actor, params.id, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/tenants/:id/admins',
    tags,
    access,
    summary: "A tenant's administrators (its tenant users with the admin flag)",
    params: idParams,
    response: v.array(memberUser),
    handler: ({ actor, params }) => tenants.administratorsOf(ctx, actor, params.id),
  });

  defineRoute(app, gate, {
    method: 'PUT',
    url: '/tenants/:id/admins',
    tags,
    access,
    summary: "Set a tenant's administrators (tenant users of that very tenant)",
    params: idParams,
    body: userIdsBody,
    response: v.array(memberUser),
    handler: ({ actor, params, body, raw }) => tenants.setTenantAdmins(ctx, actor, params.id, body.userIds, raw.ip),
  });
};
