// Attack F: what the server believes from a request and from the proxy in front of it. A client's
// forged X-Forwarded-For / X-Real-IP / Forwarded through the documented nginx, an IPv6 client
// rotating its address inside its own /64 to dodge the per-IP sign-in limit, and whether answers
// carrying personal data or secrets (SCIM's too) tell every cache to keep nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { ADMIN, startServer, transform, type Client, type TestServer } from './harness';
import { provisionedTenant } from './scim-support';
import { startNginx, type NginxProxy } from './nginx-proxy';

const failedSignInIps = async (server: TestServer) =>
  (await server.app.ctx.db.selectFrom('auditLog').select('ip').where('action', 'in', ['login.failure', 'login.locked']).orderBy('id').execute()).map(
    (row) => row.ip,
  );

describe('attack F: caching of answers that carry personal data', () => {
  let server: TestServer;
  let admin: Client;
  before(async () => {
    server = await startServer();
    admin = await server.admin();
  });
  after(async () => {
    await server.stop();
  });

  test('SCIM answers (a list of people, one person, an error) tell caches to keep nothing', async () => {
    const { scim } = await provisionedTenant(server, admin, 'cache-tenant');
    const created = await scim('POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'cachedperson',
      name: { formatted: 'Cached_Person' },
      emails: [{ value: 'cached.person@example.com', primary: true }],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = String(created.body.id);
    for (const [what, answer] of [
      ['list', await scim('GET', '/Users')],
      ['one', await scim('GET', `/Users/${id}`)],
      ['created', created],
      ['not found', await scim('GET', '/Users/00000000-0000-0000-0000-000000000000')],
    ] as const) {
      assert.match(
        answer.headers.get('cache-control') ?? '(none)',
        /no-store/,
        `SCIM ${what} (${answer.status}): Cache-Control ${answer.headers.get('cache-control')}`,
      );
    }
  });
});

describe('attack F: the per-IP sign-in limit and IPv6 clients', () => {
  test('a client rotating its address inside its own IPv6 /64 (behind the trusted proxy) stays within one per-IP limit', async () => {
    const server = await startServer({ rateLimits: { login: { max: 3, timeWindow: 60_000 } }, trustProxy: ['127.0.0.1'] });
    try {
      const statuses: number[] = [];
      // One home connection's /64 (every IPv6 subscriber holds at least one): privacy addresses
      // change by themselves, and any host in it may pick 2^64 of them.
      for (let index = 1; index <= 6; index += 1) {
        const answer = await server.client().login(`spray-${index}`, 'Wrong-password-1', {}, { 'x-forwarded-for': `2001:db8:1:2::${index.toString(16)}` });
        statuses.push(answer.status);
      }
      assert.deepEqual(statuses.slice(3), [429, 429, 429], `statuses ${statuses.join()}`);
    } finally {
      await server.stop();
    }
  });
  test('a proxy that writes the client with its source port (Azure Application Gateway: 198.51.100.7:40001) counts one client, recorded without the port', async () => {
    const server = await startServer({ rateLimits: { login: { max: 3, timeWindow: 60_000 } }, trustProxy: ['127.0.0.1'] });
    try {
      const statuses: number[] = [];
      // Each new connection of one client comes from another source port.
      for (let index = 1; index <= 5; index += 1) {
        const answer = await server.client().login(`port-${index}`, 'Wrong-password-1', {}, { 'x-forwarded-for': `198.51.100.7:${40000 + index}` });
        statuses.push(answer.status);
      }
      const ips = await failedSignInIps(server);
      assert.deepEqual(statuses.slice(3), [429, 429], `statuses ${statuses.join()}; audit addresses ${ips.join()}`);
      assert.ok(ips.length > 0 && ips.every((ip) => ip === '198.51.100.7'), `audit addresses ${ips.join()}`);
    } finally {
      await server.stop();
    }
  });
});

/** A POST through nginx from the local address `from` (127.0.0.0/8 is all loopback on Linux). */
function postFrom(base: string, from: string, path: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      base + path,
      { method: 'POST', localAddress: from, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe('attack F: through the documented nginx', () => {
  let server: TestServer;
  let nginx: NginxProxy;
  before(async () => {
    server = await startServer({ rateLimits: { login: { max: 4, timeWindow: 60_000 } }, trustProxy: ['127.0.0.1'] });
    const port = Number(new URL(server.base).port);
    // Both documented upstreams name the one server.
    nginx = await startNginx([port, port]);
  });
  after(async () => {
    await nginx?.stop();
    await server?.stop();
  });

  test("the client's real address reaches the audit log and the per-IP limit; its forged X-Forwarded-For, X-Real-IP and Forwarded do not", async () => {
    const forged: Record<string, string>[] = [
      { 'x-forwarded-for': '203.0.113.7' },
      { 'x-forwarded-for': '203.0.113.8, 127.0.0.1' },
      { 'x-real-ip': '203.0.113.9' },
      { forwarded: 'for=203.0.113.10;proto=https' },
      { 'x-forwarded-for': '203.0.113.11', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
      { 'x-forwarded-for': '2001:db8::1' },
    ];
    const statuses: number[] = [];
    for (const headers of forged) {
      statuses.push(await postFrom(nginx.base, '127.0.0.2', '/api/authc/login', headers, JSON.stringify({ username: 'nobody', password: 'x'.repeat(64) })));
    }
    // Four sign-ins under one real address (the fourth may be asked for a captcha after three
    // failures), then the limit: a forged header buys no fresh count.
    assert.deepEqual(statuses.slice(4), [429, 429], statuses.join());
    assert.ok(
      statuses.slice(0, 4).every((status) => status === 401 || status === 400),
      statuses.join(),
    );
    const ips = await failedSignInIps(server);
    assert.ok(ips.length >= 3 && ips.every((ip) => ip === '127.0.0.2'), `audit addresses: ${ips.join()}; statuses ${statuses.join()}`);
  });
});

describe('attack F: the session cookie and a sibling on the same site', () => {
  const PUBLIC = 'https://iam.example.com';
  let server: TestServer;
  before(async () => {
    server = await startServer({ publicUrl: PUBLIC, trustProxy: ['127.0.0.1'] });
    const admin = server.client({ origin: PUBLIC });
    assert.equal((await admin.login(ADMIN.username, ADMIN.password)).status, 200);
    const created = await admin.post('/api/user', { username: 'tosser', realName: 'Cookie_Tosser', password: transform('Tosser123') });
    assert.equal(created.status, 200, JSON.stringify(created.body));
  });
  after(async () => {
    await server.stop();
  });

  test('over https the session cookie is a __Host- cookie: a sibling subdomain cannot plant its own session under the console', async () => {
    // The attacker signs in as himself, then plants that session in the victim's browser from a
    // sibling host (Set-Cookie: iam_session=…; Domain=example.com; Path=/api): the browser sends it
    // first, before the victim's own Path=/ cookie, even after the victim signs in.
    const attacker = server.client({ origin: PUBLIC });
    assert.equal((await attacker.login('tosser', 'Tosser123')).status, 200);
    const victim = server.client({ origin: PUBLIC });
    const signIn = await victim.login(ADMIN.username, ADMIN.password);
    assert.equal(signIn.status, 200);
    const [name] = (signIn.headers.getSetCookie().find((line) => /session/i.test(line.split('=')[0]!)) ?? '').split('=');
    const sessionOf = (client: Client) => [...client.cookies].find(([cookie]) => cookie === name)![1];
    const tossed = await fetch(`${server.base}/api/cas/session`, { headers: { cookie: `${name}=${sessionOf(attacker)}; ${name}=${sessionOf(victim)}` } });
    const seenAs = tossed.status === 200 ? JSON.stringify(((await tossed.json()) as { data: unknown }).data).slice(0, 120) : String(tossed.status);
    assert.ok(
      name!.startsWith('__Host-'),
      `the session cookie is named ${name} (no __Host- prefix): a sibling host's cookie of that name is taken; the victim's console then answers as ${seenAs}`,
    );
  });
});
