// Directory synchronisation, attacked from outside: a directory speaks only for the people its
// tenant administrator could change (server/ldap/people.ts): once a person is given more (an app to
// administer) or leaves the tenant, neither their entry's changes nor its removal may touch them,
// including the roles mapped to directory groups. Synchronise now in a burst, and racing the
// scheduled tick, never runs twice at once; another tenant's administrator reaches neither the connection, its
// reports nor its sync; a group is mapped only to a role the caller may grant.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer } from './harness';
import { createTenant } from './scim-support';
import { GROUPS, groupLdif, personDn, personLdif, type Slapd } from './slapd';
import { openLdapSettings, saveConnection, startDirectory } from './ldap-support';
import type { LdapSettings, LdapSyncReport } from '../../src/core/schemas/ldap';
import { synchroniseDue } from '../../server/ldap/scheduler';
import { synchronise } from '../../server/ldap/sync';
import { ApiError } from '../../server/http/errors';

const STAFF = `cn=staff,${GROUPS}`;
const PEOPLE_UIDS = ['dana', 'eli', 'finn'];

let server: TestServer;
let slapd: Slapd;
let admin: Client;
let tenantId: string;
let appId: string;
let roleId: string;
let settings: LdapSettings;

before(async () => {
  [server, slapd] = await Promise.all([
    startServer({ outboundAllow: ['127.0.0.1'] }),
    startDirectory({
      ldif: [
        ...PEOPLE_UIDS.map((uid) => personLdif({ uid, cn: uid, mail: `${uid}@example.org`, password: `${uid}-pass` })),
        groupLdif('staff', PEOPLE_UIDS.map(personDn)),
      ].join('\n\n'),
    }),
  ]);
  admin = await server.admin();
  tenantId = (await createTenant(admin, 'Boundary_Tenant')).id;
  appId = (await admin.post<{ id: string }>('/api/apps', { name: 'Boundary_App' })).body.data.id;
  roleId = (await admin.post<{ id: string }>(`/api/apps/${appId}/roles`, { name: 'Staff' })).body.data.id;
  settings = openLdapSettings(slapd.url, slapd.caPem, { groupRoles: [{ groupDn: STAFF, roleId }], syncIntervalMinutes: 60 });
  await saveConnection(admin, tenantId, settings);
  const first = await admin.post<LdapSyncReport>(`/api/tenants/${tenantId}/ldap/sync`);
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.equal(first.body.data.summary.created, PEOPLE_UIDS.length);
});
after(async () => {
  await Promise.all([server?.stop(), slapd?.destroy()]);
});

const idOf = async (username: string) =>
  (await admin.get<{ list: { id: string; username: string }[] }>(`/api/user?searchProp=username&searchValue=${username}`)).body.data.list.find(
    (row) => row.username === username,
  )!.id;
const holders = async () =>
  (await admin.get<{ username: string }[]>(`/api/apps/${appId}/roles/${roleId}/members`)).body.data.map((member) => member.username).sort();
const reports = async () => (await admin.get<LdapSyncReport[]>(`/api/tenants/${tenantId}/ldap/reports`)).body.data;

test("a person given an app to administer keeps the directory group's role when their entry then leaves the directory", async () => {
  assert.ok((await holders()).includes('dana'));
  const otherApp = (await admin.post<{ id: string }>('/api/apps', { name: 'Dana_Admin_App' })).body.data.id;
  assert.equal((await admin.put(`/api/apps/${otherApp}/admins`, { userIds: [await idOf('dana')] })).status, 200);
  // The directory no longer speaks for dana; its owner deletes her entry.
  await slapd.modify(`dn: ${personDn('dana')}\nchangetype: delete\n\ndn: ${STAFF}\nchangetype: modify\ndelete: member\nmember: ${personDn('dana')}\n`);
  const report = await admin.post<LdapSyncReport>(`/api/tenants/${tenantId}/ldap/sync`);
  assert.equal(report.status, 200);
  assert.ok(
    report.body.data.summary.conflicts.some((conflict) => conflict.username === 'dana'),
    'dana is reported as no longer the directory’s',
  );
  assert.ok((await holders()).includes('dana'), 'the directory took back a role of a person it no longer speaks for');
});

test('holds: Synchronise now in a burst, racing the scheduled tick, never runs twice at once (the others answer 409)', async () => {
  const before = (await reports()).length;
  // The connection is due for its scheduled run.
  await server.app.ctx.db.updateTable('ldapConnections').set({ lastSyncAt: 0 }).where('tenantId', '=', tenantId).execute();
  const errors: unknown[] = [];
  const [manual] = await Promise.all([
    Promise.all(Array.from({ length: 4 }, () => admin.post(`/api/tenants/${tenantId}/ldap/sync`))),
    synchroniseDue(server.app.ctx, (error) => errors.push(error)),
  ]);
  const statuses = manual.map((answer) => answer.status).sort();
  assert.ok(
    statuses.every((status) => status === 200 || status === 409),
    statuses.join(),
  );
  assert.deepEqual(errors, []);
  // A request that arrives after another run ended may run again (a second click); what must never
  // happen is two runs at once: each run starts after the one before it ended.
  const all = await reports(); // newest first
  const runs = all.slice(0, all.length - before).reverse();
  assert.ok(runs.length >= 1 && runs.length <= statuses.filter((status) => status === 200).length + 1, `${runs.length} runs`);
  for (let index = 1; index < runs.length; index++) {
    assert.ok(
      runs[index]!.startedAt >= runs[index - 1]!.finishedAt,
      `two runs at once: ${JSON.stringify(runs.map(({ startedAt, finishedAt }) => [startedAt, finishedAt]))}`,
    );
  }
});

test('holds: a scheduled run that read the connection before a manual run finished does not run it again', async () => {
  await server.app.ctx.db.updateTable('ldapConnections').set({ lastSyncAt: 0 }).where('tenantId', '=', tenantId).execute();
  const readByTheTick = await server.app.ctx.db.selectFrom('ldapConnections').selectAll().where('tenantId', '=', tenantId).executeTakeFirstOrThrow();
  const before = (await reports()).length;
  assert.equal((await admin.post(`/api/tenants/${tenantId}/ldap/sync`)).status, 200);
  await assert.rejects(synchronise(server.app.ctx, readByTheTick, 'schedule', null), (error: unknown) => error instanceof ApiError && error.status === 409);
  assert.equal((await reports()).length - before, 1);
});

test("holds: another tenant's administrator reaches neither the connection, its reports, its sync nor its test (404)", async () => {
  const other = await createTenant(admin, 'Other_Boundary_Tenant');
  await admin.post('/api/user', { username: 'other-ldap-admin', realName: 'Other', password: transform('Secret123'), tenantId: other.id, isAdmin: true });
  const outsider = server.client();
  assert.equal((await outsider.login('other-ldap-admin', 'Secret123')).status, 200);
  for (const [method, path] of [
    ['GET', ''],
    ['GET', '/reports'],
    ['POST', '/sync'],
    ['POST', '/test'],
    ['DELETE', ''],
  ] as const) {
    const answer =
      method === 'GET'
        ? await outsider.get(`/api/tenants/${tenantId}/ldap${path}`)
        : await outsider.request(method, `/api/tenants/${tenantId}/ldap${path}`, method === 'POST' ? {} : undefined);
    assert.equal(answer.status, 404, `${method} ${path}: ${answer.status}`);
  }
  const put = await outsider.put(`/api/tenants/${tenantId}/ldap`, { name: 'x', enabled: true, settings, bindSecret: 'x' });
  assert.equal(put.status, 404);
});

test('holds: a tenant administrator cannot map a directory group to a role of an app they may not grant', async () => {
  await admin.post('/api/user', { username: 'boundary-ldap-admin', realName: 'Admin', password: transform('Secret123'), tenantId, isAdmin: true });
  const tenantAdmin = server.client();
  assert.equal((await tenantAdmin.login('boundary-ldap-admin', 'Secret123')).status, 200);
  const foreignApp = (await admin.post<{ id: string }>('/api/apps', { name: 'Foreign_Role_App' })).body.data.id;
  const foreignRole = (await admin.post<{ id: string }>(`/api/apps/${foreignApp}/roles`, { name: 'Owner' })).body.data.id;
  const answer = await tenantAdmin.put(`/api/tenants/${tenantId}/ldap`, {
    name: 'corp-directory',
    enabled: true,
    settings: { ...settings, groupRoles: [{ groupDn: STAFF, roleId: foreignRole }] },
    bindSecret: 'reader-secret-1',
  });
  assert.equal(answer.status, 403, JSON.stringify(answer.body));
});
