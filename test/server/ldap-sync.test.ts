// Synchronising a tenant with a real OpenLDAP (test/server/slapd.ts) of 5,000 people, read in pages
// (this slapd refuses an unpaged search of more than 500): people created, changed, disabled by
// Active Directory's userAccountControl bit 2 and by leaving the directory (through the one disable
// path: the person's session ends); a group change between two syncs moves a mapped role;
// conflicts with people who are not the directory's are reported and left alone; a directory that
// drops the connection mid-read, or refuses the bind secret, fails the sync and changes nothing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { createHash } from 'node:crypto';
import { lastAuditId, startServer, transform, type Client, type TestServer } from './harness';
import { createTenant } from './scim-support';
import { GROUPS, groupLdif, personDn, personLdif, type Slapd } from './slapd';
import { AD_ACCOUNTS, openLdapSettings, READER, saveConnection, startDirectory } from './ldap-support';
import type { LdapSettings, LdapSyncReport, LdapTestAnswer } from '../../src/core/schemas/ldap';
import { Status } from '../../src/core/enums';
import { synchroniseDue } from '../../server/ldap/scheduler';

const COUNT = 5000;
const uid = (n: number) => `p${String(n).padStart(4, '0')}`;
const STAFF = `cn=staff,${GROUPS}`;

let server: TestServer;
let slapd: Slapd;
let admin: Client;
let tenantId: string;
let roleId: string;
let settings: LdapSettings;

function directoryLdif(): string {
  const people = Array.from({ length: COUNT }, (_, n) =>
    personLdif({
      uid: uid(n),
      cn: `Person ${n}`,
      mail: `${uid(n)}@example.org`,
      password: `${uid(n)}-pass`,
      ad: { userAccountControl: n === 3 ? 514 : 512 },
    }),
  );
  return [...people, groupLdif('staff', [personDn(uid(1)), personDn(uid(2))])].join('\n\n');
}

async function sync(): Promise<LdapSyncReport> {
  const answer = await admin.post<LdapSyncReport>(`/api/tenants/${tenantId}/ldap/sync`);
  assert.equal(answer.status, 200, JSON.stringify(answer.body).slice(0, 500));
  return answer.body.data;
}

type Row = { id: string; username: string; realName: string; availabilityStatus: number };
async function person(username: string): Promise<Row | undefined> {
  const found = await admin.get<{ list: Row[] }>(`/api/user?searchProp=username&searchValue=${username}`);
  return found.body.data.list.find((row) => row.username === username);
}

/** Every person of the tenant with their state and name (what a failed sync must not change). */
const tenantPeople = async () =>
  JSON.stringify(
    await server.app.ctx.db
      .selectFrom('users')
      .select(['id', 'realName', 'availabilityStatus', 'version'])
      .where('tenantId', '=', tenantId)
      .orderBy('id')
      .execute(),
  );

const roleHolders = async () => {
  const members = await admin.get<{ username: string }[]>(`/api/apps/${appId}/roles/${roleId}/members`);
  return members.body.data.map((member) => member.username).sort();
};
let appId: string;

before(async () => {
  const loaded = Date.now();
  [server, slapd] = await Promise.all([startServer({ outboundAllow: ['127.0.0.1'] }), startDirectory({ ldif: directoryLdif() })]);
  console.log(`slapd with ${COUNT} people and the server started in ${Date.now() - loaded} ms`);
  admin = await server.admin();
  // Directory names hold spaces ("Person 12"): the international field rules take them.
  const login = await admin.get<{ version: number }>('/api/settings/login');
  assert.equal((await admin.put('/api/settings/login', { version: login.body.data.version, fieldRules: 'international' })).status, 200);
  tenantId = (await createTenant(admin, 'SyncTenant')).id;
  appId = (await admin.post<{ id: string }>('/api/apps', { name: 'Directory_App' })).body.data.id;
  roleId = (await admin.post<{ id: string }>(`/api/apps/${appId}/roles`, { name: 'Staff' })).body.data.id;
  settings = openLdapSettings(slapd.url, slapd.caPem, {
    ...AD_ACCOUNTS,
    groupRoles: [{ groupDn: STAFF, roleId }],
  });
  await saveConnection(admin, tenantId, settings);
  // People here who are not the directory's: same username, same e-mail.
  for (const [username, email] of [
    [uid(7), 'someone@example.com'],
    ['local-eight', `${uid(8)}@example.org`],
  ] as const) {
    const created = await admin.post('/api/user', { username, realName: 'Local', email, password: transform('Local123!'), tenantId, availabilityStatus: 1 });
    assert.equal(created.status, 200, JSON.stringify(created.body));
  }
});

after(async () => {
  await Promise.all([server?.stop(), slapd?.destroy()]);
});

test('the first sync creates 5,000 people read in pages, reports the conflicts and leaves those people alone', async () => {
  const started = Date.now();
  const report = await sync();
  console.log(`first sync of ${COUNT} people: ${Date.now() - started} ms`);
  assert.equal(report.outcome, 'success', JSON.stringify(report.summary.error));
  assert.equal(report.summary.seen, COUNT);
  assert.equal(report.summary.created, COUNT - 2);
  assert.deepEqual(report.summary.conflicts.map((conflict) => [conflict.username, conflict.field]).sort(), [
    [uid(7), 'username'],
    [uid(8), 'email'],
  ]);
  const local = await person(uid(7));
  assert.equal(local?.realName, 'Local', 'the local person of the same username is untouched');
  assert.equal((await person(uid(3)))?.availabilityStatus, Status.Disabled, 'userAccountControl bit 2: created disabled');
  assert.equal((await person(uid(4)))?.availabilityStatus, Status.Enable);
  assert.deepEqual(await roleHolders(), [uid(1), uid(2)]);
  const reports = await admin.get<LdapSyncReport[]>(`/api/tenants/${tenantId}/ldap/reports`);
  assert.equal(reports.body.data[0]?.id, report.id);
});

test('changes between two syncs: a name, a disabled account (its session ends), a removed entry, a group change', async () => {
  const session = server.client();
  const signedIn = await session.login(uid(5), `${uid(5)}-pass`, { directoryPassword: `${uid(5)}-pass` });
  assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
  assert.equal((await session.get('/api/cas/session')).status, 200);

  await slapd.modify(`dn: ${personDn(uid(6))}
changetype: modify
replace: cn
cn: Renamed Six

dn: ${personDn(uid(5))}
changetype: modify
replace: userAccountControl
userAccountControl: 514

dn: ${personDn(uid(9))}
changetype: delete

dn: ${STAFF}
changetype: modify
delete: member
member: ${personDn(uid(1))}
-
add: member
member: ${personDn(uid(4))}
`);
  const since = await lastAuditId(server);
  const report = await sync();
  assert.equal(report.outcome, 'success');
  assert.equal(report.summary.seen, COUNT - 1);
  assert.equal(report.summary.created, 0);
  assert.equal(report.summary.updated, 1);
  assert.equal(report.summary.disabled, 2);
  assert.equal(report.summary.roleChanges, 2);
  assert.equal(report.summary.conflicts.length, 2, 'the conflicts are reported again, still left alone');
  assert.equal((await person(uid(6)))?.realName, 'Renamed Six');
  assert.equal((await person(uid(5)))?.availabilityStatus, Status.Disabled);
  assert.equal((await person(uid(9)))?.availabilityStatus, Status.Disabled, 'gone from the directory: disabled, not deleted');
  assert.equal((await session.get('/api/cas/session')).status, 401, "the disabled person's session ended");
  assert.deepEqual(await roleHolders(), [uid(2), uid(4)]);
  // Each person's role change names the role, not only its id.
  const staff = [{ id: roleId, name: 'Staff' }];
  assert.deepEqual(
    (await recordsSince(since, 'user.update')).filter((row) => row.detail.from === 'directory groups').map((row) => row.detail.roles),
    [
      { added: [], removed: staff },
      { added: staff, removed: [] },
    ],
  );
  const audit = await admin.get<{ list: { actorName: string }[] }>(`/api/audit?actor=ldap:&size=100`);
  assert.ok(audit.body.data.list.length > 0 && audit.body.data.list.every((row) => row.actorName === 'ldap:corp-directory'));
  assert.deepEqual(await runRecords(since), [
    {
      actorName: 'admin',
      targetName: 'corp-directory',
      tenantId,
      success: 1,
      detail: { report: report.id, seen: COUNT - 1, created: 0, updated: 1, disabled: 2, roleChanges: 2, conflicts: 2 },
    },
  ]);
});

test('a renamed entry renames its person (a name someone here has is a conflict, never a merge); a cycle of groups in groups ends; Test connection names a mapped group the directory lacks', async () => {
  await slapd.modify(`dn: ${personDn(uid(10))}
changetype: modify
replace: sAMAccountName
sAMAccountName: p0010-renamed

dn: ${personDn(uid(11))}
changetype: modify
replace: sAMAccountName
sAMAccountName: local-eight

dn: cn=loop,${GROUPS}
changetype: add
objectClass: groupOfNames
cn: loop
member: ${STAFF}
member: ${personDn(uid(12))}

dn: ${STAFF}
changetype: modify
add: member
member: cn=loop,${GROUPS}
`);
  const renamed = (await person(uid(10)))!;
  const since = await lastAuditId(server);
  const report = await sync();
  assert.equal(report.outcome, 'success', JSON.stringify(report.summary.error));
  assert.deepEqual(report.summary.conflicts.map((conflict) => [conflict.username, conflict.field]).sort(), [
    ['local-eight', 'username'],
    [uid(7), 'username'],
    [uid(8), 'email'],
  ]);
  assert.equal((await person('p0010-renamed'))?.id, renamed.id, 'the same person, under the new name');
  assert.ok(await person(uid(11)), 'the clash leaves the person under their old name');
  assert.equal((await person('local-eight'))?.realName, 'Local', 'and the local person alone');
  const records = await server.app.ctx.db.selectFrom('auditLog').selectAll().where('id', '>', since).where('targetId', '=', renamed.id).execute();
  assert.deepEqual(
    records.map((row) => [row.action, row.actorName, JSON.parse(row.detail).changes]),
    [['user.update', 'ldap:corp-directory', { username: { from: uid(10), to: 'p0010-renamed' } }]],
  );
  assert.deepEqual(await roleHolders(), [uid(2), uid(4), uid(12)], 'p0012 is in loop, a member of staff (and staff of loop)');

  const typed = `CN=Staff, OU=Groups, DC=example, DC=org`;
  const missing = `cn=no-such-group,${GROUPS}`;
  await saveConnection(admin, tenantId, {
    ...settings,
    groupRoles: [
      { groupDn: typed, roleId },
      { groupDn: missing, roleId },
    ],
  });
  try {
    const tested = await admin.post<LdapTestAnswer>(`/api/tenants/${tenantId}/ldap/test`);
    assert.equal(tested.status, 200, JSON.stringify(tested.body));
    assert.deepEqual(tested.body.data.unknownGroups, [missing], 'the group typed with spaces and capitals is known; the missing one is named');
  } finally {
    await saveConnection(admin, tenantId, settings);
  }
});

/** The records of `action` since the audit id `since`. */
const recordsSince = async (since: number, action: string) =>
  (
    await server.app.ctx.db
      .selectFrom('auditLog')
      .select(['actorName', 'targetName', 'tenantId', 'success', 'detail'])
      .where('id', '>', since)
      .where('action', '=', action)
      .orderBy('id')
      .execute()
  ).map((row) => ({ ...row, detail: JSON.parse(row.detail) as Record<string, unknown> }));

/** The records of "Synchronise now" runs since the audit id `since`. */
const runRecords = (since: number) => recordsSince(since, 'ldap.sync');

/** A TCP relay to slapd that drops both sides once `limit` bytes came back: the directory
 *  "stopping" in the middle of the paged search. */
async function cuttingRelay(limit: number): Promise<{ server: Server; port: number }> {
  const sockets = new Set<Socket>();
  const relay = createServer((client) => {
    const upstream = connect(slapd.port, '127.0.0.1');
    sockets.add(client).add(upstream);
    let received = 0;
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) {
        client.destroy();
        upstream.destroy();
      } else client.write(chunk);
    });
    for (const socket of [client, upstream]) socket.on('error', () => undefined).on('close', () => (client.destroy(), upstream.destroy()));
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  return { server: relay, port: (relay.address() as { port: number }).port };
}

test('a directory that stops mid-sync fails the sync and changes nothing', async () => {
  const before = await tenantPeople();
  const relay = await cuttingRelay(60_000);
  try {
    // Without StartTLS: ldapts notices a dropped TLS connection only at its operation timeout (15 s).
    await saveConnection(admin, tenantId, { ...settings, url: `ldap://127.0.0.1:${relay.port}`, startTls: false });
    const report = await sync();
    assert.equal(report.outcome, 'failure');
    assert.equal(report.summary.error?.step, 'search', JSON.stringify(report.summary.error));
    assert.deepEqual([report.summary.created, report.summary.updated, report.summary.disabled], [0, 0, 0]);
  } finally {
    relay.server.close();
    await saveConnection(admin, tenantId, settings);
  }
  assert.equal(await tenantPeople(), before, 'nobody was changed or disabled by a partial read');
});

test('a wrong bind secret fails the sync at the bind step and changes nothing', async () => {
  const before = await tenantPeople();
  await saveConnection(admin, tenantId, settings, 'not-the-secret');
  const since = await lastAuditId(server);
  const report = await sync();
  assert.equal(report.outcome, 'failure');
  assert.equal(report.summary.error?.step, 'bind');
  const [record] = await runRecords(since);
  assert.deepEqual([record?.actorName, record?.success, (record?.detail as { error?: { step: string } }).error?.step], ['admin', 0, 'bind']);
  assert.equal(await tenantPeople(), before);
  await saveConnection(admin, tenantId, settings, 'reader-secret-1');
});

test('the scheduled tick synchronises a connection once its interval has passed, not before', async () => {
  await saveConnection(admin, tenantId, { ...settings, syncIntervalMinutes: 60 }, 'reader-secret-1');
  const triggers = async () =>
    (await server.app.ctx.db.selectFrom('ldapSyncReports').select('trigger').orderBy('startedAt', 'desc').execute()).map((row) => row.trigger);
  const logged: unknown[] = [];
  const reportsBefore = (await triggers()).length;
  const since = await lastAuditId(server);
  // The last sync (above) ran a moment ago: not due yet.
  await synchroniseDue(server.app.ctx, (error) => logged.push(error));
  assert.equal((await triggers()).length, reportsBefore, 'not due within its interval');
  server.clock.advance(61 * 60_000);
  await synchroniseDue(server.app.ctx, (error) => logged.push(error));
  const after = await triggers();
  assert.equal(after.length, reportsBefore + 1);
  assert.equal(after[0], 'schedule');
  assert.deepEqual(logged, []);
  assert.deepEqual(await runRecords(since), [], 'a scheduled run is nobody\'s "Synchronise now"');
});

test('a connection save records the settings it changed, old → new: the bind secret only as changed, and only when it did; the CA by its digest', async () => {
  // The clock moved past the session's life above: a fresh sign-in.
  const saver = await server.admin();
  await saveConnection(saver, tenantId, settings, READER.secret);
  const since = await lastAuditId(server);
  await saveConnection(saver, tenantId, settings, READER.secret);
  await saveConnection(saver, tenantId, { ...settings, syncIntervalMinutes: 30, caCertificate: '' }, 'another-secret-7');
  await saveConnection(saver, tenantId, settings, READER.secret);
  await saveConnection(saver, tenantId, { ...settings, groupRoles: [] }, READER.secret);
  await saveConnection(saver, tenantId, settings, READER.secret);
  const records = await server.app.ctx.db
    .selectFrom('auditLog')
    .select(['targetName', 'detail'])
    .where('id', '>', since)
    .where('targetType', '=', 'ldap_connection')
    .orderBy('id')
    .execute();
  const ca = `sha256:${createHash('sha256').update(settings.caCertificate).digest('hex')}`;
  const masked = { from: '••••••', to: '••••••' };
  const staffMapping = [{ groupDn: STAFF, roleId, role: 'Staff' }];
  assert.deepEqual(
    records.map((record) => ({ ...record, detail: JSON.parse(record.detail) as unknown })),
    [
      { targetName: 'corp-directory', detail: { fields: [], changes: {} } },
      {
        targetName: 'corp-directory',
        detail: {
          fields: ['settings.caCertificate', 'settings.syncIntervalMinutes', 'bindSecret'],
          changes: { 'settings.caCertificate': { from: ca, to: null }, 'settings.syncIntervalMinutes': { from: 0, to: 30 }, bindSecret: masked },
        },
      },
      {
        targetName: 'corp-directory',
        detail: {
          fields: ['settings.caCertificate', 'settings.syncIntervalMinutes', 'bindSecret'],
          changes: { 'settings.caCertificate': { from: null, to: ca }, 'settings.syncIntervalMinutes': { from: 30, to: 0 }, bindSecret: masked },
        },
      },
      // A group's role is named, not only its id.
      { targetName: 'corp-directory', detail: { fields: ['settings.groupRoles'], changes: { 'settings.groupRoles': { from: staffMapping, to: [] } } } },
      { targetName: 'corp-directory', detail: { fields: ['settings.groupRoles'], changes: { 'settings.groupRoles': { from: [], to: staffMapping } } } },
    ],
  );
});
