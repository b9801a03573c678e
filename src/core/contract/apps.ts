// Calls of server/routes/apps.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration } from './declare';
import * as v from 'valibot';
import { idParams, okAnswer } from '../schemas/common';
import { memberLookupQuery, privilegeOrderBody } from '../schemas/admin';
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
} from '../schemas/resources';
import { privilege, privilegeBody, privilegeUpdateBody } from '../schemas/privileges';

/** GET /apps */
export const getApps = { method: 'GET', path: '/apps', query: appListQuery, response: appList } as const satisfies CallDeclaration;

/** GET /apps/:id */
export const getAppsById = { method: 'GET', path: '/apps/:id', params: idParams, response: appSchema } as const satisfies CallDeclaration;

/** POST /apps */
export const postApps = { method: 'POST', path: '/apps', body: appCreateBody, response: appSchema } as const satisfies CallDeclaration;

/** PUT /apps/:id */
export const putAppsById = { method: 'PUT', path: '/apps/:id', params: idParams, body: appUpdateBody, response: appSchema } as const satisfies CallDeclaration;

/** DELETE /apps/:id */
export const deleteAppsById = { method: 'DELETE', path: '/apps/:id', params: idParams, response: okAnswer } as const satisfies CallDeclaration;

/** GET /apps/:id/admins */
export const getAppsAdmins = { method: 'GET', path: '/apps/:id/admins', params: idParams, response: v.array(memberUser) } as const satisfies CallDeclaration;

/** PUT /apps/:id/admins */
export const putAppsAdmins = {
  method: 'PUT',
  path: '/apps/:id/admins',
  params: idParams,
  body: userIdsBody,
  response: v.array(memberUser),
} as const satisfies CallDeclaration;

/** GET /apps/:appId/member-lookup */
export const getAppsMemberLookup = {
  method: 'GET',
  path: '/apps/:appId/member-lookup',
  params: appParams,
  query: memberLookupQuery,
  response: v.array(memberUser),
} as const satisfies CallDeclaration;

/** GET /apps/:appId/privileges */
export const getAppsPrivileges = {
  method: 'GET',
  path: '/apps/:appId/privileges',
  params: appParams,
  response: v.array(privilege),
} as const satisfies CallDeclaration;

/** POST /apps/:appId/privileges */
export const postAppsPrivileges = {
  method: 'POST',
  path: '/apps/:appId/privileges',
  params: appParams,
  body: privilegeBody,
  response: privilege,
} as const satisfies CallDeclaration;

/** PUT /apps/:appId/privileges/:id */
export const putAppsPrivilegesById = {
  method: 'PUT',
  path: '/apps/:appId/privileges/:id',
  params: appItemParams,
  body: privilegeUpdateBody,
  response: privilege,
} as const satisfies CallDeclaration;

/** DELETE /apps/:appId/privileges/:id */
export const deleteAppsPrivilegesById = {
  method: 'DELETE',
  path: '/apps/:appId/privileges/:id',
  params: appItemParams,
  response: okAnswer,
} as const satisfies CallDeclaration;

/** PUT /apps/:appId/privileges/order */
export const putAppsPrivilegesOrder = {
  method: 'PUT',
  path: '/apps/:appId/privileges/order',
  params: appParams,
  body: privilegeOrderBody,
  response: v.array(privilege),
} as const satisfies CallDeclaration;

/** GET /apps/:appId/roles */
export const getAppsRoles = {
  method: 'GET',
  path: '/apps/:appId/roles',
  params: appParams,
  query: roleListQuery,
  response: roleList,
} as const satisfies CallDeclaration;

/** POST /apps/:appId/roles */
export const postAppsRoles = {
  method: 'POST',
  path: '/apps/:appId/roles',
  params: appParams,
  body: roleCreateBody,
  response: role,
} as const satisfies CallDeclaration;

/** PUT /apps/:appId/roles/:id */
export const putAppsRolesById = {
  method: 'PUT',
  path: '/apps/:appId/roles/:id',
  params: appItemParams,
  body: roleUpdateBody,
  response: role,
} as const satisfies CallDeclaration;

/** DELETE /apps/:appId/roles/:id */
export const deleteAppsRolesById = {
  method: 'DELETE',
  path: '/apps/:appId/roles/:id',
  params: appItemParams,
  response: okAnswer,
} as const satisfies CallDeclaration;

/** GET /apps/:appId/roles/:id/privileges */
export const getAppsRolesPrivileges = {
  method: 'GET',
  path: '/apps/:appId/roles/:id/privileges',
  params: appItemParams,
  response: v.array(v.string()),
} as const satisfies CallDeclaration;

/** PUT /apps/:appId/roles/:id/privileges */
export const putAppsRolesPrivileges = {
  method: 'PUT',
  path: '/apps/:appId/roles/:id/privileges',
  params: appItemParams,
  body: privilegeIdsBody,
  response: v.array(v.string()),
} as const satisfies CallDeclaration;

/** GET /apps/:appId/roles/:id/members */
export const getAppsRolesMembers = {
  method: 'GET',
  path: '/apps/:appId/roles/:id/members',
  params: appItemParams,
  response: v.array(memberUser),
} as const satisfies CallDeclaration;

/** PUT /apps/:appId/roles/:id/members */
export const putAppsRolesMembers = {
  method: 'PUT',
  path: '/apps/:appId/roles/:id/members',
  params: appItemParams,
  body: userIdsBody,
  response: v.array(memberUser),
} as const satisfies CallDeclaration;
