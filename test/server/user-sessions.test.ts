// An administrator ends another person's sessions ("Sign out everywhere") — only within their user
// scope: a tenant administrator cannot list or end the sessions of people of another tenant (404,
// the person's sessions live on), a member cannot at all, nobody does it to themselves here; the
// ending is audited and really signs the person out.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type Client, type TestServer } from './harness';
import { PROBE_PASSWORD, seedTwoSides, type TwoSides } from './security-support';

let server: TestServer;
let admin: Client;
let sides: TwoSides;
let tenantAdminA: Client;

const signedIn = async (username: string) => {
  const client = server.client();
  assert.equal((await client.login(username, PROBE_PASSWORD)).body.data?.loginSuccess, true, username);
  return client;
};
const idOf = async (username: string) =>
  (await admin.get<{ list: { id: string }[] }>(`/api/user?searchProp=username&searchValue=${username}`)).body.data.list[0]!.id;
const isSignedIn = async (client: Client) => (await client.get('/api/cas/session')).status === 200;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  sides = await seedTwoSides(server, admin);
  tenantAdminA = await signedIn('side-a-admin');
});
after(async () => {
  await server.stop();
});

test('a tenant administrator can neither list nor end the sessions of a person of another tenant, even in a burst', async () => {
  const userB = await signedIn('zeta-hidden-user');
  const listed = await tenantAdminA.get(`/api/user/${sides.userB.id}/sessions`);
  assert.equal(listed.status, 404);
  assert.ok(!JSON.stringify(listed.body).includes(sides.sessionB));
  const burst = await Promise.all(Array.from({ length: 8 }, () => tenantAdminA.delete(`/api/user/${sides.userB.id}/sessions`)));
  assert.deepEqual(
    burst.map((answer) => answer.status),
    Array(8).fill(404),
  );
  // Nor the platform administrator (not a tenant user), nor with a forged id.
  const platformId = await idOf('admin');
  assert.equal((await tenantAdminA.delete(`/api/user/${platformId}/sessions`)).status, 404);
  assert.equal((await tenantAdminA.delete('/api/user/..%2F..%2Fcas%2Fsessions/sessions')).status, 404);
  assert.ok(await isSignedIn(userB), "B's session lives on");
  assert.ok(await isSignedIn(admin));
  const audited = await server.app.ctx.db.selectFrom('auditLog').select('id').where('action', '=', 'session.revoke').execute();
  assert.equal(audited.length, 0);
});

test('a member cannot, and nobody signs themselves out everywhere here', async () => {
  const member = await signedIn('side-a-member');
  assert.equal((await member.get(`/api/user/${await idOf('side-a-admin')}/sessions`)).status, 403);
  assert.equal((await member.delete(`/api/user/${await idOf('side-a-admin')}/sessions`)).status, 403);
  const self = await tenantAdminA.delete(`/api/user/${await idOf('side-a-admin')}/sessions`);
  assert.equal(self.status, 403);
  assert.ok((await isSignedIn(tenantAdminA)) && (await isSignedIn(member)));
});

test("a tenant administrator sees and ends the sessions of their tenant's people; audited", async () => {
  const member = await signedIn('side-a-member');
  const memberId = await idOf('side-a-member');
  const sessions = await tenantAdminA.get<{ id: string; ip: string | null; lastSeenAt: number }[]>(`/api/user/${memberId}/sessions`);
  assert.equal(sessions.status, 200);
  assert.ok(sessions.body.data.length >= 1);
  assert.ok(!JSON.stringify(sessions.body.data).includes('secret'));
  const ended = await tenantAdminA.delete<{ revoked: number }>(`/api/user/${memberId}/sessions`);
  assert.equal(ended.status, 200);
  assert.equal(ended.body.data.revoked, sessions.body.data.length);
  assert.equal(await isSignedIn(member), false);
  assert.deepEqual((await tenantAdminA.get(`/api/user/${memberId}/sessions`)).body.data, []);
  const audit = await server.app.ctx.db.selectFrom('auditLog').selectAll().where('action', '=', 'session.revoke').execute();
  assert.equal(audit.length, 1);
  assert.equal(audit[0]!.actorName, 'side-a-admin');
  assert.equal(audit[0]!.targetId, memberId);
  assert.equal(audit[0]!.tenantId, sides.tenantA.id);
  assert.deepEqual(JSON.parse(audit[0]!.detail), { everywhere: true, sessions: sessions.body.data.length, appSignIns: 0, pendingSignIns: 0 });
});

test('a sign-out everywhere that ends nothing writes no record: a burst of 8 ends the sessions once, with one record', async () => {
  const memberId = await idOf('side-a-member');
  await signedIn('side-a-member');
  await signedIn('side-a-member');
  const live = (await tenantAdminA.get<unknown[]>(`/api/user/${memberId}/sessions`)).body.data.length;
  const records = async () =>
    (
      await server.app.ctx.db
        .selectFrom('auditLog')
        .select('detail')
        .where('action', '=', 'session.revoke')
        .where('targetId', '=', memberId)
        .orderBy('id')
        .execute()
    ).map((row) => JSON.parse(row.detail) as Record<string, unknown>);
  const before = (await records()).length;
  const burst = await Promise.all(Array.from({ length: 8 }, () => tenantAdminA.delete<{ revoked: number }>(`/api/user/${memberId}/sessions`)));
  assert.deepEqual(
    burst.map((answer) => answer.status),
    Array(8).fill(200),
  );
  assert.equal(
    burst.reduce((sum, answer) => sum + answer.body.data.revoked, 0),
    live,
    'each session ended once',
  );
  const recorded = await records();
  assert.equal(
    recorded.length,
    before + 1,
    `${recorded.length - before} session.revoke records of one sign-out (answers revoked ${burst.map((answer) => answer.body.data.revoked).join(',')})`,
  );
  assert.equal(recorded.at(-1)!.sessions, live);

  const nothing = await tenantAdminA.delete<{ revoked: number }>(`/api/user/${memberId}/sessions`);
  assert.deepEqual([nothing.status, nothing.body.data.revoked], [200, 0]);
  assert.equal((await records()).length, before + 1, 'a record of a sign-out that ended nothing');
});

test('the platform administrator signs anyone out everywhere', async () => {
  const userB = await signedIn('zeta-hidden-user');
  const ended = await admin.delete<{ revoked: number }>(`/api/user/${sides.userB.id}/sessions`);
  assert.equal(ended.status, 200);
  assert.ok(ended.body.data.revoked >= 1);
  assert.equal(await isSignedIn(userB), false);
});

test("an administrator ends one session of a person; the others live on; never another person's session, never across tenants", async () => {
  const laptop = await signedIn('side-a-member');
  const phone = await signedIn('side-a-member');
  const memberId = await idOf('side-a-member');
  const sessionIdOf = async (client: Client) =>
    (await client.get<{ id: string; current: boolean }[]>('/api/cas/sessions')).body.data.find((row) => row.current)!.id;
  const laptopSession = await sessionIdOf(laptop);
  const userB = await signedIn('zeta-hidden-user');
  const sessionOfB = await sessionIdOf(userB);

  // Another person's session under the member's id, and B's session under B's id from tenant A: 404, B lives on.
  assert.equal((await tenantAdminA.delete(`/api/user/${memberId}/sessions/${sessionOfB}`)).status, 404);
  assert.equal((await tenantAdminA.delete(`/api/user/${sides.userB.id}/sessions/${sessionOfB}`)).status, 404);
  assert.ok(await isSignedIn(userB), "B's session lives on");
  // Not one's own session here (the personal center does that), and not by a member.
  const adminSession = await sessionIdOf(tenantAdminA);
  assert.equal((await tenantAdminA.delete(`/api/user/${await idOf('side-a-admin')}/sessions/${adminSession}`)).status, 403);
  assert.equal((await laptop.delete(`/api/user/${memberId}/sessions/${laptopSession}`)).status, 403);

  const before = (await server.app.ctx.db.selectFrom('auditLog').select('id').where('action', '=', 'session.revoke').execute()).length;
  const ended = await tenantAdminA.delete(`/api/user/${memberId}/sessions/${laptopSession}`);
  assert.equal(ended.status, 200);
  assert.equal(await isSignedIn(laptop), false, 'the ended session is signed out');
  assert.equal(await isSignedIn(phone), true, 'the other session goes on');
  const listed = (await tenantAdminA.get<{ id: string }[]>(`/api/user/${memberId}/sessions`)).body.data.map((row) => row.id);
  assert.equal(listed.includes(laptopSession), false);
  const audit = await server.app.ctx.db.selectFrom('auditLog').selectAll().where('action', '=', 'session.revoke').orderBy('at', 'desc').execute();
  assert.equal(audit.length, before + 1);
  assert.equal(audit[0]!.targetId, memberId);
  assert.deepEqual(JSON.parse(audit[0]!.detail), { session: laptopSession });
  assert.equal((await tenantAdminA.delete(`/api/user/${memberId}/sessions/${laptopSession}`)).status, 404, 'already ended');
});
