// Idempotency-Key on creates (server/http/idempotency.ts): a key is the caller's own. Another caller
// sending the same key (and the same body) never gets the first caller's stored answer; the same
// caller's parallel identical requests create once; the key with another body answers 422.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer } from './harness';
import { createTenant } from './scim-support';

let server: TestServer;
let admin: Client;

before(async () => {
  server = await startServer();
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

const usersNamed = (username: string) => server.app.ctx.db.selectFrom('users').select('id').where('username', '=', username).execute();

test("another tenant's administrator replaying the platform administrator's key and body gets no stored answer (no replay header, no user data)", async () => {
  const tenant = await createTenant(admin, 'Idem_Victim');
  const other = await createTenant(admin, 'Idem_Other');
  const otherAdmin = await admin.post<{ id: string }>('/api/user', {
    username: 'idem-other-admin',
    realName: 'Idem_Other',
    password: transform('Idem1234pass'),
    tenantId: other.id,
    isAdmin: true,
  });
  assert.equal(otherAdmin.status, 200, JSON.stringify(otherAdmin.body));
  const body = {
    username: 'idem-victim-1',
    realName: 'Idem_Victim',
    password: transform('Idem1234pass'),
    tenantId: tenant.id,
    email: 'idem-victim@corp.example',
  };
  const key = 'shared-key-0001';
  const first = await admin.post<{ id: string }>('/api/user', body, { 'idempotency-key': key });
  assert.equal(first.status, 200, JSON.stringify(first.body));
  const intruder = server.client();
  assert.equal((await intruder.login('idem-other-admin', 'Idem1234pass')).body.data?.loginSuccess, true);
  const replayed = await intruder.post<{ id?: string; email?: string }>('/api/user', body, { 'idempotency-key': key });
  assert.equal(replayed.headers.get('idempotent-replayed'), null, 'another caller got the stored answer');
  assert.notEqual(replayed.status, 200, JSON.stringify(replayed.body));
  assert.ok([403, 404, 400].includes(replayed.status), `${replayed.status} ${JSON.stringify(replayed.body)}`);
  assert.equal(JSON.stringify(replayed.body).includes('idem-victim@corp.example'), false, "the victim's data leaked to another caller");
});

test('six parallel identical creates with one key make one user; every success answers its id', async () => {
  const body = { username: 'idem-race-1', realName: 'Idem_Race', password: transform('Idem1234pass') };
  const answers = await Promise.all(Array.from({ length: 6 }, () => admin.post<{ id: string }>('/api/user', body, { 'idempotency-key': 'race-key-0001' })));
  const statuses = answers.map((answer) => answer.status);
  assert.ok(
    statuses.every((status) => status === 200 || status === 409),
    statuses.join(','),
  );
  const rows = await usersNamed('idem-race-1');
  assert.equal(rows.length, 1);
  for (const answer of answers.filter((one) => one.status === 200)) assert.equal(answer.body.data.id, rows[0]!.id);
  assert.ok(answers.filter((one) => one.status === 200).length >= 1, statuses.join(','));
});

test('the same key with another body answers 422 and creates nothing', async () => {
  const first = await admin.post(
    '/api/user',
    { username: 'idem-body-1', realName: 'Idem_Body', password: transform('Idem1234pass') },
    { 'idempotency-key': 'body-key-0001' },
  );
  assert.equal(first.status, 200, JSON.stringify(first.body));
  const second = await admin.post(
    '/api/user',
    { username: 'idem-body-2', realName: 'Idem_Body', password: transform('Idem1234pass') },
    { 'idempotency-key': 'body-key-0001' },
  );
  assert.equal(second.status, 422, JSON.stringify(second.body));
  assert.equal((await usersNamed('idem-body-2')).length, 0);
});
