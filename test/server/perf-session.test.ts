// The session check writes lastSeenAt at most once a minute (not on every request), and the idle
// timeout still ends idle sessions and spares active ones, to within that minute.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type Client, type TestServer } from './harness';
import type { LoginSettings } from '../../src/core/schemas/settings';

let server: TestServer;

async function setPolicy(changes: Partial<LoginSettings>) {
  const { version } = await server.app.ctx.settings.get('login');
  await server.app.ctx.settings.update('login', version, (value) => ({ ...value, ...changes }));
}

async function lastSeen(client: Client) {
  const answer = await client.get<{ lastSeenAt: number; current: boolean }[]>('/api/cas/sessions');
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data.find((session) => session.current)!.lastSeenAt;
}

before(async () => {
  server = await startServer();
});
after(async () => {
  await server.stop();
});

test('a session check writes lastSeenAt only when it is over a minute old', async () => {
  const client = await server.admin();
  const signedInAt = await lastSeen(client);
  server.clock.advance(30_000);
  assert.equal((await client.get('/api/cas/session')).status, 200);
  assert.equal(await lastSeen(client), signedInAt, 'not written 30 s later');
  server.clock.advance(31_000);
  assert.equal((await client.get('/api/cas/session')).status, 200);
  const touched = await lastSeen(client);
  assert.ok(touched >= signedInAt + 61_000, 'written once over a minute old');
});

test('the idle timeout still holds: activity keeps a session, idleness ends it', async () => {
  await setPolicy({ sessionIdleMinutes: 5 });
  const active = await server.admin();
  for (let step = 0; step < 4; step += 1) {
    server.clock.advance(4 * 60_000);
    assert.equal((await active.get('/api/cas/session')).status, 200, `active after ${(step + 1) * 4} minutes`);
  }
  const idle = await server.admin();
  server.clock.advance(30_000);
  assert.equal((await idle.get('/api/cas/session')).status, 200);
  server.clock.advance(5 * 60_000 + 1_000);
  assert.equal((await idle.get('/api/cas/session')).status, 401, 'idle for over 5 minutes (to within the minute)');
  assert.equal((await active.get('/api/cas/session')).status, 401, 'the active one idled meanwhile too');
});
