// docs/ldap.md is run: its preset tables are the presets of src/core/ldap-presets.ts, its Active
// Directory connection example is a valid save of that preset, and its OpenLDAP steps (the service
// account, its access rules and paging limit, a connection with the OpenLDAP preset over StartTLS)
// are carried out against a real slapd: Test connection passes, a sync creates the people, a person
// signs in with the directory password.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { LDAP_PRESET_SETTINGS } from '../../src/core/ldap-presets';
import { ldapConnectionBody, type LdapSyncReport, type LdapTestAnswer } from '../../src/core/schemas/ldap';
import { startServer, type Client, type TestServer } from './harness';
import { createTenant } from './scim-support';
import { personLdif, type Slapd } from './slapd';
import { docsBlock, openLdapSettings, saveConnection, startDirectory } from './ldap-support';

const DOCS = readFileSync(new URL('../../docs/ldap.md', import.meta.url), 'utf8');

/** The | Setting | Value | table under a heading: setting → value (code spans unwrapped, "(empty…)" → ''). */
function presetTable(heading: string): Record<string, string> {
  const section = DOCS.slice(DOCS.indexOf(`### ${heading}\n`));
  const rows = section.split('\n').filter((line) => /^\| \w+ \| /.test(line) && !line.startsWith('| Setting'));
  const table: Record<string, string> = {};
  for (const line of rows.slice(0, 10)) {
    const [, name, value] = /^\| (\w+) \| (.*) \|$/.exec(line)!;
    table[name!] = value!.startsWith('(empty') ? '' : value!.replace(/^`(.*)`$/, '$1');
  }
  return table;
}

const flatPreset = (preset: keyof typeof LDAP_PRESET_SETTINGS) => {
  const { userFilter, groupFilter, mapping } = LDAP_PRESET_SETTINGS[preset];
  return { userFilter, groupFilter, ...mapping };
};

test("the docs' preset tables are the presets in code", () => {
  assert.deepEqual(presetTable('Active Directory'), flatPreset('activeDirectory'));
  assert.deepEqual(presetTable('OpenLDAP'), flatPreset('openLdap'));
});

test("the docs' Active Directory connection is a valid save of the Active Directory preset", () => {
  const body = v.parse(ldapConnectionBody, JSON.parse(docsBlock('ad-connection')));
  const { userFilter, groupFilter, mapping } = body.settings;
  assert.deepEqual({ userFilter, groupFilter, ...mapping }, flatPreset('activeDirectory'));
});

let server: TestServer;
let slapd: Slapd;
let admin: Client;

before(async () => {
  const people = ['ada', 'grace'].map((uid) => personLdif({ uid, cn: uid, mail: `${uid}@example.org`, password: `${uid}-directory-pass` }));
  // startDirectory loads the docs' service account and access rules (test/server/ldap-support.ts).
  [server, slapd] = await Promise.all([startServer({ outboundAllow: ['127.0.0.1'] }), startDirectory({ ldif: people.join('\n\n') })]);
  admin = await server.admin();
});

after(async () => {
  await Promise.all([server?.stop(), slapd?.destroy()]);
});

test("the docs' OpenLDAP steps: Test connection passes, a sync creates the people, a person signs in", async () => {
  const tenantId = (await createTenant(admin, 'DocsTenant')).id;
  await saveConnection(admin, tenantId, openLdapSettings(slapd.url, slapd.caPem));
  const tested = await admin.post<LdapTestAnswer>(`/api/tenants/${tenantId}/ldap/test`);
  assert.equal(tested.body.data.ok, true, JSON.stringify(tested.body.data));
  const synced = await admin.post<LdapSyncReport>(`/api/tenants/${tenantId}/ldap/sync`);
  assert.equal(synced.body.data.outcome, 'success', JSON.stringify(synced.body.data));
  assert.equal(synced.body.data.summary.created, 2);
  const signedIn = await server.client().login('grace', 'grace-directory-pass', { directoryPassword: 'grace-directory-pass' });
  assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
  // The access rules of the docs keep passwords from the service account.
  assert.ok(!JSON.stringify(synced.body).includes('directory-pass'));
});
