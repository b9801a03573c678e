// Calls of server/routes/ldap.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration } from './declare';
import { idParams, okAnswer } from '../schemas/common';
import { ldapConnection, ldapConnectionAnswer, ldapConnectionBody, ldapSyncReport, ldapSyncReports, ldapTestAnswer } from '../schemas/ldap';

/** GET /tenants/:id/ldap */
export const getTenantsLdap = { method: 'GET', path: '/tenants/:id/ldap', params: idParams, response: ldapConnectionAnswer } as const satisfies CallDeclaration;

/** PUT /tenants/:id/ldap */
export const putTenantsLdap = {
  method: 'PUT',
  path: '/tenants/:id/ldap',
  params: idParams,
  body: ldapConnectionBody,
  response: ldapConnection,
} as const satisfies CallDeclaration;

/** DELETE /tenants/:id/ldap */
export const deleteTenantsLdap = { method: 'DELETE', path: '/tenants/:id/ldap', params: idParams, response: okAnswer } as const satisfies CallDeclaration;

/** POST /tenants/:id/ldap/test */
export const postTenantsLdapTest = {
  method: 'POST',
  path: '/tenants/:id/ldap/test',
  params: idParams,
  response: ldapTestAnswer,
} as const satisfies CallDeclaration;

/** POST /tenants/:id/ldap/sync */
export const postTenantsLdapSync = {
  method: 'POST',
  path: '/tenants/:id/ldap/sync',
  params: idParams,
  response: ldapSyncReport,
} as const satisfies CallDeclaration;

/** GET /tenants/:id/ldap/reports */
export const getTenantsLdapReports = {
  method: 'GET',
  path: '/tenants/:id/ldap/reports',
  params: idParams,
  response: ldapSyncReports,
} as const satisfies CallDeclaration;
