// Third-party sign-in against a real local OpenID Connect provider: start (PKCE, state, nonce),
// the provider's approval, our callback, the provider ticket, access info, complement, sign-in.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type Client, type TestServer } from './harness';
import { signInAtProvider, startIdentityProvider, type IdentityProvider } from './identity-provider';

let server: TestServer;
let admin: Client;
let idp: IdentityProvider;
const person = { sub: 'corp-alice', preferred_username: 'alice', name: 'Alice', email: 'alice@corp.example' };

before(async () => {
  server = await startServer({ outboundAllow: ['127.0.0.1'] });
  admin = await server.admin();
  idp = await startIdentityProvider(`${server.base}/api/interaction/idp/corp/authorize/callback`, person);
  const created = await admin.post('/api/idps', {
    code: 'corp',
    name: 'Corp SSO',
    type: 'OIDC',
    config: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: 'wrong-secret' },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
});
after(async () => {
  await idp.stop();
  await server.stop();
});

test('a wrong client secret at the provider ends at /infoComplete without a ticket', async () => {
  const landed = await signInAtProvider(server.client(), 'corp');
  assert.equal(landed.searchParams.get('access_ticket'), null);
  assert.match(landed.searchParams.get('error') ?? '', /did not confirm/);
});

test('the secret is write-only and an update keeps it unless retyped', async () => {
  const updated = await admin.put('/api/idps/corp', { name: 'Corp', config: { clientSecret: idp.clientSecret, scopes: 'openid profile email' } });
  assert.equal(updated.status, 200, JSON.stringify(updated.body));
  const renamed = await admin.put<{ name: string }>('/api/idps/corp', { name: 'Corp SSO', config: { clientSecret: '' } });
  assert.equal(renamed.body.data.name, 'Corp SSO');
  assert.ok(!JSON.stringify((await server.client().get('/api/idps')).body).includes(idp.clientSecret));
});

test('a first-time person completes their data, then later signs in at once', async () => {
  const browser = server.client();
  const landed = await signInAtProvider(browser, 'corp');
  assert.equal(landed.searchParams.get('idpCode'), 'corp');
  assert.equal(landed.searchParams.get('redirect'), '/profile/userInfo');
  const token = landed.searchParams.get('token')!;
  const ticket = landed.searchParams.get('access_ticket')!;
  const info = await browser.get<{ needComplement: boolean; complement: Record<string, string> }>(
    `/api/interaction/idp/corp/authorize/user/access/info/${token}?access_ticket=${ticket}`,
  );
  assert.equal(info.body.data.needComplement, true);
  assert.equal(info.body.data.complement.email, person.email);
  assert.equal(info.body.data.complement.preferred_username, 'alice');

  const done = await browser.post<{ loginSuccess: boolean }>(`/api/interaction/idp/corp/authorize/after/user/complement?access_ticket=${ticket}`, {
    username: 'alice',
    realName: 'Alice',
    email: person.email,
  });
  assert.equal(done.body.data.loginSuccess, true, JSON.stringify(done.body));
  assert.equal((await browser.get<{ user: { username: string } }>('/api/cas/session')).body.data.user.username, 'alice');

  const again = server.client();
  const second = await signInAtProvider(again, 'corp');
  const info2 = await again.get<{ needComplement: boolean }>(
    `/api/interaction/idp/corp/authorize/user/access/info/${second.searchParams.get('token')}?access_ticket=${second.searchParams.get('access_ticket')}`,
  );
  assert.equal(info2.body.data.needComplement, false, 'the subject is linked now');
});

test('the callback refuses a state it did not issue and a browser that did not start', async () => {
  const forged = await server.client().raw('GET', '/api/interaction/idp/corp/authorize/callback?code=x&state=forged');
  assert.match(forged.headers.get('location') ?? '', /^\/infoComplete\?idpCode=corp&error=/);

  // Started in one browser, finished in another: refused.
  const starter = server.client();
  const start = await starter.raw('GET', '/api/interaction/idp/corp/authorize');
  const authorize = new URL(start.headers.get('location')!);
  assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
  assert.ok(authorize.searchParams.get('nonce'));
  const state = authorize.searchParams.get('state')!;
  const other = await server.client().raw('GET', `/api/interaction/idp/corp/authorize/callback?code=x&state=${state}`);
  assert.match(other.headers.get('location') ?? '', /error=/);
  assert.equal((await server.client().raw('GET', '/api/interaction/idp/nope/authorize')).status, 404);
});
