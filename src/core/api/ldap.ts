// A tenant's directory connection (LDAP or Active Directory, docs/ldap.md): read, save (the bind
// secret write-only: empty keeps the stored one), remove, test, synchronise now, and its reports.
import { request } from '../http';
import type { LdapConnection, LdapSettings, LdapSyncReport, LdapTestAnswer } from '../schemas/ldap';
import { apiPath } from './path';

export type { LdapConnection, LdapSettings, LdapSyncReport, LdapTestAnswer };

export interface LdapConnectionBody {
  name: string;
  enabled: boolean;
  settings: LdapSettings;
  bindSecret: string;
}

export function get(tenantId: string): Promise<LdapConnection | null> {
  return request<LdapConnection | null>('GET', apiPath`/tenants/${tenantId}/ldap`);
}

/** Silent: the form shows field errors itself. */
export function save(tenantId: string, body: LdapConnectionBody): Promise<LdapConnection> {
  return request<LdapConnection>('PUT', apiPath`/tenants/${tenantId}/ldap`, { body, silent: true });
}

export function remove(tenantId: string): Promise<void> {
  return request<void>('DELETE', apiPath`/tenants/${tenantId}/ldap`);
}

/** Tests the stored connection; the answer names the step that failed. */
export function test(tenantId: string): Promise<LdapTestAnswer> {
  return request<LdapTestAnswer>('POST', apiPath`/tenants/${tenantId}/ldap/test`);
}

export function synchronise(tenantId: string): Promise<LdapSyncReport> {
  return request<LdapSyncReport>('POST', apiPath`/tenants/${tenantId}/ldap/sync`);
}

export function reports(tenantId: string): Promise<LdapSyncReport[]> {
  return request<LdapSyncReport[]>('GET', apiPath`/tenants/${tenantId}/ldap/reports`);
}
