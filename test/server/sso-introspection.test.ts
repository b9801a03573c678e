// Token introspection: an app learns whether a token it holds is still good (active, whose, which
// scopes), for its own tokens only; revoked and expired tokens, and tokens of a person who can no
// longer sign in, are inactive.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import { startServer, transform, type Client, type TestServer } from './harness';
import { RelyingParty } from './oidc-rp';
import { oidcDb } from '../../server/oidc/tables';
import type { User } from '../../src/core/types';

let server: TestServer;
let admin: Client;
let wiki: RelyingParty;
let mail: RelyingParty;
let serial = 0;
const offline = { prompt: 'consent' };

before(async () => {
  server = await startServer();
  admin = await server.admin();
  wiki = await RelyingParty.register(server, admin, 'Wiki');
  mail = await RelyingParty.register(server, admin, 'Mail', 'http://127.0.0.1:9/mail-callback');
});
after(async () => {
  await server.stop();
});

async function person() {
  const username = `introspected-${++serial}`;
  const created = await admin.post<User>('/api/user', { username, realName: 'Introspected', password: transform('Secret123') });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const browser = server.client();
  assert.equal((await browser.login(username, 'Secret123')).body.data?.loginSuccess, true);
  return { user: created.body.data, browser };
}

test('discovery advertises the introspection endpoint', () => {
  assert.equal(wiki.as.introspection_endpoint, `${wiki.as.issuer}/token/introspection`);
});

test('the app introspects its own access and refresh tokens: active, whose, which scopes', async () => {
  const { user, browser } = await person();
  const tokens = await wiki.signIn(browser, 'openid profile offline_access', offline);
  const access = await wiki.introspect(tokens.access_token);
  assert.equal(access.active, true);
  assert.equal(access.sub, user.id);
  assert.equal(access.client_id, wiki.appId);
  assert.equal(access.token_type, 'Bearer');
  assert.deepEqual(access.scope!.split(' ').sort(), ['offline_access', 'openid', 'profile']);
  const refresh = await wiki.introspect(tokens.refresh_token!);
  assert.equal(refresh.active, true);
  assert.equal(refresh.client_id, wiki.appId);
});

test('another app introspecting the token learns nothing: active false', async () => {
  const { browser } = await person();
  const tokens = await wiki.signIn(browser, 'openid profile offline_access', offline);
  assert.deepEqual(await mail.introspect(tokens.access_token), { active: false });
  assert.deepEqual(await mail.introspect(tokens.refresh_token!), { active: false });
  assert.equal((await wiki.introspect(tokens.access_token)).active, true, 'still active for its own app');
});

test('a wrong client secret is refused (invalid_client)', async () => {
  const { browser } = await person();
  const tokens = await wiki.signIn(browser);
  const response = await oauth.introspectionRequest(wiki.as, wiki.client, oauth.ClientSecretBasic('not-the-secret'), tokens.access_token, {
    [oauth.allowInsecureRequests]: true,
  });
  assert.equal(response.status, 401);
  assert.equal(((await response.json()) as { error: string }).error, 'invalid_client');
});

test('revoked tokens (the person signed out of the console) are inactive', async () => {
  const { browser } = await person();
  const tokens = await wiki.signIn(browser, 'openid offline_access', offline);
  assert.equal((await browser.get('/api/cas/logout')).status, 200);
  assert.deepEqual(await wiki.introspect(tokens.access_token), { active: false });
  assert.deepEqual(await wiki.introspect(tokens.refresh_token!), { active: false });
});

test('an expired access token is inactive', async () => {
  const { browser } = await person();
  const tokens = await wiki.signIn(browser);
  await oidcDb(server.app.ctx.db)
    .updateTable('oidcPayloads')
    .set({ expiresAt: Date.now() - 1000 })
    .where('model', '=', 'AccessToken')
    .where('id', '=', tokens.access_token)
    .execute();
  assert.deepEqual(await wiki.introspect(tokens.access_token), { active: false });
});

test("a person disabled since (even behind the console's back, nothing revoked) makes their tokens inactive", async () => {
  const { user, browser } = await person();
  const tokens = await wiki.signIn(browser, 'openid offline_access', offline);
  await server.app.ctx.db.updateTable('users').set({ availabilityStatus: 2 }).where('id', '=', user.id).execute();
  assert.deepEqual(await wiki.introspect(tokens.access_token), { active: false });
  assert.deepEqual(await wiki.introspect(tokens.refresh_token!), { active: false });
  // The person's state comes with the token in one statement (server/oidc/read-ahead.ts): a refresh
  // reads it fresh too, and is refused.
  assert.deepEqual(await wiki.refresh(tokens.refresh_token!), { error: 'invalid_grant' });
});

test("a person deleted behind the console's back: their tokens are inactive and their refresh token refused", async () => {
  const { user, browser } = await person();
  const tokens = await wiki.signIn(browser, 'openid offline_access', offline);
  assert.equal((await wiki.introspect(tokens.access_token)).active, true);
  // The tokens' rows stay (nothing revoked): only the person is gone.
  await server.app.ctx.db.deleteFrom('sessions').where('userId', '=', user.id).execute();
  await server.app.ctx.db.deleteFrom('users').where('id', '=', user.id).execute();
  assert.deepEqual(await wiki.introspect(tokens.access_token, 'access_token'), { active: false });
  assert.deepEqual(await wiki.introspect(tokens.refresh_token!, 'refresh_token'), { active: false });
  assert.deepEqual(await wiki.refresh(tokens.refresh_token!), { error: 'invalid_grant' });
});

test("a token whose grant or provider session ended behind the provider's back (another process, the sweep) is inactive", async () => {
  const db = oidcDb(server.app.ctx.db);
  // An access token without offline_access ends with the provider session: that row alone goes.
  const bound = await person();
  const session = (await wiki.signIn(bound.browser)).access_token;
  for (const hint of [undefined, 'access_token'] as const) assert.equal((await wiki.introspect(session, hint)).active, true);
  await db.deleteFrom('oidcPayloads').where('model', '=', 'Session').where('accountId', '=', bound.user.id).execute();
  for (const hint of [undefined, 'access_token'] as const) assert.deepEqual(await wiki.introspect(session, hint), { active: false });

  // Offline tokens live with their grant: that row alone goes.
  const offlinePerson = await person();
  const tokens = await wiki.signIn(offlinePerson.browser, 'openid offline_access', offline);
  const { grantId } = await db
    .selectFrom('oidcPayloads')
    .select('grantId')
    .where('model', '=', 'AccessToken')
    .where('id', '=', tokens.access_token)
    .executeTakeFirstOrThrow();
  await db.deleteFrom('oidcPayloads').where('model', '=', 'Grant').where('id', '=', grantId).execute();
  assert.deepEqual(await wiki.introspect(tokens.access_token, 'access_token'), { active: false });
  assert.deepEqual(await wiki.introspect(tokens.refresh_token!, 'refresh_token'), { active: false });
  assert.deepEqual(await wiki.refresh(tokens.refresh_token!), { error: 'invalid_grant' });
});
