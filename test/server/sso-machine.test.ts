// Machine clients: an app that switched the client_credentials grant on gets tokens for its own
// machines (no person), scoped to its own privilege keys, with itself as audience, checked through
// introspection by that app only; any other app gets unauthorized_client, and switching it off
// stops new tokens and the live ones.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer } from './harness';
import { RelyingParty } from './oidc-rp';

let server: TestServer;
let admin: Client;
let batch: RelyingParty;
let wiki: RelyingParty;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  batch = await RelyingParty.register(server, admin, 'Batch');
  wiki = await RelyingParty.register(server, admin, 'Wiki', 'http://127.0.0.1:9/wiki-callback');
  for (const [app, key] of [
    [batch, 'reports'],
    [batch, 'export'],
    [wiki, 'pages'],
  ] as const) {
    const made = await admin.post(`/api/apps/${app.appId}/privileges`, { name: `Privilege ${key}`, key });
    assert.equal(made.status, 200, JSON.stringify(made.body));
  }
});
after(async () => {
  await server.stop();
});

async function switchMachines(app: RelyingParty, clientCredentials: boolean) {
  const answer = await admin.put<{ clientCredentials: boolean }>(`/api/apps/${app.appId}/oidc-client`, { clientCredentials });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.equal(answer.body.data.clientCredentials, clientCredentials);
}

test('discovery lists the client_credentials grant', () => {
  assert.ok(batch.as.grant_types_supported?.includes('client_credentials'));
});

test('an app that did not switch it on gets unauthorized_client', async () => {
  assert.deepEqual(await wiki.machineToken({ scope: 'reports' }), { error: 'unauthorized_client' });
  assert.equal((await admin.get<{ clientCredentials: boolean }>(`/api/apps/${wiki.appId}/oidc-client`)).body.data.clientCredentials, false);
});

test('switched on: a token with the asked scopes of its own privileges, no person; only the app itself sees it active; userinfo refuses it', async () => {
  await switchMachines(batch, true);
  // Another app's privilege and a person scope are not the app's machine scopes: left out.
  const tokens = await batch.machineToken({ scope: 'reports export pages openid' });
  assert.ok('access_token' in tokens, JSON.stringify(tokens));
  assert.equal(tokens.scope, 'reports export');
  assert.equal(tokens.refresh_token, undefined);
  const seen = await batch.introspectBothWays(tokens.access_token);
  assert.equal(seen.active, true);
  assert.equal(seen.client_id, batch.appId);
  assert.equal(seen.aud, batch.appId);
  assert.equal(seen.scope, 'reports export');
  assert.equal(seen.sub, undefined, 'no person');
  // Hinted as an access token (RFC 7662 clients do): found as the machine token it is, whichever
  // hint (the machine-token read waits for the access-token read, server/oidc/read-ahead.ts).
  for (const hint of ['access_token', 'refresh_token'] as const) assert.deepEqual(await batch.introspectBothWays(tokens.access_token, hint), seen, hint);
  assert.deepEqual(await wiki.introspectBothWays(tokens.access_token), { active: false }, 'another app learns nothing');
  assert.equal((await batch.userinfo(tokens.access_token)).status, 401);
  // Other settings are kept when one is changed.
  assert.equal((await admin.get<{ clientCredentials: boolean }>(`/api/apps/${batch.appId}/oidc-client`)).body.data.clientCredentials, true);
  const uris = await admin.put<{ clientCredentials: boolean }>(`/api/apps/${batch.appId}/oidc-client`, { postLogoutRedirectUris: [] });
  assert.equal(uris.body.data.clientCredentials, true);
});

test("the app is the only resource: its own identifier is accepted, any other (another app's) is invalid_target", async () => {
  await switchMachines(batch, true);
  const own = await batch.machineToken({ resource: `urn:iam-console:app:${batch.appId}`, scope: 'export' });
  assert.ok('access_token' in own && own.scope === 'export', JSON.stringify(own));
  assert.deepEqual(await batch.machineToken({ resource: `urn:iam-console:app:${wiki.appId}`, scope: 'pages' }), { error: 'invalid_target' });
  assert.deepEqual(await batch.machineToken({ resource: 'https://api.example/' }), { error: 'invalid_target' });
});

test("a person's tokens are unchanged: no audience, opaque, userinfo works", async () => {
  const username = 'machine-bystander';
  assert.equal((await admin.post('/api/user', { username, realName: 'Bystander', password: transform('Secret123') })).status, 200);
  const browser = server.client();
  assert.equal((await browser.login(username, 'Secret123')).body.data?.loginSuccess, true);
  const tokens = await wiki.signIn(browser, 'openid profile');
  assert.equal((await wiki.userinfo(tokens.access_token)).status, 200);
  assert.equal((await wiki.introspectBothWays(tokens.access_token)).aud, undefined);
});

test('switched off: no new token, and the live ones are inactive', async () => {
  await switchMachines(batch, true);
  const tokens = await batch.machineToken();
  assert.ok('access_token' in tokens);
  await switchMachines(batch, false);
  assert.deepEqual(await batch.machineToken(), { error: 'unauthorized_client' });
  assert.deepEqual(await batch.introspectBothWays(tokens.access_token), { active: false });
});

test('the switch is checked: a non-boolean is refused, an app without a secret answers 409', async () => {
  const bad = await admin.put(`/api/apps/${batch.appId}/oidc-client`, { clientCredentials: 'yes' });
  assert.equal(bad.status, 400, JSON.stringify(bad.body));
  const created = await admin.post<{ id: string }>('/api/apps', { name: 'NoSecret', entrypoint: 'http://127.0.0.1:9/', callbackUrl: 'http://127.0.0.1:9/cb' });
  assert.equal((await admin.put(`/api/apps/${created.body.data.id}/oidc-client`, { clientCredentials: true })).status, 409);
});
