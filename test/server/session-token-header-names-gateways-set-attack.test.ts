// The session token header's name (authConfig.tokenName) must be one nothing else on the way sets:
// the rule (src/core/validation/token-header.ts) asks for a credential word and keeps the families
// of identity-aware proxies reserved. API gateways in front of a console add headers of their own
// that carry that very word, overwriting what the browser sent: Kong's key-auth/jwt plugins
// (X-Credential-Identifier), the kong-oidc plugin (X-Access-Token, X-ID-Token), WSO2 API Manager
// (X-JWT-Assertion), Vercel's functions (X-Vercel-OIDC-Token) and AWS SigV4 signing proxies
// (X-Amz-Security-Token). A console whose token header is one of these loses every session to the
// gateway's value.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type Client, type TestServer } from './harness';

let server: TestServer;
let admin: Client;

before(async () => {
  server = await startServer();
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

async function saveTokenName(tokenName: string) {
  const { version } = (await admin.get<{ version: number }>('/api/config')).body.data;
  return admin.put('/api/config', { settings: { authConfig: { authType: 'token', tokenName } }, version });
}

test('headers API gateways set on every request they forward are refused as the session token header (400)', async () => {
  const accepted: string[] = [];
  for (const name of ['X-Credential-Identifier', 'X-Access-Token', 'X-ID-Token', 'X-JWT-Assertion', 'X-Vercel-OIDC-Token', 'X-Amz-Security-Token']) {
    const answer = await saveTokenName(name);
    if (answer.status === 200) accepted.push(name);
    else assert.equal(answer.status, 400, `${name}: ${JSON.stringify(answer.body)}`);
  }
  if (accepted.length) assert.equal((await saveTokenName('token')).status, 200);
  assert.deepEqual(accepted, [], 'gateway-set headers accepted as the session token header');
});

test('a name of our own that says what it carries is accepted (the rule still lets the operator choose)', async () => {
  const answer = await saveTokenName('X-Console-Session-Token');
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.equal((await saveTokenName('token')).status, 200);
});
