// How far a tenant's directory is trusted, attacked from outside against a real OpenLDAP
// (test/server/slapd.ts): the directory vouches for a password, never for more. A person an
// administrator disabled here stays disabled whatever the directory says at sign-in; a person who is
// no longer of the connection's tenant (made platform administrator) is not signed in by that
// tenant's directory, whose owner can set any entry's password; the stored bind secret is not handed
// to a new address nobody typed it for; the failure count of a name cannot be sidestepped by a form
// of it that the directory matches as the same entry (fullwidth letters); a disabled directory
// account and a directory entry named like the platform administrator open nothing. A person of one
// tenant who types their e-mail in the username field does not hand their password to another
// tenant's directory. A tenant administrator cannot sign in as someone they may not act on (an app
// administrator) by pointing the connection at a directory of their own. Neither secret nor password
// reaches a log; and the directory's passwords do not expire here.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, createServer, type Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { ADMIN, startServer, transform, type Client, type TestServer } from './harness';
import { createTenant } from './scim-support';
import { personDn, personLdif, SUFFIX, type Slapd } from './slapd';
import { openLdapSettings, READER, saveConnection, startDirectory, directoryLoginPolicy } from './ldap-support';
import { LDAP_PRESET_SETTINGS } from '../../src/core/ldap-presets';
import type { LdapTestAnswer } from '../../src/core/schemas/ldap';
import { Status, UserType } from '../../src/core/enums';

let server: TestServer;
let slapd: Slapd;
let admin: Client;
let tenantId: string;
/** The OpenLDAP preset, also reading Active Directory's disabled bit (this slapd knows the attribute). */
const directorySettings = () =>
  openLdapSettings(slapd.url, slapd.caPem, { mapping: { ...LDAP_PRESET_SETTINGS.openLdap.mapping, accountControl: 'userAccountControl' } });

const PEOPLE = [
  { uid: 'kate', cn: 'Kate', mail: 'kate@example.org', password: 'kate-pass-1' },
  { uid: 'erin', cn: 'Erin', mail: 'erin@example.org', password: 'erin-pass-1' },
  { uid: 'bob', cn: 'Bob', mail: 'bob@example.org', password: 'bob-pass-1' },
  { uid: 'finn', cn: 'Finn', mail: 'finn@example.org', password: 'finn-pass-1' },
  { uid: 'dora', cn: 'Dora', mail: 'dora@example.org', password: 'dora-pass-1', ad: { userAccountControl: 514 } },
  // An entry named like the platform administrator, with a password the directory's owner chose.
  { uid: ADMIN.username, cn: 'Not the admin', mail: 'not-admin@example.org', password: 'directory-admin-pass' },
];

/** The server's log, everything it wrote. */
let log = '';

before(async () => {
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  [server, slapd] = await Promise.all([
    startServer({ outboundAllow: ['127.0.0.1'], logger: true, logStream }),
    startDirectory({ ldif: PEOPLE.map(personLdif).join('\n\n') }),
  ]);
  admin = await server.admin();
  tenantId = (await createTenant(admin, 'TrustedDirectoryTenant')).id;
  await saveConnection(admin, tenantId, directorySettings());
  await directoryLoginPolicy(admin);
});

after(async () => {
  await Promise.all([server?.stop(), slapd?.destroy()]);
});

const directoryLogin = (username: string, password: string, client = server.client()) => client.login(username, password, { directoryPassword: password });

type Row = { id: string; username: string; version: number; availabilityStatus: number; tenantId: string };
async function person(username: string): Promise<Row | undefined> {
  const found = await admin.get<{ list: Row[] }>(`/api/user?searchProp=username&searchValue=${encodeURIComponent(username)}`);
  return found.body.data.list.find((row) => row.username === username);
}

const setDirectoryPassword = (uid: string, password: string) =>
  slapd.modify(`dn: ${personDn(uid)}\nchangetype: modify\nreplace: userPassword\nuserPassword: ${password}\n`);

test('a person an administrator disabled here does not enable themselves again by signing in with the directory password', async () => {
  assert.equal((await directoryLogin('kate', 'kate-pass-1')).status, 200);
  const kate = (await person('kate'))!;
  const disabled = await admin.put(`/api/user/${kate.id}`, { availabilityStatus: Status.Disabled, version: kate.version });
  assert.equal(disabled.status, 200, JSON.stringify(disabled.body));
  const again = await directoryLogin('kate', 'kate-pass-1');
  assert.equal(again.status, 401, `a disabled person is refused: ${JSON.stringify(again.body)}`);
  assert.notEqual(again.body.data && (again.body.data as { loginSuccess?: boolean }).loginSuccess, true);
  assert.equal((await person('kate'))!.availabilityStatus, Status.Disabled, 'the sign-in left the administrator’s disable in place');
});

test("a person made platform administrator is no longer signed in by the tenant's directory (whose owner sets its passwords)", async () => {
  assert.equal((await directoryLogin('erin', 'erin-pass-1')).status, 200);
  const erin = (await person('erin'))!;
  const root = (await admin.get<{ id: string; parentId: string | null }[]>('/api/tenants/tree')).body.data.find((row) => row.parentId === null)!;
  const promoted = await admin.put(`/api/user/${erin.id}`, {
    tenantId: root.id,
    isAdmin: true,
    isMaster: true,
    extraProp: { intProperty1: UserType.Platform },
    version: erin.version,
  });
  assert.equal(promoted.status, 200, JSON.stringify(promoted.body));
  // The tenant's directory is the tenant's: its owner can give erin's entry any password.
  await setDirectoryPassword('erin', 'set-by-the-directory-owner');
  const client = server.client();
  const answer = await directoryLogin('erin', 'set-by-the-directory-owner', client);
  assert.equal(answer.status, 401, `the tenant's directory signed in a platform administrator: ${JSON.stringify(answer.body)}`);
  assert.equal((await client.get('/api/cas/session')).status, 401);
});

test('the stored bind secret is not sent to a new directory address unless it is typed again', async () => {
  let received = Buffer.alloc(0);
  const listener = createServer((socket: Socket) => {
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      socket.destroy();
    });
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as { port: number };
  try {
    // Someone who may change the connection but was never told its secret points it elsewhere.
    const moved = await admin.put(`/api/tenants/${tenantId}/ldap`, {
      name: 'corp-directory',
      enabled: true,
      settings: openLdapSettings(`ldap://127.0.0.1:${port}`, '', { startTls: false }),
      bindSecret: '',
    });
    assert.ok(moved.status === 200 || moved.status === 400, JSON.stringify(moved.body));
    const tested = await admin.post<LdapTestAnswer>(`/api/tenants/${tenantId}/ldap/test`);
    assert.equal(tested.status, 200, JSON.stringify(tested.body));
    assert.equal(received.includes(Buffer.from(READER.secret)), false, 'the stored bind secret was sent to the new address');
  } finally {
    listener.close();
    await saveConnection(admin, tenantId, directorySettings());
  }
});

test('the failure count of a directory name is not sidestepped by its fullwidth form, which the directory matches as the same entry', async () => {
  for (let attempt = 0; attempt < 2; attempt++) assert.equal((await directoryLogin('bob', 'not-bobs-password')).status, 401);
  assert.equal((await directoryLogin('bob', 'not-bobs-password')).status, 429, 'bob is locked');
  // ｂｏｂ (U+FF42 U+FF4F U+FF42) is another name here, but slapd's matching rule folds it to bob.
  const variant = await directoryLogin('ｂｏｂ', 'bob-pass-1');
  assert.notEqual(variant.status, 200, `a locked name signed in by its fullwidth form: ${JSON.stringify(variant.body)}`);
  assert.equal((await directoryLogin('bob', 'bob-pass-1')).status, 429, 'bob is still locked');
});

/** A TCP relay in front of slapd that keeps what clients send (a directory's owner sees its binds). */
async function recordingRelay(target: number) {
  let sent = Buffer.alloc(0);
  const relay = createServer((client: Socket) => {
    const upstream = connect(target, '127.0.0.1');
    client.on('data', (chunk: Buffer) => (sent = Buffer.concat([sent, chunk])));
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  return { port: (relay.address() as { port: number }).port, sent: () => sent, close: () => new Promise((resolve) => relay.close(resolve)) };
}

test("a person who types their e-mail as the username does not hand their password to another tenant's directory", async () => {
  const victimPassword = 'Victim-Pass-9';
  const home = (await createTenant(admin, 'VictimHomeTenant')).id;
  const created = await admin.post('/api/user', {
    username: 'victim-local',
    realName: 'Victim',
    email: 'victim@corp.example',
    password: transform(victimPassword),
    tenantId: home,
    availabilityStatus: Status.Enable,
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  // Another tenant's administrator runs that tenant's directory: it signs people in by e-mail and
  // holds an entry with this one.
  await slapd.modify(
    `dn: ${personDn('bait')}\nchangetype: add\nobjectClass: inetOrgPerson\nuid: bait\nmail: victim@corp.example\ncn: bait\nsn: bait\nuserPassword: bait-pass\n`,
  );
  const relay = await recordingRelay(slapd.port);
  const rogue = (await createTenant(admin, 'RogueDirectoryTenant')).id;
  await saveConnection(
    admin,
    rogue,
    openLdapSettings(`ldap://127.0.0.1:${relay.port}`, '', {
      startTls: false,
      mapping: { ...LDAP_PRESET_SETTINGS.openLdap.mapping, username: 'mail' },
    }),
    READER.secret,
    'rogue',
  );
  try {
    // The sign-in form sends the typed password for the directory whenever any tenant has one.
    const answer = await server.client().login('victim@corp.example', victimPassword, { directoryPassword: victimPassword });
    assert.equal(answer.status, 401, JSON.stringify(answer.body));
    assert.equal(relay.sent().includes(Buffer.from(victimPassword)), false, "the person's password was sent to another tenant's directory");
  } finally {
    assert.equal((await admin.delete(`/api/tenants/${rogue}/ldap`)).status, 200);
    await relay.close();
  }
});

test('holds: a directory account disabled by userAccountControl is not signed in, and its first attempt creates nobody', async () => {
  // The right password of a disabled account: refused with the reason (docs/ldap.md, Active
  // Directory account states), and nobody is created for it.
  const answer = await directoryLogin('dora', 'dora-pass-1');
  assert.equal(answer.status, 403, JSON.stringify(answer.body));
  assert.match(answer.body.message, /disabled/);
  assert.equal(await person('dora'), undefined);
});

test('holds: a directory entry named like the platform administrator opens neither account', async () => {
  const client = server.client();
  const answer = await directoryLogin(ADMIN.username, 'directory-admin-pass', client);
  assert.equal(answer.status, 401, JSON.stringify(answer.body));
  assert.equal((await client.get('/api/cas/session')).status, 401);
  const report = await admin.post<{ summary: { conflicts: { username: string; field: string }[] } }>(`/api/tenants/${tenantId}/ldap/sync`);
  assert.equal(report.status, 200, JSON.stringify(report.body));
  assert.ok(
    report.body.data.summary.conflicts.some((conflict) => conflict.username === ADMIN.username && conflict.field === 'username'),
    JSON.stringify(report.body.data.summary),
  );
  assert.equal((await server.client().login(ADMIN.username, ADMIN.password)).status, 200, 'the platform administrator still signs in');
});

test('holds: neither the bind secret nor a directory password is in the server log or the audit log', async () => {
  // A failed bind of the service account and of a person, and a failed test, are logged paths too.
  await saveConnection(admin, tenantId, directorySettings(), 'wrong-reader-secret-7');
  assert.equal((await admin.post<LdapTestAnswer>(`/api/tenants/${tenantId}/ldap/test`)).body.data.failedStep, 'bind');
  await saveConnection(admin, tenantId, directorySettings());
  assert.equal((await directoryLogin('kate', 'not-kates-password-5')).status, 401);
  const audit = JSON.stringify((await admin.get('/api/audit?size=200')).body);
  assert.match(log, /\/api\/authc\/login/, 'the log is read');
  assert.match(audit, /login\.failure/, 'the audit log is read');
  for (const secret of [READER.secret, 'wrong-reader-secret-7', 'not-kates-password-5', 'kate-pass-1', 'erin-pass-1', 'Victim-Pass-9']) {
    assert.equal(log.includes(secret), false, `${secret} is in the server log`);
    assert.equal(audit.includes(secret), false, `${secret} is in the audit log`);
  }
});

const BRANCH = `ou=branch,${SUFFIX}`;
/** gwen's entry in the branch (`added`: as an ldapmodify change). */
const gwenLdif = (password: string, added = false) =>
  [
    `dn: uid=gwen,${BRANCH}`,
    ...(added ? ['changetype: add'] : []),
    'objectClass: inetOrgPerson',
    'uid: gwen',
    'cn: Gwen',
    'sn: gwen',
    'mail: gwen@branch.example',
    `userPassword: ${password}`,
  ].join('\n');

test('a tenant administrator who does not run the directory cannot sign in as an app administrator linked to it, by pointing the connection at a directory of their own', async () => {
  // A branch tenant whose connection (set up by the platform administrator) links people by DN
  // (an empty externalId mapping, as docs/ldap.md allows); gwen is synchronised in.
  await slapd.modify(`dn: ${BRANCH}\nchangetype: add\nobjectClass: organizationalUnit\nou: branch\n`);
  await slapd.modify(`${gwenLdif('gwen-pass-1', true)}\n`);
  const branch = (await createTenant(admin, 'BranchTenant')).id;
  const byDn = (url: string, caPem: string) =>
    openLdapSettings(url, caPem, { baseDn: BRANCH, mapping: { ...LDAP_PRESET_SETTINGS.openLdap.mapping, externalId: '' } });
  await saveConnection(admin, branch, byDn(slapd.url, slapd.caPem), READER.secret, 'branch-directory');
  const synced = await admin.post<{ summary: { created: number } }>(`/api/tenants/${branch}/ldap/sync`);
  assert.equal(synced.body.data.summary.created, 1, JSON.stringify(synced.body));
  const gwen = (await person('gwen'))!;
  // The platform administrator makes gwen an app administrator: more than a tenant administrator may act on.
  const app = await admin.post<{ id: string }>('/api/apps', { name: 'Branch_Guarded_App' });
  assert.equal(app.status, 200, JSON.stringify(app.body));
  assert.equal((await admin.put(`/api/apps/${app.body.data.id}/admins`, { userIds: [gwen.id] })).status, 200);
  // The branch's administrator, a local person, runs a directory of their own with an entry of the same DN.
  const made = await admin.post('/api/user', { username: 'branch-boss', realName: 'Boss', password: transform('Boss1234!'), tenantId: branch, isAdmin: true });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  const boss = server.client();
  assert.equal((await boss.login('branch-boss', 'Boss1234!')).body.data?.loginSuccess, true);
  const own = await startDirectory({
    ldif: [`dn: ${BRANCH}\nobjectClass: organizationalUnit\nou: branch`, gwenLdif('chosen-by-the-branch-admin')].join('\n\n'),
  });
  try {
    const repointed = await boss.put(`/api/tenants/${branch}/ldap`, {
      name: 'branch-directory',
      enabled: true,
      settings: byDn(own.url, own.caPem),
      bindSecret: READER.secret,
    });
    assert.equal(repointed.status, 200, JSON.stringify(repointed.body));
    const client = server.client();
    const answer = await directoryLogin('gwen', 'chosen-by-the-branch-admin', client);
    assert.equal(answer.status, 401, `the tenant administrator signed in as the app administrator: ${JSON.stringify(answer.body)}`);
    assert.equal((await client.get('/api/cas/session')).status, 401);
  } finally {
    await admin.delete(`/api/tenants/${branch}/ldap`);
    await own.destroy();
  }
});

// Last: it moves the test clock two days on (every session here idles out).
test('a directory password does not expire here: past the local expiry a directory person still signs in', async () => {
  const current = await admin.get<{ value: { passwordPolicy: Record<string, unknown> }; version: number }>('/api/settings/login');
  const saved = await admin.put('/api/settings/login', {
    passwordPolicy: { ...current.body.data.value.passwordPolicy, expiryDays: 1 },
    version: current.body.data.version,
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  assert.equal((await directoryLogin('finn', 'finn-pass-1')).body.data?.loginSuccess, true);
  server.clock.advance(2 * 24 * 3_600_000);
  // The directory checks and expires its own passwords; here finn has none to change.
  const later = await directoryLogin('finn', 'finn-pass-1');
  assert.equal(later.status, 200, JSON.stringify(later.body));
  assert.equal(later.body.data.loginSuccess, true, `asked to change a local password the person does not have: ${JSON.stringify(later.body.data)}`);
});
