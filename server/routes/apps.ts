// App calls (Permission.Apps): apps and their administrators, privilege trees and roles. Each is
// registered here with its access (declared in src/core/contract/apps.ts); the work is done by
// server/services/apps.ts, privileges.ts and roles.ts.
import type { FastifyPluginAsync } from 'fastify';
import { route, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/apps';
import { Permission } from '../../src/core/permission-codes';
import * as apps from '../services/apps';
import * as privileges from '../services/privileges';
import * as roles from '../services/roles';

const tags = ['Apps'];
const access = Permission.Apps;

export const appRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  route(app, gate, calls.getApps, {
    tags,
    access,
    summary: 'Apps I may manage, paged',
    handler: ({ actor, query }) => apps.listApps(ctx, actor, query),
  });

  route(app, gate, calls.getAppsById, {
    tags,
    access,
    summary: 'One app I may manage',
    handler: async ({ actor, params }) => apps.toApp(await apps.manageableApp(ctx, actor, params.id)),
  });

  route(app, gate, calls.postApps, {
    idempotent: true,
    tags,
    access,
    summary: 'Create an app (platform administrators)',
    handler: ({ actor, body, raw }) => apps.createApp(ctx, actor, body, raw.ip),
  });

  route(app, gate, calls.putAppsById, {
    tags,
    access,
    summary: 'Update an app I manage (409 when version is stale)',
    handler: ({ actor, params, body, raw }) => apps.updateApp(ctx, actor, params.id, body, raw.ip),
  });

  route(app, gate, calls.deleteAppsById, {
    tags,
    access,
    summary: 'Delete an app (platform administrators)',
    handler: ({ actor, params, raw }) => apps.deleteApp(ctx, actor, params.id, raw.ip),
  });

  route(app, gate, calls.getAppsAdmins, {
    tags,
    access,
    summary: "An app's administrators",
    handler: ({ actor, params }) => apps.appAdmins(ctx, actor, params.id),
  });

  route(app, gate, calls.putAppsAdmins, {
    tags,
    access,
    summary: "Set an app's administrators (platform administrators)",
    handler: ({ actor, params, body, raw }) => apps.setAppAdmins(ctx, actor, params.id, body.userIds, raw.ip),
  });

  route(app, gate, calls.getAppsMemberLookup, {
    tags,
    access,
    summary: 'A few enabled users whose username or real name contains the text (to pick role members or app administrators)',
    handler: ({ actor, params, query }) => apps.lookupMembers(ctx, actor, params.appId, query.searchValue),
  });

  // Privilege trees ---------------------------------------------------------------------------
  route(app, gate, calls.getAppsPrivileges, {
    tags,
    access,
    summary: "An app's privilege tree (flat, by parentId and sort)",
    handler: ({ actor, params }) => privileges.listPrivileges(ctx, actor, params.appId),
  });

  route(app, gate, calls.postAppsPrivileges, {
    idempotent: true,
    tags,
    access,
    summary: 'Add a privilege node',
    handler: ({ actor, params, body, raw }) => privileges.createPrivilege(ctx, actor, params.appId, body, raw.ip),
  });

  route(app, gate, calls.putAppsPrivilegesById, {
    tags,
    access,
    summary: 'Change a privilege node',
    handler: ({ actor, params, body, raw }) => privileges.updatePrivilege(ctx, actor, params.appId, params.id, body, raw.ip),
  });

  route(app, gate, calls.deleteAppsPrivilegesById, {
    tags,
    access,
    summary: 'Remove a privilege node and its subtree',
    handler: ({ actor, params, raw }) => privileges.deletePrivilege(ctx, actor, params.appId, params.id, raw.ip),
  });

  route(app, gate, calls.putAppsPrivilegesOrder, {
    tags,
    access,
    summary: 'Reorder the children of one privilege node (or the top level)',
    handler: ({ actor, params, body, raw }) => privileges.reorderPrivileges(ctx, actor, params.appId, body, raw.ip),
  });

  // Roles ---------------------------------------------------------------------------------------
  route(app, gate, calls.getAppsRoles, {
    tags,
    access,
    summary: "An app's roles, paged",
    handler: ({ actor, params, query }) => roles.listRoles(ctx, actor, params.appId, query),
  });

  route(app, gate, calls.postAppsRoles, {
    idempotent: true,
    tags,
    access,
    summary: 'Create a role',
    handler: ({ actor, params, body, raw }) => roles.createRole(ctx, actor, params.appId, body, raw.ip),
  });

  route(app, gate, calls.putAppsRolesById, {
    tags,
    access,
    summary: 'Update a role (409 when version is stale)',
    handler: ({ actor, params, body, raw }) => roles.updateRole(ctx, actor, params.appId, params.id, body, raw.ip),
  });

  route(app, gate, calls.deleteAppsRolesById, {
    tags,
    access,
    summary: 'Delete a role',
    handler: ({ actor, params, raw }) => roles.deleteRole(ctx, actor, params.appId, params.id, raw.ip),
  });

  route(app, gate, calls.getAppsRolesPrivileges, {
    tags,
    access,
    summary: "A role's privilege ids",
    handler: ({ actor, params }) => roles.rolePrivileges(ctx, actor, params.appId, params.id),
  });

  route(app, gate, calls.putAppsRolesPrivileges, {
    tags,
    access,
    summary: "Set a role's privileges (of the same app)",
    handler: ({ actor, params, body, raw }) => roles.setRolePrivileges(ctx, actor, params.appId, params.id, body.privilegeIds, raw.ip),
  });

  route(app, gate, calls.getAppsRolesMembers, {
    tags,
    access,
    summary: "A role's members",
    handler: ({ actor, params }) => roles.roleMembers(ctx, actor, params.appId, params.id),
  });

  route(app, gate, calls.putAppsRolesMembers, {
    tags,
    access,
    summary: "Set a role's members",
    handler: ({ actor, params, body, raw }) => roles.setRoleMembers(ctx, actor, params.appId, params.id, body.userIds, raw.ip),
  });
};
