// The outsider's suite: hostile headers on every state-changing call of /api/openapi.json, riding
// on a signed-in administrator's cookie. A forged Origin, a forged Host, forged X-Forwarded-Host /
// -Proto / -For — with no proxy configured, with one configured that the caller is not, and with
// the caller being the trusted proxy — never pass the CSRF check (403 in the envelope, with the
// security headers), never change stored data, never put a forged address in the audit log, and
// never move the OIDC issuer.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, startServer, type Client, type TestServer } from './harness';
import type { ServerOptions } from '../../server/config';
import { changesState, fillPath, rawRequest, readOperations, snapshot, type Operation } from './security-support';

const EVIL = 'evil.example';
const FORGED_IP = '203.0.113.66';

/** Every forged shape; `port` is the server's, so a forged Host can name it exactly. */
function hostileHeaders(port: string): { name: string; headers: Record<string, string> }[] {
  return [
    { name: 'foreign Origin', headers: { origin: `http://${EVIL}` } },
    { name: 'forged Host matching the Origin', headers: { host: EVIL, origin: `http://${EVIL}` } },
    { name: 'forged Host with our port', headers: { host: `${EVIL}:${port}`, origin: `http://${EVIL}:${port}` } },
    { name: 'forged X-Forwarded-Host matching the Origin', headers: { 'x-forwarded-host': EVIL, origin: `http://${EVIL}` } },
    { name: 'forged X-Forwarded-Host and -Proto', headers: { 'x-forwarded-host': EVIL, 'x-forwarded-proto': 'https', origin: `https://${EVIL}` } },
    { name: 'forged X-Forwarded-Proto on our own host', headers: { 'x-forwarded-proto': 'https', origin: `https://127.0.0.1:${port}` } },
    { name: 'forged X-Forwarded-For', headers: { 'x-forwarded-for': FORGED_IP, origin: `http://${EVIL}` } },
    {
      name: 'all forged together',
      headers: { host: EVIL, 'x-forwarded-host': EVIL, 'x-forwarded-proto': 'https', 'x-forwarded-for': `${FORGED_IP}, 10.0.0.1`, origin: `https://${EVIL}` },
    },
  ];
}

const SETUPS: { name: string; options: ServerOptions; ownOrigin?: string; callerTrusted: boolean }[] = [
  { name: 'no proxy trusted', options: {}, callerTrusted: false },
  { name: 'a proxy trusted, the caller is not it', options: { trustProxy: ['10.0.0.0/8'] }, callerTrusted: false },
  { name: 'the caller is the trusted proxy', options: { trustProxy: ['127.0.0.1'] }, callerTrusted: true },
  {
    name: 'the trusted proxy, IAM_PUBLIC_URL set',
    options: { trustProxy: ['loopback'], publicUrl: 'https://iam.example.com' },
    ownOrigin: 'https://iam.example.com',
    callerTrusted: true,
  },
];

const cookieOf = (client: Client) => [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');

for (const setup of SETUPS) {
  describe(`outsider headers: ${setup.name}`, () => {
    let server: TestServer;
    let admin: Client;
    let operations: Operation[] = [];
    before(async () => {
      server = await startServer(setup.options);
      admin = server.client({ origin: setup.ownOrigin ?? server.base });
      await admin.login(ADMIN.username, ADMIN.password);
      // The SAML HTTP-POST bindings are posted by other sites by design (test/server/csrf.test.ts names them).
      operations = (await readOperations(server.base)).filter((operation) => changesState(operation) && !operation.crossSite);
    });
    after(async () => {
      await server.stop();
    });

    test('every state-changing call is refused, changes nothing, logs no forged address, moves no issuer', async () => {
      assert.ok(operations.length >= 40, `only ${operations.length} state-changing operations`);
      const issuer = `${setup.ownOrigin ?? server.base}/api/oidc`;
      const stored = await snapshot(server.app);
      const cookie = cookieOf(admin);
      let requests = 0;
      for (const operation of operations) {
        const path = fillPath(operation.path, () => 'x0000000000000000000000000000000');
        const body = operation.multipart ? undefined : '{}';
        for (const { name, headers } of hostileHeaders(new URL(server.base).port)) {
          const answer = await rawRequest(
            server.base,
            operation.method,
            path,
            { cookie, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
            body,
          );
          requests += 1;
          const where = `${operation.method} ${operation.path} (${name}) → ${answer.status} ${answer.text.slice(0, 160)}`;
          assert.equal(answer.status, 403, where);
          const envelope = JSON.parse(answer.text) as { code: number; message: string; data: unknown };
          assert.equal(envelope.code, 403, where);
          assert.match(envelope.message, /Cross-site request refused/, where);
          assert.equal(answer.headers['x-content-type-options'], 'nosniff', where);
          assert.match(String(answer.headers['content-security-policy']), /default-src 'self'/, where);
        }
      }
      assert.deepEqual(await snapshot(server.app), stored, 'a refused call changed stored data');
      const forged = await server.app.ctx.db.selectFrom('auditLog').select(['action', 'ip']).where('ip', 'like', `%${FORGED_IP}%`).execute();
      assert.deepEqual(forged, [], 'a forged address reached the audit log');
      const discovery = await rawRequest(server.base, 'GET', '/api/oidc/.well-known/openid-configuration', {
        host: EVIL,
        'x-forwarded-host': EVIL,
        'x-forwarded-proto': 'https',
      });
      assert.equal((JSON.parse(discovery.text) as { issuer: string }).issuer, issuer);
      console.log(`outsider headers (${setup.name}): ${requests} hostile requests over ${operations.length} operations, all refused`);
    });

    test('the same cookie from our own origin goes through (the refusal is the headers’)', async () => {
      const own = await rawRequest(
        server.base,
        'PUT',
        '/api/messages/read',
        { cookie: cookieOf(admin), origin: setup.ownOrigin ?? server.base, 'content-type': 'application/json' },
        '{}',
      );
      assert.equal(own.status, 200, own.text);
    });

    test(`a sign-in's audited address is the forwarded one only from the trusted proxy`, async () => {
      const client = server.client({ origin: setup.ownOrigin ?? server.base });
      const answer = await client.login(ADMIN.username, ADMIN.password, {}, { 'x-forwarded-for': FORGED_IP });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const row = await server.app.ctx.db
        .selectFrom('auditLog')
        .select('ip')
        .where('action', '=', 'login.success')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      assert.equal(row.ip, setup.callerTrusted ? FORGED_IP : '127.0.0.1');
    });
  });
}
