// CSRF over every state-changing operation of /api/openapi.json: a call that rides on the
// administrator's session cookie is refused (403, the envelope) and changes nothing when it comes
// from another site — a foreign Origin, the literal "null" Origin (sandboxed frames), no Origin
// but a foreign Referer, or neither header (server/auth/gate.ts: such a request is not a
// same-origin browser's). The document is read at run time, so new routes are covered too. The
// protocol bindings that other sites' pages post to by design (SAML's HTTP-POST binding) are the
// only exception, named here.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type Client, type TestServer } from './harness';
import {
  changesState,
  fillPath,
  otherSideBody,
  otherSideParam,
  readOperations,
  seedTwoSides,
  snapshot,
  type Operation,
  type TwoSides,
} from './security-support';

const ALLOWED = 'http://allowed.example';

const CROSS_SITE: { name: string; headers: Record<string, string> }[] = [
  { name: 'foreign Origin', headers: { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' } },
  { name: 'Origin null', headers: { origin: 'null', 'sec-fetch-site': 'cross-site' } },
  { name: 'foreign Referer, no Origin', headers: { referer: 'http://evil.example/page', 'sec-fetch-site': 'cross-site' } },
  { name: 'configured origin as a Referer prefix only', headers: { origin: `${ALLOWED}.evil.example` } },
  { name: 'neither Origin nor Referer', headers: {} },
];

let server: TestServer;
let admin: Client;
let sides: TwoSides;
let operations: Operation[] = [];
let crossSite: string[] = [];
const tally = { operations: 0, requests: 0, refused: 0, serverErrors: 0 };

before(async () => {
  server = await startServer({ corsOrigins: [ALLOWED] });
  admin = await server.admin();
  sides = await seedTwoSides(server, admin);
  const changing = (await readOperations(server.base)).filter(changesState);
  operations = changing.filter((operation) => !operation.crossSite);
  crossSite = changing.filter((operation) => operation.crossSite).map((operation) => `${operation.method} ${operation.path}`);
});
after(async () => {
  console.log(
    `csrf: ${tally.requests} cross-site requests over ${tally.operations} state-changing operations, ${tally.refused} refused, ${tally.serverErrors} answers ≥ 500`,
  );
  await server.stop();
});

/** The call as a forged request would make it: real ids (so the handler would act if reached), a valid body. */
function forged(operation: Operation, headers: Record<string, string>) {
  const path = fillPath(operation.path, (name) => otherSideParam(sides, operation.path, name));
  const body = operation.multipart ? undefined : otherSideBody(sides, operation, 'Admin123!');
  const cookie = [...admin.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  return fetch(server.base + path, {
    method: operation.method,
    headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
    redirect: 'manual',
  });
}

describe('CSRF', () => {
  test('the document lists the state-changing calls; the only ones other sites may post to are the SAML bindings', () => {
    assert.ok(operations.length >= 40, `only ${operations.length} state-changing operations`);
    assert.deepEqual(crossSite.sort(), ['POST /api/saml/slo', 'POST /api/saml/sso']);
  });

  test('every state-changing call with the session cookie from another site is refused and changes nothing', async () => {
    const before = await snapshot(server.app);
    for (const operation of operations) {
      tally.operations += 1;
      for (const { name, headers } of CROSS_SITE) {
        const response = await forged(operation, headers);
        const text = await response.text();
        tally.requests += 1;
        if (response.status >= 500) tally.serverErrors += 1;
        const where = `${operation.method} ${operation.path} (${name}) → ${response.status} ${text.slice(0, 200)}`;
        assert.equal(response.status, 403, where);
        const envelope = JSON.parse(text) as { code: number; message: string; data: unknown };
        assert.equal(envelope.code, 403, where);
        assert.match(envelope.message, /Cross-site request refused/, where);
        tally.refused += 1;
      }
    }
    assert.deepEqual(await snapshot(server.app), before, 'a refused cross-site call changed stored data');
    // The cookie itself was good all along: the same session still works from our own origin.
    assert.equal((await admin.get('/api/cas/session')).status, 200);
  });

  test('the same cookie call from our own origin or a configured one goes through (the refusal is the origin’s)', async () => {
    const own = await admin.request('PUT', '/api/messages/read', {});
    assert.equal(own.status, 200, JSON.stringify(own.body));
    const configured = await admin.request('PUT', '/api/messages/read', {}, { origin: ALLOWED });
    assert.equal(configured.status, 200, JSON.stringify(configured.body));
    const viaReferer = await admin.request('PUT', '/api/messages/read', {}, { origin: '', referer: `${server.base}/operate/user` });
    assert.equal(viaReferer.status, 200, `same-site Referer without Origin: ${JSON.stringify(viaReferer.body)}`);
  });

  test('signing in from another site is refused too (login CSRF), with or without a cookie', async () => {
    const stranger = server.client({ origin: 'http://evil.example' });
    const answer = await stranger.login('admin', 'Admin123!');
    assert.equal(answer.status, 403);
    assert.equal(stranger.cookies.size, 0, 'no session cookie for a cross-site sign-in');
  });
});
