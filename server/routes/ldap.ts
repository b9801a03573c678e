// A tenant's directory connection (LDAP or Active Directory, docs/ldap.md): declaration and access
// of each call; the work is in server/ldap. Platform and tenant administrators (Permission.Operations)
// reach the connections of the tenants of their scope (404 outside it).
import type { FastifyPluginAsync } from 'fastify';
import { defineRoute, type RouteOptions } from '../http/route';
import { idParams, okAnswer } from '../../src/core/schemas/common';
import { ldapConnection, ldapConnectionAnswer, ldapConnectionBody, ldapSyncReport, ldapSyncReports, ldapTestAnswer } from '../../src/core/schemas/ldap';
import { Permission } from '../../src/core/permission-codes';
import * as connections from '../ldap/connections';
import { synchronise } from '../ldap/sync';
import { reportsOf } from '../ldap/report';

const tags = ['Directory (LDAP)'];

export const ldapRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  defineRoute(app, gate, {
    method: 'GET',
    url: '/tenants/:id/ldap',
    tags,
    access: Permission.Operations,
    summary: "The tenant's directory connection (null: none), never its bind secret",
    params: idParams,
    response: ldapConnectionAnswer,
    handler: ({ actor, params }) => connections.readConnection(ctx, actor, params.id),
  });

  defineRoute(app, gate, {
    method: 'PUT',
    url: '/tenants/:id/ldap',
    tags,
    access: Permission.Operations,
    summary: "Create or change the tenant's directory connection (an empty bind secret keeps the stored one)",
    params: idParams,
    body: ldapConnectionBody,
    response: ldapConnection,
    handler: ({ actor, params, body, raw }) => connections.saveConnection(ctx, actor, params.id, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'DELETE',
    url: '/tenants/:id/ldap',
    tags,
    access: Permission.Operations,
    summary: "Remove the tenant's directory connection (its people stay, with their links gone)",
    params: idParams,
    response: okAnswer,
    handler: async ({ actor, params, raw }) => {
      await connections.deleteConnection(ctx, actor, params.id, raw.ip);
      return null;
    },
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/tenants/:id/ldap/test',
    tags,
    access: Permission.Operations,
    summary: 'Test the stored connection: connect, TLS, bind and search, naming the step that failed',
    params: idParams,
    response: ldapTestAnswer,
    handler: ({ actor, params }) => connections.testConnection(ctx, actor, params.id),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/tenants/:id/ldap/sync',
    tags,
    access: Permission.Operations,
    summary: 'Synchronise the tenant with its directory now and answer the report',
    params: idParams,
    response: ldapSyncReport,
    handler: async ({ actor, params, raw }) => synchronise(ctx, await connections.manageableConnection(ctx, actor, params.id), 'manual', raw.ip),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/tenants/:id/ldap/reports',
    tags,
    access: Permission.Operations,
    summary: "The reports of the tenant's last synchronisations, newest first",
    params: idParams,
    response: ldapSyncReports,
    handler: async ({ actor, params }) => reportsOf(ctx, (await connections.manageableConnection(ctx, actor, params.id)).id),
  });
};
