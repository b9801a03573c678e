// Shared by the directory tests: a slapd holding the read-only service account and its access rules
// as docs/ldap.md's OpenLDAP steps set them up, and a tenant's connection saved through the API.
import assert from 'node:assert/strict';
import { LDAP_PRESET_SETTINGS } from '../../src/core/ldap-presets';
import type { LdapConnection, LdapSettings } from '../../src/core/schemas/ldap';
import type { Client } from './harness';
import { PEOPLE, READER, startSlapd, SUFFIX, type SlapdOptions } from './slapd';

export const READER_LDIF = `dn: ${READER.dn}
objectClass: organizationalRole
objectClass: simpleSecurityObject
cn: iam-reader
userPassword: ${READER.secret}`;

/** The service account may page through every person; people bind as themselves; nobody reads passwords. */
export const READER_CONFIG = `limits dn.exact="${READER.dn}" size.soft=500 size.hard=500 size.prtotal=unlimited
access to attrs=userPassword by anonymous auth by * none
access to * by dn.exact="${READER.dn}" read by self read by * none`;

export const startDirectory = (options: SlapdOptions = {}) =>
  startSlapd({
    ldif: [READER_LDIF, options.ldif ?? ''].filter(Boolean).join('\n\n'),
    databaseConfig: [READER_CONFIG, options.databaseConfig ?? ''].join('\n'),
  });

export function openLdapSettings(url: string, caPem: string, overrides: Partial<LdapSettings> = {}): LdapSettings {
  return {
    url,
    startTls: true,
    caCertificate: caPem,
    bindDn: READER.dn,
    baseDn: SUFFIX,
    ...LDAP_PRESET_SETTINGS.openLdap,
    preset: 'openLdap',
    groupRoles: [],
    syncIntervalMinutes: 0,
    allowLocalPasswords: true,
    ...overrides,
  };
}

export async function saveConnection(admin: Client, tenantId: string, settings: LdapSettings, bindSecret = READER.secret, name = 'corp-directory') {
  const saved = await admin.put<LdapConnection>(`/api/tenants/${tenantId}/ldap`, { name, enabled: true, settings, bindSecret });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  return saved.body.data;
}

export { PEOPLE, READER, SUFFIX };
