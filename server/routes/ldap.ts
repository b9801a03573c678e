// A tenant's directory connection (LDAP or Active Directory, docs/ldap.md): declaration and access
// of each call; the work is in server/ldap. Platform and tenant administrators (Permission.Operations)
// reach the connections of the tenants of their scope (404 outside it).
import type { FastifyPluginAsync } from 'fastify';
import { route, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/ldap';
import { Permission } from '../../src/core/permission-codes';
import * as connections from '../ldap/connections';
import { synchronise } from '../ldap/sync';
import { reportsOf } from '../ldap/report';

const tags = ['Directory (LDAP)'];

export const ldapRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  route(app, gate, calls.getTenantsLdap, {
    tags,
    access: Permission.Operations,
    summary: "The tenant's directory connection (null: none), never its bind secret",
    handler: ({ actor, params }) => connections.readConnection(ctx, actor, params.id),
  });

  route(app, gate, calls.putTenantsLdap, {
    tags,
    access: Permission.Operations,
    summary: "Create or change the tenant's directory connection (an empty bind secret keeps the stored one)",
    handler: ({ actor, params, body, raw }) => connections.saveConnection(ctx, actor, params.id, body, raw.ip),
  });

  route(app, gate, calls.deleteTenantsLdap, {
    tags,
    access: Permission.Operations,
    summary: "Remove the tenant's directory connection (its people stay, with their links gone)",
    handler: async ({ actor, params, raw }) => {
      await connections.deleteConnection(ctx, actor, params.id, raw.ip);
      return null;
    },
  });

  route(app, gate, calls.postTenantsLdapTest, {
    tags,
    access: Permission.Operations,
    summary: 'Test the stored connection: connect, TLS, bind and search, naming the step that failed',
    handler: ({ actor, params }) => connections.testConnection(ctx, actor, params.id),
  });

  route(app, gate, calls.postTenantsLdapSync, {
    tags,
    access: Permission.Operations,
    summary: 'Synchronise the tenant with its directory now and answer the report (audited as ldap.sync, naming the caller)',
    handler: async ({ actor, params, raw }) => synchronise(ctx, await connections.manageableConnection(ctx, actor, params.id), 'manual', raw.ip, actor),
  });

  route(app, gate, calls.getTenantsLdapReports, {
    tags,
    access: Permission.Operations,
    summary: "The reports of the tenant's last synchronisations, newest first",
    handler: async ({ actor, params }) => reportsOf(ctx, (await connections.manageableConnection(ctx, actor, params.id)).id),
  });
};
