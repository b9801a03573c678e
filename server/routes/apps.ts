// App calls (Permission.Apps): apps and their administrators, privilege trees and roles. Each is
// declared here with its access; the work is done by server/services/apps.ts, privileges.ts and roles.ts.
import * as v from 'valibot';
import type { FastifyPluginAsync } from 'fastify';
import { defineRoute, type RouteOptions } from '../http/route';
import { idParams, okAnswer } from '../../src/core/schemas/common';
import { memberLookupQuery, privilegeOrderBody } from '../../src/core/schemas/admin';
import {
  app as appSchema,
  appCreateBody,
  appItemParams,
  appList,
  appListQuery,
  appParams,
  appUpdateBody,
  memberUser,
  privilegeIdsBody,
  role,
  roleCreateBody,
  roleList,
  roleListQuery,
  roleUpdateBody,
  userIdsBody,
} from '../../src/core/schemas/resources';
import { privilege, privilegeBody, privilegeUpdateBody } from '../../src/core/schemas/privileges';
import { Permission } from '../../src/core/permission-codes';
import * as apps from '../services/apps';
import * as privileges from '../services/privileges';
import * as roles from '../services/roles';

const tags = ['Apps'];
const access = Permission.Apps;

export const appRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  defineRoute(app, gate, {
    method: 'GET',
    url: '/apps',
    tags,
    access,
    summary: 'Apps I may manage, paged',
    query: appListQuery,
    response: appList,
    handler: ({ actor, query }) => apps.listApps(ctx, actor, query),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/apps/:id',
    tags,
    access,
    summary: 'One app I may manage',
    params: idParams,
    response: appSchema,
    handler: async ({ actor, params }) => apps.toApp(await apps.manageableApp(ctx, actor, params.id)),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/apps',
    idempotent: true,
    tags,
    access,
    summary: 'Create an app (platform administrators)',
    body: appCreateBody,
    response: appSchema,
    handler: ({ actor, body, raw }) => apps.createApp(ctx, actor, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'PUT',
    url: '/apps/:id',
    tags,
    access,
    summary: 'Update an app I manage (409 when version is stale)',
    params: idParams,
    body: appUpdateBody,
    response: appSchema,
    handler: ({ actor, params, body, raw }) => apps.updateApp(ctx, actor, params.id, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'DELETE',
    url: '/apps/:id',
    tags,
    access,
    summary: 'Delete an app (platform administrators)',
    params: idParams,
    response: okAnswer,
    handler: ({ actor, params, raw }) => apps.deleteApp(ctx, actor, params.id, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/apps/:id/admins',
    tags,
    access,
    summary: "An app's administrators",
    params: idParams,
    response: v.array(memberUser),
    handler: ({ actor, params }) => apps.appAdmins(ctx, actor, params.id),
  });

  defineRoute(app, gate, {
    method: 'PUT',
    url: '/apps/:id/admins',
    tags,
    access,
    summary: "Set an app's administrators (platform administrators)",
    params: idParams,
    body: userIdsBody,
    response: v.array(memberUser),
    handler: ({ actor, params, body, raw }) => apps.setAppAdmins(ctx, actor, params.id, body.userIds, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/apps/:appId/member-lookup',
    tags,
    access,
    summary: 'A few enabled users whose username or real name contains the text (to pick role members or app administrators)',
    params: appParams,
    query: memberLookupQuery,
    response: v.array(memberUser),
    handler: ({ actor, params, query }) => apps.lookupMembers(ctx, actor, params.appId, query.searchValue),
  });

  // Privilege trees ---------------------------------------------------------------------------
  defineRoute(app, gate, {
    method: 'GET',
    url: '/apps/:appId/privileges',
    tags,
    access,
    summary: "An app's privilege tree (flat, by parentId and sort)",
    params: appParams,
    response: v.array(privilege),
    handler: ({ actor, params }) => privileges.listPrivileges(ctx, actor, params.appId),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/apps/:appId/privileges',
    idempotent: true,
    tags,
    access,
    summary: 'Add a privilege node',
    params: appParams,
    body: privilegeBody,
    response: privilege,
    handler: ({ actor, params, body, raw }) => privileges.createPrivilege(ctx, actor, params.appId, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'PUT',
    url: '/apps/:appId/privileges/:id',
    tags,
    access,
    summary: 'Change a privilege node',
    params: appItemParams,
    body: privilegeUpdateBody,
    response: privilege,
    handler: ({ actor, params, body, raw }) => privileges.updatePrivilege(ctx, actor, params.appId, params.id, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'DELETE',
    url: '/apps/:appId/privileges/:id',
    tags,
    access,
    summary: 'Remove a privilege node and its subtree',
    params: appItemParams,
    response: okAnswer,
    handler: ({ actor, params, raw }) => privileges.deletePrivilege(ctx, actor, params.appId, params.id, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'PUT',
    url: '/apps/:appId/privileges/order',
    tags,
    access,
    summary: 'Reorder the children of one privilege node (or the top level)',
    params: appParams,
    body: privilegeOrderBody,
    response: v.array(privilege),
    handler: ({ actor, params, body, raw }) => privileges.reorderPrivileges(ctx, actor, params.appId, body, raw.ip),
  });

  // Roles ---------------------------------------------------------------------------------------
  defineRoute(app, gate, {
    method: 'GET',
    url: '/apps/:appId/roles',
    tags,
    access,
    summary: "An app's roles, paged",
    params: appParams,
    query: roleListQuery,
    response: roleList,
    handler: ({ actor, params, query }) => roles.listRoles(ctx, actor, params.appId, query),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/apps/:appId/roles',
    idempotent: true,
    tags,
    access,
    summary: 'Create a role',
    params: appParams,
    body: roleCreateBody,
    response: role,
    handler: ({ actor, params, body, raw }) => roles.createRole(ctx, actor, params.appId, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'PUT',
    url: '/apps/:appId/roles/:id',
    tags,
    access,
    summary: 'Update a role (409 when version is stale)',
    params: appItemParams,
    body: roleUpdateBody,
    response: role,
    handler: ({ actor, params, body, raw }) => roles.updateRole(ctx, actor, params.appId, params.id, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'DELETE',
    url: '/apps/:appId/roles/:id',
    tags,
    access,
    summary: 'Delete a role',
    params: appItemParams,
    response: okAnswer,
    handler: ({ actor, params, raw }) => roles.deleteRole(ctx, actor, params.appId, params.id, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/apps/:appId/roles/:id/privileges',
    tags,
    access,
    summary: "A role's privilege ids",
    params: appItemParams,
    response: v.array(v.string()),
    handler: ({ actor, params }) => roles.rolePrivileges(ctx, actor, params.appId, params.id),
  });

  defineRoute(app, gate, {
    method: 'PUT',
    url: '/apps/:appId/roles/:id/privileges',
    tags,
    access,
    summary: "Set a role's privileges (of the same app)",
    params: appItemParams,
    body: privilegeIdsBody,
    response: v.array(v.string()),
    handler: ({ actor, params, body, raw }) => roles.setRolePrivileges(ctx, actor, params.appId, params.id, body.privilegeIds, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/apps/:appId/roles/:id/members',
    tags,
    access,
    summary: "A role's members",
    params: appItemParams,
    response: v.array(memberUser),
    handler: ({ actor, params }) => roles.roleMembers(ctx, actor, params.appId, params.id),
  });

  defineRoute(app, gate, {
    method: 'PUT',
    url: '/apps/:appId/roles/:id/members',
    tags,
    access,
    summary: "Set a role's members",
    params: appItemParams,
    body: userIdsBody,
    response: v.array(memberUser),
    handler: ({ actor, params, body, raw }) => roles.setRoleMembers(ctx, actor, params.appId, params.id, body.userIds, raw.ip),
  });
};
