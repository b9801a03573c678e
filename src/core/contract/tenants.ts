// Calls of server/routes/tenants.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration } from './declare';
import * as v from 'valibot';
import { idParams, okAnswer } from '../schemas/common';
import { tenantMoveBody } from '../schemas/admin';
import { memberUser, tenant, tenantCreateBody, tenantList, tenantListQuery, tenantUpdateBody, userIdsBody } from '../schemas/resources';

/** GET /tenants */
export const getTenants = { method: 'GET', path: '/tenants', query: tenantListQuery, response: tenantList } as const satisfies CallDeclaration;

/** GET /tenants/tree */
export const getTenantsTree = { method: 'GET', path: '/tenants/tree', response: v.array(tenant) } as const satisfies CallDeclaration;

/** GET /tenants/:id */
export const getTenantsById = { method: 'GET', path: '/tenants/:id', params: idParams, response: tenant } as const satisfies CallDeclaration;

/** POST /tenants */
export const postTenants = { method: 'POST', path: '/tenants', body: tenantCreateBody, response: tenant } as const satisfies CallDeclaration;

/** PUT /tenants/:id */
export const putTenantsById = {
  method: 'PUT',
  path: '/tenants/:id',
  params: idParams,
  body: tenantUpdateBody,
  response: tenant,
} as const satisfies CallDeclaration;

/** DELETE /tenants/:id */
export const deleteTenantsById = { method: 'DELETE', path: '/tenants/:id', params: idParams, response: okAnswer } as const satisfies CallDeclaration;

/** PUT /tenants/:id/parent */
export const putTenantsParent = {
  method: 'PUT',
  path: '/tenants/:id/parent',
  params: idParams,
  body: tenantMoveBody,
  response: tenant,
} as const satisfies CallDeclaration;

/** GET /tenants/:id/admins */
export const getTenantsAdmins = {
  method: 'GET',
  path: '/tenants/:id/admins',
  params: idParams,
  response: v.array(memberUser),
} as const satisfies CallDeclaration;

/** PUT /tenants/:id/admins */
export const putTenantsAdmins = {
  method: 'PUT',
  path: '/tenants/:id/admins',
  params: idParams,
  body: userIdsBody,
  response: v.array(memberUser),
} as const satisfies CallDeclaration;
