// Bulk actions of the user list against a hostile caller: a tenant administrator sends a mixed
// list (their own member, a person of another tenant, the platform administrator, themselves, an
// unknown id, a duplicate) — each user is judged alone: in-scope ones are changed and audited,
// everyone else is refused with their own status and left exactly as they were, also in a burst.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type Client, type TestServer } from './harness';
import { PROBE_PASSWORD, seedTwoSides, snapshotOf, type TwoSides } from './security-support';

interface Result {
  id: string;
  ok: boolean;
  status: number;
  message: string;
}

let server: TestServer;
let admin: Client;
let sides: TwoSides;
let tenantAdminA: Client;
const ids = { admin: '', tenantAdminA: '', memberA: '', appAdminX: '' };

const signedIn = async (username: string) => {
  const client = server.client();
  assert.equal((await client.login(username, PROBE_PASSWORD)).body.data?.loginSuccess, true, username);
  return client;
};
const idOf = async (username: string) =>
  (await admin.get<{ list: { id: string }[] }>(`/api/user?searchProp=username&searchValue=${username}`)).body.data.list[0]!.id;
const statusOf = async (id: string) => (await admin.get<{ availabilityStatus: number }>(`/api/user/${id}`)).body.data.availabilityStatus;
const bulk = (client: Client, action: string, userIds: string[], headers?: Record<string, string>) =>
  client.post<{ results: Result[] }>('/api/user/bulk', { action, ids: userIds }, headers);

before(async () => {
  server = await startServer();
  admin = await server.admin();
  sides = await seedTwoSides(server, admin);
  tenantAdminA = await signedIn('side-a-admin');
  ids.admin = await idOf('admin');
  ids.tenantAdminA = await idOf('side-a-admin');
  ids.memberA = await idOf('side-a-member');
  ids.appAdminX = await idOf('side-x-admin');
});
after(async () => {
  await server.stop();
});

test('a mixed list: only the users in scope change; each other one is refused on its own, nothing of theirs changes', async () => {
  const member = await signedIn('side-a-member');
  const userB = await signedIn('zeta-hidden-user');
  const outside = [sides.userB.id, ids.admin, ids.tenantAdminA];
  const before = await snapshotOf(server.app, outside);
  const answer = await bulk(tenantAdminA, 'disable', [ids.memberA, sides.userB.id, ids.admin, ids.tenantAdminA, 'no-such-user', ids.memberA], {
    'accept-language': 'zh-CN',
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.deepEqual(
    answer.body.data.results.map(({ id, ok, status }) => ({ id, ok, status })),
    [
      { id: ids.memberA, ok: true, status: 200 },
      { id: sides.userB.id, ok: false, status: 404 },
      { id: ids.admin, ok: false, status: 404 },
      { id: ids.tenantAdminA, ok: false, status: 403 },
      { id: 'no-such-user', ok: false, status: 404 },
    ],
  );
  assert.equal(answer.body.data.results[3]!.message, '批量操作不会更改你自己的账号');
  assert.ok(!JSON.stringify(answer.body).includes('zeta-hidden'), 'nothing of the other side is named');
  assert.equal(await statusOf(ids.memberA), 2);
  assert.equal((await member.get('/api/cas/session')).status, 401, 'disabling signs the member out');
  assert.equal(await snapshotOf(server.app, outside), before, 'the refused users are untouched');
  assert.equal((await userB.get('/api/cas/session')).status, 200);
  const audited = await server.app.ctx.db
    .selectFrom('auditLog')
    .select('targetId')
    .where('action', '=', 'user.update')
    .where('actorName', '=', 'side-a-admin')
    .execute();
  assert.deepEqual(
    audited.map((row) => row.targetId),
    [ids.memberA],
  );
});

test('a burst of bulk deletes aimed at another tenant deletes nobody', async () => {
  const answers = await Promise.all(Array.from({ length: 6 }, () => bulk(tenantAdminA, 'delete', [sides.userB.id, ids.admin])));
  for (const answer of answers)
    assert.deepEqual(
      answer.body.data.results.map((result) => result.status),
      [404, 404],
    );
  assert.equal((await admin.get(`/api/user/${sides.userB.id}`)).status, 200);
  assert.equal((await admin.get(`/api/user/${ids.admin}`)).status, 200);
});

test('enable, unlock and delete each work on the users in scope, audited per user', async () => {
  assert.deepEqual(
    (await bulk(tenantAdminA, 'enable', [ids.memberA])).body.data.results.map((result) => result.ok),
    [true],
  );
  assert.equal(await statusOf(ids.memberA), 1);
  // Lock the member by failed sign-ins, then unlock together with someone out of reach.
  const { version } = await server.app.ctx.settings.get('login');
  await server.app.ctx.settings.update('login', version, (value) => ({ ...value, maxFailures: 2, captchaAfterFailures: 0 }));
  for (let attempt = 0; attempt < 3; attempt += 1) await server.client().login('side-a-member', 'wrong-password-1');
  assert.equal((await server.client().login('side-a-member', PROBE_PASSWORD)).body.data?.loginSuccess, undefined);
  const unlocked = await bulk(tenantAdminA, 'unlock', [ids.memberA, sides.userB.id]);
  assert.deepEqual(
    unlocked.body.data.results.map((result) => result.status),
    [200, 404],
  );
  await signedIn('side-a-member');
  const deleted = await bulk(tenantAdminA, 'delete', [ids.memberA, sides.userB.id]);
  assert.deepEqual(
    deleted.body.data.results.map((result) => result.status),
    [200, 404],
  );
  assert.equal((await admin.get(`/api/user/${ids.memberA}`)).status, 404);
  const audit = await server.app.ctx.db
    .selectFrom('auditLog')
    .select(['action', 'targetId'])
    .where('actorName', '=', 'side-a-admin')
    .where('action', 'in', ['user.unlock', 'user.delete'])
    .orderBy('id')
    .execute();
  assert.deepEqual(audit, [
    { action: 'user.unlock', targetId: ids.memberA },
    { action: 'user.delete', targetId: ids.memberA },
  ]);
});

test('a member may not; bad bodies are refused with the field named', async () => {
  const appAdmin = await signedIn('side-x-admin');
  assert.equal((await bulk(appAdmin, 'disable', [ids.tenantAdminA])).status, 403);
  assert.equal(await statusOf(ids.tenantAdminA), 1);
  const promote = await bulk(admin, 'promote', [ids.appAdminX]);
  assert.equal(promote.status, 400);
  assert.deepEqual(
    (promote.body.data as unknown as { fields: { field: string }[] }).fields.map((field) => field.field),
    ['action'],
  );
  const many = await bulk(
    admin,
    'disable',
    Array.from({ length: 101 }, (_, index) => `id-${index}`),
  );
  assert.equal(many.status, 400);
  assert.equal((await bulk(admin, 'disable', [])).status, 400);
});
