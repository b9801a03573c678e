import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './harness';
import { Permission } from '../../src/core/permission-codes';

let server: TestServer;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server.stop();
});

test('sign in as the first administrator and read the session', async () => {
  const client = server.client();
  const login = await client.login('admin', 'Admin123!');
  assert.equal(login.status, 200);
  assert.equal(login.body.code, 0);
  assert.equal(login.body.data.loginSuccess, true);
  const session = await client.get<{ user: { username: string; permissions: string[] } }>('/api/cas/session');
  assert.equal(session.status, 200);
  assert.equal(session.body.data.user.username, 'admin');
  assert.deepEqual(session.body.data.user.permissions, [Permission.SelfService, Permission.Apps, Permission.Users, Permission.Settings, Permission.Operations]);
});

test('without a session /cas/session answers 401 in the envelope', async () => {
  const answer = await server.client().get('/api/cas/session');
  assert.equal(answer.status, 401);
  assert.equal(answer.body.code, 401);
});
