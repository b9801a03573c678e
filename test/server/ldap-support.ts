// Shared by the directory tests: a slapd holding the read-only service account and its access rules
// as docs/ldap.md's OpenLDAP steps set them up (read from the docs), and a tenant's connection saved
// through the API by the platform administrator.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { LDAP_PRESET_SETTINGS } from '../../src/core/ldap-presets';
import type { LdapConnection, LdapSettings } from '../../src/core/schemas/ldap';
import type { Client } from './harness';
import { READER, startSlapd, SUFFIX, type SlapdOptions } from './slapd';

/** A fenced block of docs/ldap.md by its tag (```ldif openldap-reader): the tests run the docs' steps. */
export function docsBlock(tag: string): string {
  const match = new RegExp('```\\w+ ' + tag + '\\n([\\s\\S]*?)\\n```').exec(DOCS);
  if (!match) throw new Error(`docs/ldap.md has no block tagged ${tag}`);
  return match[1]!;
}
const DOCS = readFileSync(new URL('../../docs/ldap.md', import.meta.url), 'utf8');

/** The test directory's Active Directory-shaped people (objectClass adAccount: sAMAccountName,
 *  userPrincipalName, memberOf, userAccountControl, accountExpires, pwdLastSet) as a connection
 *  reads them. */
export const AD_ACCOUNTS = {
  userFilter: '(objectClass=adAccount)',
  mapping: {
    username: 'sAMAccountName',
    principalName: 'userPrincipalName',
    realName: 'cn',
    email: 'mail',
    mobilePhone: 'mobile',
    externalId: 'entryUUID',
    memberOf: 'memberOf',
    accountControl: 'userAccountControl',
    groupMember: 'member',
  },
} satisfies Partial<LdapSettings>;

/** The read-only service account, and its access and paging limits, as docs/ldap.md sets them up. */
const READER_LDIF = docsBlock('openldap-reader');
const READER_CONFIG = docsBlock('openldap-access');

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
    netbiosDomain: '',
    ...LDAP_PRESET_SETTINGS.openLdap,
    preset: 'openLdap',
    groupRoles: [],
    syncIntervalMinutes: 0,
    allowLocalPasswords: true,
    ...overrides,
  };
}

/** Saved by the platform administrator `admin`, asked at first sign-ins. */
export async function saveConnection(admin: Client, tenantId: string, settings: LdapSettings, bindSecret = READER.secret, name = 'corp-directory') {
  const saved = await admin.put<LdapConnection>(`/api/tenants/${tenantId}/ldap`, { name, enabled: true, firstSignIn: true, settings, bindSecret });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  return saved.body.data;
}

/** The login policy the directory sign-in files test under: a lockout after 3 wrong passwords, no
 *  captcha in the way, and the international field rules (directory names with spaces, UPNs). */
export async function directoryLoginPolicy(admin: Client): Promise<void> {
  const settings = await admin.get<{ version: number }>('/api/settings/login');
  const saved = await admin.put('/api/settings/login', {
    version: settings.body.data.version,
    maxFailures: 3,
    captchaAfterFailures: 0,
    fieldRules: 'international',
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
}

export { READER };

/** A TCP relay in front of a directory that keeps what clients send (the directory's owner sees its binds). */
export async function recordingRelay(target: number) {
  let sent = Buffer.alloc(0);
  const sockets = new Set<Socket>();
  const relay = createServer((client: Socket) => {
    const upstream = connect(target, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.on('data', (chunk: Buffer) => (sent = Buffer.concat([sent, chunk])));
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  return {
    port: (relay.address() as AddressInfo).port,
    sent: () => sent,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}
