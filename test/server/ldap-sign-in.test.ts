// Signing in with a directory's password, against a real OpenLDAP (test/server/slapd.ts) over
// StartTLS: the person is created at first sign-in in the connection's tenant; the password is
// checked by a bind and never stored; wrong passwords count toward the lockout; an empty password
// never binds (this slapd accepts unauthenticated binds, so it would "pass"); filter syntax in the
// username is escaped; an unreachable directory says so and locks nobody out, while local people
// still sign in. "Test connection" names the step that fails.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, startServer, transform, type Client, type TestServer } from './harness';
import { createTenant } from './scim-support';
import { personDn, personLdif, type Slapd } from './slapd';
import { openLdapSettings, READER, saveConnection, startDirectory, directoryLoginPolicy } from './ldap-support';
import type { LdapTestAnswer } from '../../src/core/schemas/ldap';

let server: TestServer;
let slapd: Slapd;
let admin: Client;
let tenantId: string;

const PEOPLE = [
  { uid: 'alice', cn: 'Alice Liddell', mail: 'alice@example.org', password: 'alice-pass-1' },
  { uid: 'bob', cn: 'Bob Builder', mail: 'bob@example.org', password: 'bob-pass-1' },
  { uid: 'carol', cn: 'Carol Danvers', mail: 'carol@example.org', password: 'carol-pass-1' },
  { uid: 'dave', cn: 'Dave', password: 'dave-pass-1' },
];

before(async () => {
  [server, slapd] = await Promise.all([startServer({ outboundAllow: ['127.0.0.1'] }), startDirectory({ ldif: PEOPLE.map(personLdif).join('\n\n') })]);
  admin = await server.admin();
  tenantId = (await createTenant(admin, 'DirectoryTenant')).id;
  await saveConnection(admin, tenantId, openLdapSettings(slapd.url, slapd.caPem));
  await directoryLoginPolicy(admin);
});

after(async () => {
  await Promise.all([server?.stop(), slapd?.destroy()]);
});

const directoryLogin = (username: string, password: string, headers?: Record<string, string>) =>
  server.client().login(username, password, { directoryPassword: password }, headers);

test('the public login settings tell the sign-in form to send the password for the directory', async () => {
  const answer = await server.client().get<{ directorySignIn: boolean }>('/api/settings/login/public');
  assert.equal(answer.body.data.directorySignIn, true);
});

test('a directory person signs in with the directory password and is created at first sign-in in the tenant', async () => {
  const signedIn = await directoryLogin('alice', 'alice-pass-1');
  assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
  assert.equal(signedIn.body.data.loginSuccess, true);
  const found = await admin.get<{ list: { username: string; realName: string; email: string; tenantId: string }[] }>(
    '/api/user?searchProp=username&searchValue=alice',
  );
  const alice = found.body.data.list.find((row) => row.username === 'alice');
  assert.ok(alice, 'alice was created');
  assert.equal(alice.realName, 'Alice Liddell');
  assert.equal(alice.email, 'alice@example.org');
  assert.equal(alice.tenantId, tenantId);
  // The directory's password is not a local one: without the directory's word it opens nothing.
  const withoutDirectory = await server.client().login('alice', 'alice-pass-1');
  assert.equal(withoutDirectory.status, 401);
  const audit = await admin.get<{ list: { actorName: string; action: string }[] }>('/api/audit?action=user.create&size=50');
  assert.ok(
    audit.body.data.list.some((row) => row.actorName === 'ldap:corp-directory'),
    `the creation is audited as the directory: ${JSON.stringify(audit.body.data.list.slice(0, 3))}`,
  );
});

test('wrong directory passwords count toward the lockout like local ones', async () => {
  for (let attempt = 0; attempt < 2; attempt++) assert.equal((await directoryLogin('bob', 'not-bobs-password')).status, 401);
  const third = await directoryLogin('bob', 'not-bobs-password');
  assert.equal(third.status, 429, JSON.stringify(third.body));
  const rightButLocked = await directoryLogin('bob', 'bob-pass-1');
  assert.equal(rightButLocked.status, 429, 'locked even with the right directory password');
});

test('an empty directory password never reaches a bind (an unauthenticated bind is no sign-in)', async () => {
  // carol is known to the directory and this slapd accepts unauthenticated binds (DN, no password).
  for (const extra of [{ directoryPassword: '' }, {}]) {
    const answer = await server.client().login('carol', '', extra);
    assert.equal(answer.status, 401, JSON.stringify(answer.body));
  }
  // carol is linked now? No: a refused first sign-in creates nobody.
  const found = await admin.get<{ pager: { total: number } }>('/api/user?searchProp=username&searchValue=carol');
  assert.equal(found.body.data.pager.total, 0);
  // dave signs in once (linked), then an empty password is refused for a linked person too.
  assert.equal((await directoryLogin('dave', 'dave-pass-1')).status, 200);
  const empty = await server.client().login('dave', 'whatever', { directoryPassword: '' });
  assert.equal(empty.status, 401);
});

test('filter syntax in the username is a value, not a filter (RFC 4515 escaping)', async () => {
  // Unescaped, "*" would match every person and ")(" would close the filter: alice's password would
  // then open someone else's account, or the search would find several entries.
  for (const username of ['*', 'al*', 'alice)(uid=*', '*)(|(uid=*', 'alice\\2a']) {
    const answer = await server.client().login(username, 'alice-pass-1', { directoryPassword: 'alice-pass-1' });
    assert.ok(answer.status === 401 || answer.status === 400, `${username}: ${answer.status} ${JSON.stringify(answer.body)}`);
    assert.notEqual(answer.body.data && (answer.body.data as { loginSuccess?: boolean }).loginSuccess, true);
  }
  const nul = await server.client().login('alice\u0000', 'alice-pass-1', { directoryPassword: 'alice-pass-1' });
  assert.equal(nul.status, 400, JSON.stringify(nul.body));
});

test('very long values are refused with a clear error, before any directory call', async () => {
  const longPassword = await server.client().login('alice', 'x', { directoryPassword: 'x'.repeat(5000) });
  assert.equal(longPassword.status, 400);
  assert.ok(JSON.stringify(longPassword.body).includes('directoryPassword'), JSON.stringify(longPassword.body));
  const longName = await directoryLogin('a'.repeat(5000), 'alice-pass-1');
  assert.equal(longName.status, 400);
});

test('an unreachable directory says so, locks nobody out, and local people still sign in', async () => {
  await slapd.stop();
  try {
    for (let attempt = 0; attempt < 4; attempt++) {
      const answer = await directoryLogin('alice', 'alice-pass-1');
      assert.equal(answer.status, 503, JSON.stringify(answer.body));
      assert.match(answer.body.message, /directory .* cannot be reached/);
    }
    const zh = await directoryLogin('alice', 'alice-pass-1', { 'accept-language': 'zh-CN' });
    assert.equal(zh.status, 503);
    assert.match(zh.body.message, /无法连接/);
    const local = await server.client().login(ADMIN.username, ADMIN.password);
    assert.equal(local.status, 200, 'the local administrator signs in while the directory is down');
    const test = await admin.post<LdapTestAnswer>(`/api/tenants/${tenantId}/ldap/test`);
    assert.equal(test.body.data.failedStep, 'connect');
  } finally {
    await slapd.start();
  }
  // Four refusals above would have locked alice (maxFailures 3) had they counted.
  const after = await directoryLogin('alice', 'alice-pass-1');
  assert.equal(after.status, 200, JSON.stringify(after.body));
});

test('Test connection passes every step, and names the step that fails', async () => {
  const ok = await admin.post<LdapTestAnswer>(`/api/tenants/${tenantId}/ldap/test`);
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  assert.deepEqual(ok.body.data.passed, ['connect', 'tls', 'bind', 'search']);
  assert.equal(ok.body.data.found, PEOPLE.length);

  const other = (await createTenant(admin, 'ProbeTenant')).id;
  const cases: [string, Parameters<typeof openLdapSettings>[2], string | undefined, string][] = [
    ['wrong bind secret', {}, 'not-the-secret', 'bind'],
    ['no CA for the certificate', { caCertificate: '' }, undefined, 'tls'],
    ['nothing listening', { url: 'ldap://127.0.0.1:1' }, undefined, 'connect'],
    ['a base DN that does not exist', { baseDn: 'dc=nowhere,dc=test' }, undefined, 'search'],
  ];
  for (const [what, overrides, secret, step] of cases) {
    await saveConnection(admin, other, openLdapSettings(slapd.url, slapd.caPem, overrides), secret ?? READER.secret, 'probe');
    const answer = await admin.post<LdapTestAnswer>(`/api/tenants/${other}/ldap/test`);
    assert.equal(answer.status, 200, what);
    assert.equal(answer.body.data.ok, false, what);
    assert.equal(answer.body.data.failedStep, step, `${what}: ${JSON.stringify(answer.body.data)}`);
  }
  assert.equal((await admin.delete(`/api/tenants/${other}/ldap`)).status, 200);
});

test("a directory that takes passwords only over TLS (Active Directory's default) says to use ldaps:// or StartTLS", async () => {
  // OpenLDAP's counterpart of Active Directory's refusal of a simple bind on a plain connection.
  const strict = await startDirectory({ databaseConfig: 'security simple_bind=64' });
  const other = (await createTenant(admin, 'StrictTenant')).id;
  try {
    await saveConnection(admin, other, openLdapSettings(strict.url, strict.caPem, { startTls: false }), READER.secret, 'strict');
    const plain = await admin.post<LdapTestAnswer>(`/api/tenants/${other}/ldap/test`);
    assert.equal(plain.status, 200);
    assert.equal(plain.body.data.failedStep, 'bind', JSON.stringify(plain.body.data));
    assert.match(plain.body.data.message, /only over an encrypted connection: use an ldaps:\/\/ URL or turn on StartTLS/);
    await saveConnection(admin, other, openLdapSettings(strict.url, strict.caPem), READER.secret, 'strict');
    const encrypted = await admin.post<LdapTestAnswer>(`/api/tenants/${other}/ldap/test`);
    assert.deepEqual(encrypted.body.data.passed, ['connect', 'tls', 'bind', 'search'], JSON.stringify(encrypted.body.data));
  } finally {
    await strict.destroy();
  }
});

test('the bind secret is never answered, and an empty one keeps the stored secret', async () => {
  const read = await admin.get<Record<string, unknown>>(`/api/tenants/${tenantId}/ldap`);
  assert.equal(read.status, 200);
  assert.equal(read.body.data.hasBindSecret, true);
  assert.ok(!JSON.stringify(read.body).includes(READER.secret));
  const settings = openLdapSettings(slapd.url, slapd.caPem);
  const kept = await admin.put(`/api/tenants/${tenantId}/ldap`, { name: 'corp-directory', enabled: true, settings, bindSecret: '' });
  assert.equal(kept.status, 200);
  assert.ok(!JSON.stringify(kept.body).includes(READER.secret));
  assert.equal((await admin.post<LdapTestAnswer>(`/api/tenants/${tenantId}/ldap/test`)).body.data.ok, true);
  const audit = await admin.get('/api/audit?size=100');
  assert.ok(!JSON.stringify(audit.body).includes(READER.secret), 'the secret is in no audit record');
});

test("a tenant that does not allow local passwords keeps its local people out, others' stay in", async () => {
  const created = await admin.post('/api/user', {
    username: 'local-member',
    realName: 'Local member',
    password: transform('Local123!'),
    tenantId,
    availabilityStatus: 1,
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  assert.equal((await server.client().login('local-member', 'Local123!')).status, 200);
  await saveConnection(admin, tenantId, openLdapSettings(slapd.url, slapd.caPem, { allowLocalPasswords: false }), '');
  assert.equal((await server.client().login('local-member', 'Local123!')).status, 401);
  assert.equal((await server.client().login(ADMIN.username, ADMIN.password)).status, 200, 'people of other tenants are not affected');
  await saveConnection(admin, tenantId, openLdapSettings(slapd.url, slapd.caPem), '');
});

test('a person whose entry is gone from the directory cannot sign in any more', async () => {
  assert.equal((await directoryLogin('dave', 'dave-pass-1')).status, 200);
  await slapd.modify(`dn: ${personDn('dave')}\nchangetype: delete\n`);
  assert.equal((await directoryLogin('dave', 'dave-pass-1')).status, 401);
});
