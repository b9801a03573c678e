// Several server processes on one database share sessions, lockouts and files (nothing that
// matters lives in process memory); behind a TLS proxy the cookie is Secure.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp, type App } from '../../server/app';
import { ADMIN, Client, createTestDatabase, transform, type TestDatabase } from './harness';

let database: TestDatabase;
const apps: App[] = [];
const bases: string[] = [];

before(async () => {
  database = await createTestDatabase();
  for (let index = 0; index < 2; index += 1) {
    const app = await buildApp({ ...database.options, adminUsername: ADMIN.username, adminPassword: ADMIN.password });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    apps.push(app);
    bases.push(`http://127.0.0.1:${address.port}`);
  }
});
after(async () => {
  for (const app of apps) await app.close();
  await database.drop();
});

test('a session made by one process works on the other, and ends on both', async () => {
  const first = new Client(bases[0]!, bases[0]!);
  await first.login(ADMIN.username, ADMIN.password);
  const second = new Client(bases[1]!, bases[1]!);
  second.cookies = first.cookies;
  assert.equal((await second.get('/api/cas/session')).status, 200);
  await second.get('/api/cas/logout');
  const replay = new Client(bases[0]!, bases[0]!);
  replay.cookies.set('iam_session', first.cookies.get('iam_session') ?? 'gone');
  assert.equal((await replay.get('/api/cas/session')).status, 401);
});

test('failure counters are shared: failures spread over both processes bring the captcha on either', async () => {
  // Default policy: a captcha after 3 failures.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const answer = await new Client(bases[attempt % 2]!, bases[attempt % 2]!).login('shared-ghost', 'Wrong1234');
    assert.equal(answer.status, 401);
  }
  const fourth = await new Client(bases[1]!, bases[1]!).login('shared-ghost', 'Wrong1234');
  assert.equal(fourth.status, 400);
  assert.equal(fourth.body.code, 1001);
});

test('behind https (X-Forwarded-Proto from a trusted proxy) the session cookie is a Secure __Host- cookie', async () => {
  // A third process as deployed behind a TLS proxy on this machine: its public origin configured.
  const proxied = await buildApp({ ...database.options, trustProxy: ['127.0.0.1'], publicUrl: 'https://iam.example.test' });
  apps.push(proxied);
  await proxied.listen({ port: 0, host: '127.0.0.1' });
  const address = proxied.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const client = new Client(`http://127.0.0.1:${address.port}`, 'https://iam.example.test');
  const response = await client.raw(
    'POST',
    '/api/authc/login',
    { username: ADMIN.username, password: transform(ADMIN.password) },
    {
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'iam.example.test',
    },
  );
  assert.equal(response.status, 200, await response.clone().text());
  // Over https the cookie is a __Host- one: Secure, Path=/ and no Domain, or a browser drops it.
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('__Host-iam_session='));
  assert.match(cookie ?? '', /;\s*Secure/i, String(cookie));
  assert.match(cookie ?? '', /;\s*Path=\/(;|$)/i, String(cookie));
  assert.doesNotMatch(cookie ?? '', /Domain=/i, String(cookie));
});
