// The last enabled platform administrator stays under a race of bulk actions (two platform
// administrators disabling each other at once: server/services/last-platform-admin.ts), and under
// opposing single calls (disabling, deleting or demoting each other at once). A hostile
// test that failed on the code before the fix; it runs on PostgreSQL too (IAM_TEST_DB=postgres).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, startServer, transform, type Client, type TestServer } from './harness';
import { Status, UserType } from '../../src/core/enums';

const SECOND_PASSWORD = 'Second1234';

let server: TestServer;
let admin: Client;

before(async () => {
  server = await startServer();
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

const signIn = async (username: string, password: string) => {
  const client = server.client();
  const answer = await client.login(username, password);
  assert.equal(answer.body.data?.loginSuccess, true, `${username}: ${JSON.stringify(answer.body)}`);
  return client;
};

/** Enabled platform administrators, read straight from the database. */
const enabledPlatformAdmins = async () =>
  (
    await server.app.ctx.db
      .selectFrom('users')
      .select('username')
      .where('isAdmin', '=', 1)
      .where('isMaster', '=', 1)
      .where('userType', 'in', [UserType.Platform, UserType.System])
      .where('availabilityStatus', '=', 1)
      .execute()
  ).map((row) => row.username);

test('two platform administrators disabling each other at the same moment leave one of them enabled (the last platform administrator is kept under a race)', async () => {
  const root = (await admin.get<{ id: string; parentId: string | null }[]>('/api/tenants/tree')).body.data.find((row) => row.parentId === null)!;
  const second = await admin.post<{ id: string }>('/api/user', {
    username: 'platform-two',
    realName: 'Platform_Two',
    password: transform(SECOND_PASSWORD),
    tenantId: root.id,
    isAdmin: true,
    isMaster: true,
    extraProp: { intProperty1: UserType.Platform },
  });
  assert.equal(second.status, 200, JSON.stringify(second.body));
  const firstId = (await admin.get<{ user: { id: string } }>('/api/cas/session')).body.data.user.id;
  const secondId = second.body.data.id;
  const outcomes: string[] = [];
  for (let round = 0; round < 8; round += 1) {
    const [one, two] = [await signIn(ADMIN.username, ADMIN.password), await signIn('platform-two', SECOND_PASSWORD)];
    // Each administrator disables the other one; each check alone sees the other still enabled.
    const answers = await Promise.all([
      one.post<{ results: { ok: boolean }[] }>('/api/user/bulk', { action: 'disable', ids: [secondId] }),
      two.post<{ results: { ok: boolean }[] }>('/api/user/bulk', { action: 'disable', ids: [firstId] }),
    ]);
    const left = await enabledPlatformAdmins();
    outcomes.push(`${answers.map((answer) => `${answer.status}/${answer.body.data?.results?.[0]?.ok ?? '-'}`).join(' ')} → enabled: [${left.join(', ')}]`);
    // Put both back for the next round (and for the rest of the suite), whatever happened.
    await server.app.ctx.db.updateTable('users').set({ availabilityStatus: 1 }).where('id', 'in', [firstId, secondId]).execute();
  }
  assert.ok(
    outcomes.every((outcome) => !outcome.endsWith('enabled: []')),
    `a round ended with no enabled platform administrator (nobody can administer the platform any more):\n${outcomes.join('\n')}`,
  );
});

test('20 rounds of two platform administrators disabling, deleting or demoting each other at once leave one', async () => {
  // A new session: the race above may have disabled the first administrator, which ended its sessions.
  const first = await signIn(ADMIN.username, ADMIN.password);
  const platformUser = async (username: string) => {
    const created = await first.post<{ id: string }>('/api/user', {
      username,
      realName: 'Race_Admin',
      password: transform(SECOND_PASSWORD),
      isAdmin: true,
      isMaster: true,
      extraProp: { intProperty1: UserType.Platform },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return created.body.data.id;
  };
  const p = await platformUser('race-p');
  const q = await platformUser('race-q');
  const db = server.app.ctx.db;
  const saved = await db.selectFrom('users').selectAll().where('id', 'in', [p, q]).execute();
  // Only P and Q are enabled platform administrators from here on (the last test of this file): the others are disabled.
  await db.updateTable('users').set({ availabilityStatus: Status.Disabled }).where('isMaster', '=', 1).where('id', 'not in', [p, q]).execute();
  assert.deepEqual((await enabledPlatformAdmins()).sort(), ['race-p', 'race-q']);
  const moves = [
    (client: Client, other: string, version: number) => client.put(`/api/user/${other}`, { availabilityStatus: Status.Disabled, version }),
    (client: Client, other: string) => client.delete(`/api/user/${other}`),
    (client: Client, other: string, version: number) => client.put(`/api/user/${other}`, { isAdmin: false, version }),
    (client: Client, other: string) => client.post('/api/user/bulk', { action: 'disable', ids: [other] }),
  ];
  const failures: string[] = [];
  for (let round = 0; round < 20; round++) {
    // Both back as they were: enabled platform administrators, signed in.
    for (const row of saved) {
      const { id, ...fields } = row;
      const restored = await db.updateTable('users').set(fields).where('id', '=', id).executeTakeFirst();
      if (Number(restored.numUpdatedRows) === 0) await db.insertInto('users').values(row).execute();
    }
    const [clientP, clientQ] = await Promise.all([signIn('race-p', SECOND_PASSWORD), signIn('race-q', SECOND_PASSWORD)]);
    const move = moves[round % moves.length]!;
    const answers = await Promise.all([
      move(clientP, q, saved.find((row) => row.id === q)!.version),
      move(clientQ, p, saved.find((row) => row.id === p)!.version),
    ]);
    const left = (await enabledPlatformAdmins()).length;
    if (left < 1) failures.push(`round ${round}: no enabled platform administrator left (${answers.map((answer) => answer.status).join(', ')})`);
  }
  assert.deepEqual(failures, []);
});
