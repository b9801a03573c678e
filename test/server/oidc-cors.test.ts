// CORS preflights (OPTIONS) at the provider's client endpoints carry no client id, and oidc-provider
// lets every Origin through them; here they answer only the origins that may make the real call
// (server/oidc/cors.ts): a public client's redirect origins at token and revocation, any app's at
// userinfo, nobody at introspection; never `null`, never an unregistered origin.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './harness';
import { RelyingParty } from './oidc-rp';

const SPA = 'https://spa.example';
const WIKI = 'https://wiki.example';

let server: TestServer;
let spa: RelyingParty;

before(async () => {
  server = await startServer();
  const admin = await server.admin();
  spa = await RelyingParty.registerPublic(server, admin, 'CorsSpa', `${SPA}/callback`);
  await RelyingParty.register(server, admin, 'CorsWiki', `${WIKI}/callback`);
});
after(async () => {
  await server.stop();
});

/** The Access-Control-Allow-Origin of a preflight for a POST (GET at userinfo) from `origin`. */
async function preflight(url: string, origin: string): Promise<string | null> {
  const answer = await fetch(url, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, authorization' },
  });
  assert.ok(answer.status < 500, `${url}: ${answer.status}`);
  return answer.headers.get('access-control-allow-origin');
}

test('no preflight at token, userinfo, revocation or introspection lets in an unregistered origin or null', async () => {
  for (const url of [spa.as.token_endpoint!, spa.as.userinfo_endpoint!, spa.as.revocation_endpoint!, spa.as.introspection_endpoint!]) {
    for (const origin of ['https://evil.example', 'null', 'http://spa.example', `${SPA}:8443`]) {
      assert.equal(await preflight(url, origin), null, `${url} from ${origin}`);
    }
  }
});

test("a public client's origin passes the preflight where it may call: token, userinfo, revocation; not introspection", async () => {
  assert.equal(await preflight(spa.as.token_endpoint!, SPA), SPA);
  assert.equal(await preflight(spa.as.userinfo_endpoint!, SPA), SPA);
  assert.equal(await preflight(spa.as.revocation_endpoint!, SPA), SPA);
  assert.equal(await preflight(spa.as.introspection_endpoint!, SPA), null);
});

test("a confidential client's origin passes the preflight at userinfo only", async () => {
  assert.equal(await preflight(spa.as.userinfo_endpoint!, WIKI), WIKI);
  for (const url of [spa.as.token_endpoint!, spa.as.revocation_endpoint!, spa.as.introspection_endpoint!]) {
    assert.equal(await preflight(url, WIKI), null, url);
  }
});
