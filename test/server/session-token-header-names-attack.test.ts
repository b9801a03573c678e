// The session token header's name is a setting (authConfig.tokenName). An outside attacker's
// view: a name that the server itself reads for something else, or that browsers and proxies set
// on their own, must not be accepted, and a request carrying two credentials acts as one person
// and passes the same cross-site check.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, startServer, transform, type Client, type TestServer } from './harness';
import type { User } from '../../src/core/types';

const PORTAL = 'http://portal.example.test';
let server: TestServer;
let admin: Client;

before(async () => {
  server = await startServer({ corsOrigins: [PORTAL] });
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

async function saveTokenName(tokenName: string) {
  const { version } = (await admin.get<{ version: number }>('/api/config')).body.data;
  return admin.put('/api/config', { settings: { authConfig: { authType: 'token', tokenName } }, version });
}

/** Refused, with the reserved-name field rule; a name that was accepted is put back to `token`. */
async function assertRefused(names: string[], what: string) {
  const accepted: string[] = [];
  for (const name of names) {
    const answer = await saveTokenName(name);
    if (answer.status === 200) accepted.push(name);
    else assert.equal(answer.status, 400, `${name}: ${JSON.stringify(answer.body)}`);
  }
  if (accepted.length) assert.equal((await saveTokenName('token')).status, 200);
  assert.deepEqual(accepted, [], `${what} accepted as the session token header`);
}

test("headers the server itself reads for something else are refused (Idempotency-Key, DPoP, the sign-in's X-IAM-Auth-Mode)", async () => {
  await assertRefused(['Idempotency-Key', 'DPoP', 'X-IAM-Auth-Mode'], "the server's own headers");
});

test('headers browsers set on their own are refused (EventSource, hyperlink auditing, prefetch, service workers, client hints, WebView)', async () => {
  await assertRefused(
    [
      'Last-Event-ID',
      'Ping-From',
      'Ping-To',
      'Purpose',
      'Service-Worker',
      'Service-Worker-Navigation-Preload',
      'Save-Data',
      'Device-Memory',
      'Viewport-Width',
      'DPR',
      'Downlink',
      'ECT',
      'RTT',
      'X-Requested-With',
    ],
    'browser-set headers',
  );
});

test('headers proxies and load balancers add or rewrite are refused (CDN-Loop, Cloudflare, AWS, GCP, Envoy, nginx ingress)', async () => {
  await assertRefused(
    [
      'CDN-Loop',
      'CF-Ray',
      'CF-IPCountry',
      'CF-Visitor',
      'X-Amzn-Trace-Id',
      'X-Cloud-Trace-Context',
      'X-Envoy-External-Address',
      'X-Original-Forwarded-For',
      'X-Scheme',
      'X-Original-URI',
    ],
    'proxy-set headers',
  );
});

test('a session secret never lands in the database in clear: with the token header named Idempotency-Key it is stored as an idempotency key', async () => {
  const saved = await saveTokenName('Idempotency-Key');
  if (saved.status !== 200) return assert.equal(saved.status, 400, 'refused, as the first test asks');
  try {
    const signedIn = await server.client({ origin: PORTAL }).login(ADMIN.username, ADMIN.password, {}, { 'x-iam-auth-mode': 'token' });
    const { token, tokenName } = signedIn.body.data as { token: string; tokenName: string };
    assert.equal(tokenName, 'idempotency-key');
    const created = await server
      .client({ origin: PORTAL })
      .post('/api/apps', { name: 'HeaderNamedApp', entrypoint: 'http://127.0.0.1:9/', callbackUrl: 'http://127.0.0.1:9/cb' }, { [tokenName]: token });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const stored = await server.app.ctx.db.selectFrom('idempotencyKeys').select('key').where('key', '=', token).execute();
    assert.equal(stored.length, 0, 'the live session secret is stored in clear in idempotency_keys (sessions keep only its digest)');
  } finally {
    await server.app.ctx.db.deleteFrom('idempotencyKeys').execute();
    assert.equal((await saveTokenName('token')).status, 200);
  }
});

test("a request carrying another person's token header and the victim's cookie acts only as the token's person, and a foreign origin is refused", async () => {
  assert.equal((await saveTokenName('X-Shop-Token')).status, 200);
  try {
    const created = await admin.post<User>('/api/user', { username: 'header-victim', realName: 'Victim', password: transform('Secret123') });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const victim = server.client();
    assert.equal((await victim.login('header-victim', 'Secret123')).body.data?.loginSuccess, true);
    const tokenAnswer = await server.client({ origin: PORTAL }).login(ADMIN.username, ADMIN.password, {}, { 'x-iam-auth-mode': 'token' });
    const { token } = tokenAnswer.body.data as { token: string };
    const both = await victim.get<{ user: { username: string } }>('/api/cas/session', { 'x-shop-token': token });
    assert.equal(both.status, 200);
    assert.equal(both.body.data.user.username, ADMIN.username, 'the token header wins, never a mix of the two');
    const forged = await victim.get('/api/cas/session', { 'x-shop-token': 'not-a-session' });
    assert.equal(forged.status, 401, 'a forged token header does not fall back to the cookie');
    // A cross-site state change with both: refused before anything happens.
    const crossSite = await victim.post(
      '/api/user',
      { username: 'header-csrf', realName: 'Csrf', password: transform('Secret123') },
      {
        origin: 'http://evil.example.test',
        'x-shop-token': token,
      },
    );
    assert.equal(crossSite.status, 403);
    assert.equal((await admin.get<{ total: number }>('/api/user?keyword=header-csrf')).body.data.total ?? 0, 0);
  } finally {
    assert.equal((await saveTokenName('token')).status, 200);
  }
});

test("a cookie-mode person whose browser sends Save-Data stays signed in whatever the token header's name (no lock-out by a browser's own header)", async () => {
  const { version } = (await admin.get<{ version: number }>('/api/config')).body.data;
  const saved = await admin.put('/api/config', { settings: { authConfig: { authType: 'default', tokenName: 'Save-Data' } }, version });
  if (saved.status !== 200) return assert.equal(saved.status, 400, 'refused, as the browser-set headers test asks');
  try {
    const dataSaver = await server.admin();
    const answer = await dataSaver.get('/api/cas/session', { 'save-data': 'on' });
    assert.equal(answer.status, 200, 'a browser with Data Saver on is signed out: its Save-Data header is read as the session token instead of its cookie');
  } finally {
    const { version: now } = (await admin.get<{ version: number }>('/api/config')).body.data;
    assert.equal((await admin.put('/api/config', { settings: { authConfig: { authType: 'default', tokenName: 'token' } }, version: now })).status, 200);
  }
});
