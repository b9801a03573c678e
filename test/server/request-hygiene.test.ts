// What a request may not decide: the OIDC issuer (never the Host of the first request), the client
// address and our own origin (X-Forwarded-* only from a configured proxy), and where a browser is
// sent next (one redirect gate: no control characters, white space, backslashes or other sites).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { resolveConfig } from '../../server/config';
import { ADMIN, startServer, type Client, type TestServer } from './harness';
import { rawRequest } from './security-support';

type Discovery = { issuer: string; token_endpoint: string; jwks_uri: string };

const discovery = async (server: TestServer, headers: Record<string, string> = {}) =>
  JSON.parse((await rawRequest(server.base, 'GET', '/api/oidc/.well-known/openid-configuration', headers)).text) as Discovery;

const cookieOf = (client: Client) => [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
let apps = 0;

/** The issuer the administrator is told when generating a client secret, the call carrying `headers`. */
async function secretIssuer(server: TestServer, admin: Client, headers: Record<string, string> = {}): Promise<string> {
  apps += 1;
  const created = await admin.post<{ id: string }>('/api/apps', { name: `issuer-app-${apps}`, callbackUrl: 'http://127.0.0.1:9/cb' });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const secret = await rawRequest(
    server.base,
    'POST',
    `/api/apps/${created.body.data.id}/oidc-client/secret`,
    { cookie: cookieOf(admin), origin: admin.origin!, 'content-type': 'application/json', ...headers },
    '{}',
  );
  assert.equal(secret.status, 200, secret.text);
  return (JSON.parse(secret.text) as { data: { issuer: string } }).data.issuer;
}

describe('the OIDC issuer comes from configuration only', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.stop();
  });

  test('a forged Host (and X-Forwarded-Host) on the very first request decides nothing', async () => {
    const first = await discovery(server, { host: 'attacker.example', 'x-forwarded-host': 'attacker.example', 'x-forwarded-proto': 'https' });
    const expected = `${server.base}/api/oidc`;
    assert.equal(first.issuer, expected);
    assert.ok(first.token_endpoint.startsWith(`${expected}/`), first.token_endpoint);
    assert.equal((await discovery(server)).issuer, expected);
    const admin = await server.admin();
    assert.equal(await secretIssuer(server, admin, { host: 'attacker.example' }), expected);
    assert.equal(await secretIssuer(server, admin), expected);
  });
});

describe('IAM_PUBLIC_URL names the issuer and our origin', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ publicUrl: 'https://iam.example.com' });
  });
  after(async () => {
    await server.stop();
  });

  test('discovery, endpoints and the client-secret answer use the public origin', async () => {
    const published = await discovery(server, { host: 'attacker.example' });
    assert.equal(published.issuer, 'https://iam.example.com/api/oidc');
    assert.ok(published.token_endpoint.startsWith('https://iam.example.com/api/oidc/'), published.token_endpoint);
    assert.ok(published.jwks_uri.startsWith('https://iam.example.com/api/oidc/'), published.jwks_uri);
    // The CSRF check now knows https://iam.example.com as ours, and not the listening address.
    const admin = server.client({ origin: 'https://iam.example.com' });
    await admin.login(ADMIN.username, ADMIN.password);
    assert.equal(await secretIssuer(server, admin, { host: 'attacker.example' }), 'https://iam.example.com/api/oidc');
    const fromSocket = await admin.post('/api/apps', { name: 'refused-app', callbackUrl: 'http://127.0.0.1:9/cb' }, { origin: server.base });
    assert.equal(fromSocket.status, 403);
  });

  test('TLS ended at a proxy that does not say so (Apache ProxyPass: no X-Forwarded-Proto): the session cookie is Secure, an https public origin says it', async () => {
    const browser = server.client({ origin: 'https://iam.example.com' });
    const signIn = await browser.login(ADMIN.username, ADMIN.password);
    assert.equal(signIn.status, 200);
    const session = signIn.headers.getSetCookie().find((line) => line.startsWith('__Host-iam_session='));
    assert.match(session ?? '', /; Secure/i, String(session));
  });
});

describe('start-up refuses what it cannot trust', () => {
  test('production without IAM_PUBLIC_URL (nor IAM_OIDC_ISSUER) refuses to start, naming the variable', () => {
    assert.throws(() => resolveConfig({}, { NODE_ENV: 'production' }), /IAM_PUBLIC_URL/);
    assert.equal(resolveConfig({}, { NODE_ENV: 'production', IAM_PUBLIC_URL: 'https://iam.example.com/' }).publicUrl, 'https://iam.example.com');
    assert.equal(resolveConfig({}, { NODE_ENV: 'production', IAM_OIDC_ISSUER: 'https://sso.example.com/oidc' }).publicUrl, 'https://sso.example.com');
    // A sub-path is not served: the refusal says so and what to do instead.
    assert.throws(
      () => resolveConfig({}, { IAM_PUBLIC_URL: 'https://intranet.example/iam/' }),
      /IAM_PUBLIC_URL=https:\/\/intranet\.example\/iam\/ has a path \(\/iam\/\): serving the server under a sub-path is not supported\. Give it an origin of its own \(e\.g\. https:\/\/iam\.intranet\.example\)/,
    );
    assert.throws(() => resolveConfig({}, { IAM_PUBLIC_URL: 'javascript:alert(1)' }), /IAM_PUBLIC_URL/);
  });

  test("libpq's PG* variables without DATABASE_URL choose nothing: named for the start's warning (the server runs on SQLite)", () => {
    const env = { PGHOST: '/var/run/postgresql', PGDATABASE: 'iam', PGAPPNAME: 'x' };
    assert.deepEqual(resolveConfig({}, env).unusedPgVariables, ['PGHOST', 'PGDATABASE']);
    assert.deepEqual(resolveConfig({}, { ...env, DATABASE_URL: 'postgres://' }).unusedPgVariables, []);
  });

  test('the server itself exits at once with that one-line error, before touching a database', () => {
    for (const [env, expected] of [
      [{ NODE_ENV: 'production' }, /^Cannot start: IAM_PUBLIC_URL is not set/m],
      [{ IAM_TRUST_PROXY: '1' }, /^Cannot start: IAM_TRUST_PROXY=1 would trust/m],
    ] as const) {
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        env: { ...process.env, IAM_DATA_DIR: '/nonexistent/iam-never-created', PORT: '0', IAM_PUBLIC_URL: '', IAM_OIDC_ISSUER: '', ...env },
        encoding: 'utf8',
        // A bound, not a measure: on a loaded machine loading the server through tsx alone took 30 s.
        timeout: 90_000,
      });
      assert.equal(run.status, 1, run.stderr);
      assert.match(run.stderr.trim(), expected);
    }
  });

  test('IAM_TRUST_PROXY=1 (trust everyone) is refused with what to write instead; addresses, CIDRs and loopback are taken', () => {
    for (const value of ['1', 'true']) {
      assert.throws(() => resolveConfig({}, { IAM_TRUST_PROXY: value }), /IAM_TRUST_PROXY=127\.0\.0\.1/);
    }
    assert.throws(() => resolveConfig({}, { IAM_TRUST_PROXY: '127.0.0.1, proxy.example' }), /proxy\.example/);
    assert.throws(() => resolveConfig({}, { IAM_TRUST_PROXY: '10.0.0.0/33' }), /10\.0\.0\.0\/33/);
    assert.deepEqual(resolveConfig({}, { IAM_TRUST_PROXY: 'loopback, 10.0.0.0/8,::1' }).trustProxy, ['loopback', '10.0.0.0/8', '::1']);
    assert.deepEqual(resolveConfig({}, {}).trustProxy, []);
  });
});

/** The failed sign-ins' audit addresses and how many were let through by the per-IP limit. */
async function rotatingForwardedFor(server: TestServer): Promise<{ statuses: number[]; ips: (string | null)[] }> {
  const statuses: number[] = [];
  for (let index = 0; index < 5; index += 1) {
    const answer = await server.client().login('nobody', 'Wrong-password-1', {}, { 'x-forwarded-for': `198.51.100.${index + 1}` });
    statuses.push(answer.status);
  }
  const rows = await server.app.ctx.db.selectFrom('auditLog').select('ip').where('action', 'in', ['login.failure', 'login.locked']).execute();
  return { statuses, ips: rows.map((row) => row.ip) };
}

describe('X-Forwarded-* count only from a configured proxy', () => {
  const limit = { login: { max: 3, timeWindow: 60_000 } };

  test('from an untrusted peer, a rotating X-Forwarded-For neither escapes the per-IP limit nor reaches the audit log', async () => {
    const server = await startServer({ rateLimits: limit, trustProxy: ['10.0.0.0/8'] });
    try {
      const { statuses, ips } = await rotatingForwardedFor(server);
      assert.deepEqual(statuses.slice(3), [429, 429], statuses.join());
      assert.ok(ips.length > 0 && ips.every((ip) => ip === '127.0.0.1'), ips.join());
    } finally {
      await server.stop();
    }
  });

  test('from a trusted proxy, its X-Forwarded-For is the client; its X-Forwarded-Host still does not make an origin ours', async () => {
    const server = await startServer({ rateLimits: limit, trustProxy: ['127.0.0.1'] });
    try {
      const { statuses, ips } = await rotatingForwardedFor(server);
      assert.ok(
        statuses.every((status) => status !== 429),
        statuses.join(),
      );
      assert.ok(ips.length > 0 && ips.every((ip) => ip?.startsWith('198.51.100.')), ips.join());
      const admin = await server.admin();
      const forged = await rawRequest(
        server.base,
        'POST',
        '/api/apps',
        {
          cookie: cookieOf(admin),
          'content-type': 'application/json',
          origin: 'http://evil.example',
          host: 'evil.example',
          'x-forwarded-host': 'evil.example',
        },
        JSON.stringify({ name: 'forged-host-app', callbackUrl: 'http://127.0.0.1:9/cb' }),
      );
      assert.equal(forged.status, 403, forged.text);
    } finally {
      await server.stop();
    }
  });
});

describe('redirect targets', () => {
  const ALLOWED = 'http://allowed.example';
  let server: TestServer;
  let admin: Client;
  before(async () => {
    server = await startServer({ corsOrigins: [ALLOWED] });
    admin = await server.admin();
  });
  after(async () => {
    await server.stop();
  });

  /** Where /cas/login sends a signed-in browser for this raw (already URL-encoded) query value. */
  const target = async (encoded: string) => {
    const answer = await admin.get<{ redirectURL: string }>(`/api/cas/login?redirect=${encoded}`);
    assert.equal(answer.status, 200, encoded);
    return answer.body.data.redirectURL;
  };

  const HOSTILE = [
    '%2F%09%2Fevil.example',
    '%2F%0a%2Fevil.example',
    '%2F%0d%2Fevil.example',
    '%2F%0D%0A%2Fevil.example',
    '%09%2F%2Fevil.example',
    '%2F%5Cevil.example',
    '%5C%5Cevil.example',
    encodeURIComponent('/\\evil.example'),
    encodeURIComponent('/\t/evil.example'),
    '%2F%2Fevil.example',
    '//evil.example',
    encodeURIComponent('///evil.example'),
    encodeURIComponent('/%2F/evil.example'),
    encodeURIComponent('/%2f%2fevil.example'),
    encodeURIComponent('/%09/evil.example'),
    encodeURIComponent('/%5Cevil.example'),
    encodeURIComponent('%2F%2Fevil.example'),
    'javascript:alert(1)',
    encodeURIComponent('JaVaScRiPt:alert(1)'),
    encodeURIComponent('java\tscript:alert(1)'),
    encodeURIComponent('data:text/html,<script>alert(1)</script>'),
    encodeURIComponent('vbscript:x'),
    encodeURIComponent('http://evil.example/'),
    encodeURIComponent('HTTPS://EVIL.EXAMPLE'),
    encodeURIComponent(`${ALLOWED}.evil.example/`),
    encodeURIComponent(`${ALLOWED}@evil.example/`),
    encodeURIComponent('evil.example'),
    encodeURIComponent(' /\u3000/evil.example'),
    encodeURIComponent('/\u00a0/evil.example'),
    encodeURIComponent('/\u2028/evil.example'),
    encodeURIComponent('/\u200b/evil.example'),
    encodeURIComponent('/\ufeff/evil.example'),
    encodeURIComponent('/\u0085/evil.example'),
    encodeURIComponent('/%zz'),
  ];

  test('every hostile variant ends on our home page', async () => {
    for (const encoded of HOSTILE) assert.equal(await target(encoded), '/', `redirect=${encoded}`);
    // A NUL character is refused with the whole request, before any redirect is considered.
    assert.equal((await admin.get(`/api/cas/login?redirect=${encodeURIComponent('/x\u0000')}`)).status, 400);
  });

  test('our paths, our origin and configured origins are kept as given', async () => {
    for (const kept of ['/', '/users?page=2&name=a%20b', '/apps/x#tab', `${server.base}/console`, `${ALLOWED}/after-login`]) {
      assert.equal(await target(encodeURIComponent(kept)), kept);
    }
  });

  test('the provider sends no one after sign-out to an unregistered post_logout_redirect_uri', async () => {
    const created = await admin.post<{ id: string }>('/api/apps', { name: 'logout-app', callbackUrl: 'http://127.0.0.1:9/cb' });
    await admin.post(`/api/apps/${created.body.data.id}/oidc-client/secret`);
    const query = new URLSearchParams({ client_id: created.body.data.id, post_logout_redirect_uri: 'http://evil.example/' });
    const answer = await fetch(`${server.base}/api/oidc/session/end?${query.toString()}`, { redirect: 'manual' });
    assert.equal(answer.status, 400);
    assert.equal(answer.headers.get('location'), null);
  });

  test('a signed-out browser is sent to the sign-in page with the cleaned target', async () => {
    const answer = await server.client().get<{ redirectURL: string }>('/api/cas/login?redirect=%2F%09%2Fevil.example');
    assert.equal(answer.body.data.redirectURL, '/login?redirect=%2F');
  });
});
