// A tenant's directory connection (LDAP or Active Directory, docs/ldap.md): read, save (the bind
// secret write-only: empty keeps the stored one), test, synchronise now, and its reports.
import * as calls from '../contract/ldap';
import type { LdapConnection, LdapSyncReport, LdapTestAnswer } from '../schemas/ldap';
import { call, type CallBody } from './call';

export type { LdapConnection, LdapSyncReport, LdapTestAnswer };

export type LdapConnectionBody = CallBody<typeof calls.putTenantsLdap>;

export function get(tenantId: string): Promise<LdapConnection | null> {
  return call(calls.getTenantsLdap, { params: { id: tenantId } });
}

/** Silent: the form shows field errors itself. */
export function save(tenantId: string, body: LdapConnectionBody): Promise<LdapConnection> {
  return call(calls.putTenantsLdap, { params: { id: tenantId }, body }, { silent: true });
}

/** Tests the stored connection; the answer names the step that failed. */
export function test(tenantId: string): Promise<LdapTestAnswer> {
  return call(calls.postTenantsLdapTest, { params: { id: tenantId } });
}

export function synchronise(tenantId: string): Promise<LdapSyncReport> {
  return call(calls.postTenantsLdapSync, { params: { id: tenantId } });
}

export function reports(tenantId: string): Promise<LdapSyncReport[]> {
  return call(calls.getTenantsLdapReports, { params: { id: tenantId } });
}
