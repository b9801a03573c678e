// docs/ldap.md is run: its preset tables are the presets of src/core/ldap-presets.ts, its Active
// Directory connection example is a valid save of that preset, and its OpenLDAP steps (the service
// account, its access rules and paging limit, a connection with the OpenLDAP preset over StartTLS)
// are carried out against a real slapd: Test connection passes, a sync creates the people, a person
// signs in with the directory password. Its table of the names people may type is signed in with
// against an Active Directory-shaped entry, and its table of account states is the states, answers
// and synchronisation effects of server/ldap/account-state.ts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { LDAP_PRESET_SETTINGS } from '../../src/core/ldap-presets';
import { ldapConnectionBody, type LdapSyncReport, type LdapTestAnswer } from '../../src/core/schemas/ldap';
import { startServer, type Client, type TestServer } from './harness';
import { createTenant } from './scim-support';
import { personLdif, type Slapd } from './slapd';
import { AD_ACCOUNTS, docsBlock, openLdapSettings, saveConnection, startDirectory } from './ldap-support';
import { disablesHere, STATE_MESSAGES, type AccountState } from '../../server/ldap/account-state';

const DOCS = readFileSync(new URL('../../docs/ldap.md', import.meta.url), 'utf8');

/** The | Setting | Value | table under a heading: setting → value (code spans unwrapped, "(empty…)" → ''). */
function presetTable(heading: string): Record<string, string> {
  const section = DOCS.slice(DOCS.indexOf(`### ${heading}\n`));
  const rows = section.split('\n').filter((line) => /^\| \w+ \| /.test(line) && !line.startsWith('| Setting'));
  const table: Record<string, string> = {};
  for (const line of rows.slice(0, Object.keys(flatPreset('openLdap')).length)) {
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

/** The rows of the first table under a `## heading` whose first cell is a code span, as cells. */
function tableOf(heading: string): string[][] {
  const start = DOCS.indexOf(`## ${heading}\n`);
  const end = DOCS.indexOf('\n## ', start + 1);
  return DOCS.slice(start, end === -1 ? undefined : end)
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.slice(2, -2).split(' | '));
}
const unwrapped = (cell: string) => cell.replace(/^`(.*)`$/, '$1');

test("the docs' table of account states is the states honoured, their answers and what a synchronisation does", () => {
  const rows = tableOf('Active Directory account states');
  assert.deepEqual(rows.map(([state]) => unwrapped(state!)).sort(), Object.keys(STATE_MESSAGES).sort());
  for (const [state, , answer, sync] of rows) {
    const name = unwrapped(state!) as AccountState;
    assert.equal(answer, STATE_MESSAGES[name], name);
    assert.equal(sync, disablesHere(name) ? 'disabled here' : 'unchanged', name);
  }
});

const WINDOWS_OU = 'ou=windows,dc=example,dc=org';
const WINDOWS_PERSON = [
  `dn: cn=jdoe,${WINDOWS_OU}`,
  'objectClass: person',
  'objectClass: adAccount',
  'cn: jdoe',
  'sn: Doe',
  'sAMAccountName: jdoe',
  'userPrincipalName: jdoe@corp.example',
  'userAccountControl: 512',
  'userPassword: jdoe-directory-pass',
].join('\n');

let server: TestServer;
let slapd: Slapd;
let admin: Client;

before(async () => {
  const people = ['ada', 'grace'].map((uid) => personLdif({ uid, cn: uid, mail: `${uid}@example.org`, password: `${uid}-directory-pass` }));
  // The person of the docs' table of typed names: an Active Directory-shaped entry only (not an
  // inetOrgPerson, so the OpenLDAP steps' connection does not hold it).
  people.push(`dn: ${WINDOWS_OU}\nobjectClass: organizationalUnit\nou: windows`, WINDOWS_PERSON);
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

test("the docs' table of names people may type: each signs in as the one person", async () => {
  const tenantId = (await createTenant(admin, 'WindowsTenant')).id;
  await saveConnection(
    admin,
    tenantId,
    openLdapSettings(slapd.url, slapd.caPem, { ...AD_ACCOUNTS, baseDn: WINDOWS_OU, netbiosDomain: 'CORP', preset: 'activeDirectory' }),
    undefined,
    'windows-directory',
  );
  const typed = tableOf('Names people may type').map(([name]) => unwrapped(name!));
  assert.deepEqual(typed, ['jdoe', 'CORP\\jdoe', 'jdoe@corp.example']);
  for (const name of [...typed, ...typed.map((name) => ` ${name.toUpperCase()} `)]) {
    const signedIn = await server.client().login(name, 'jdoe-directory-pass', { directoryPassword: 'jdoe-directory-pass' });
    assert.equal(signedIn.status, 200, `${name}: ${JSON.stringify(signedIn.body)}`);
  }
  const found = await admin.get<{ list: { username: string; tenantId: string }[] }>('/api/user?searchProp=username&searchValue=jdoe');
  assert.deepEqual(
    found.body.data.list.map((row) => [row.username, row.tenantId]),
    [['jdoe', tenantId]],
  );
});
