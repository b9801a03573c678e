// Token introspection: an app learns whether a token it holds is still good (active, whose, which
// scopes), for its own tokens only; revoked and expired tokens, and tokens of a person who can no
// longer sign in, are inactive.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import { startServer, type Client, type TestServer, signedInPerson } from './harness';
import { RelyingParty } from './oidc-rp';
import { oidcDb } from '../../server/oidc/tables';
import { OidcProvider } from '../../server/oidc/provider';

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

function person() {
  return signedInPerson(server, admin, { username: `introspected-${++serial}`, realName: 'Introspected' });
}

test('discovery advertises the introspection endpoint', () => {
  assert.equal(wiki.as.introspection_endpoint, `${wiki.as.issuer}/token/introspection`);
});

test('the app introspects its own access and refresh tokens: active, whose, which scopes', async () => {
  const { user, browser } = await person();
  const tokens = await wiki.signIn(browser, 'openid profile offline_access', offline);
  const access = await wiki.introspectBothWays(tokens.access_token);
  assert.equal(access.active, true);
  assert.equal(access.sub, user.id);
  assert.equal(access.client_id, wiki.appId);
  assert.equal(access.token_type, 'Bearer');
  assert.deepEqual(access.scope!.split(' ').sort(), ['offline_access', 'openid', 'profile']);
  const refresh = await wiki.introspectBothWays(tokens.refresh_token!);
  assert.equal(refresh.active, true);
  assert.equal(refresh.client_id, wiki.appId);
});

test('another app introspecting the token learns nothing: active false', async () => {
  const { browser } = await person();
  const tokens = await wiki.signIn(browser, 'openid profile offline_access', offline);
  assert.deepEqual(await mail.introspectBothWays(tokens.access_token), { active: false });
  assert.deepEqual(await mail.introspectBothWays(tokens.refresh_token!), { active: false });
  assert.equal((await wiki.introspectBothWays(tokens.access_token)).active, true, 'still active for its own app');
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
  assert.deepEqual(await wiki.introspectBothWays(tokens.access_token), { active: false });
  assert.deepEqual(await wiki.introspectBothWays(tokens.refresh_token!), { active: false });
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
  assert.deepEqual(await wiki.introspectBothWays(tokens.access_token), { active: false });
});

test("a person disabled since (even behind the console's back, nothing revoked) makes their tokens inactive", async () => {
  const { user, browser } = await person();
  const tokens = await wiki.signIn(browser, 'openid offline_access', offline);
  await server.app.ctx.db.updateTable('users').set({ availabilityStatus: 2 }).where('id', '=', user.id).execute();
  assert.deepEqual(await wiki.introspectBothWays(tokens.access_token), { active: false });
  assert.deepEqual(await wiki.introspectBothWays(tokens.refresh_token!), { active: false });
  // The person's state comes with the token in one statement (server/oidc/read-ahead.ts): a refresh
  // reads it fresh too, and is refused.
  assert.deepEqual(await wiki.refresh(tokens.refresh_token!), { error: 'invalid_grant' });
});

test("a person deleted behind the console's back: their tokens are inactive and their refresh token refused", async () => {
  const { user, browser } = await person();
  const tokens = await wiki.signIn(browser, 'openid offline_access', offline);
  assert.equal((await wiki.introspectBothWays(tokens.access_token)).active, true);
  // The tokens' rows stay (nothing revoked): only the person is gone.
  await server.app.ctx.db.deleteFrom('sessions').where('userId', '=', user.id).execute();
  await server.app.ctx.db.deleteFrom('users').where('id', '=', user.id).execute();
  assert.deepEqual(await wiki.introspectBothWays(tokens.access_token, 'access_token'), { active: false });
  assert.deepEqual(await wiki.introspectBothWays(tokens.refresh_token!, 'refresh_token'), { active: false });
  assert.deepEqual(await wiki.refresh(tokens.refresh_token!), { error: 'invalid_grant' });
});

test("a token whose grant or provider session ended behind the provider's back (another process, the sweep) is inactive", async () => {
  const db = oidcDb(server.app.ctx.db);
  // An access token without offline_access ends with the provider session: that row alone goes.
  const bound = await person();
  const session = (await wiki.signIn(bound.browser)).access_token;
  for (const hint of [undefined, 'access_token'] as const) assert.equal((await wiki.introspectBothWays(session, hint)).active, true);
  await db.deleteFrom('oidcPayloads').where('model', '=', 'Session').where('accountId', '=', bound.user.id).execute();
  for (const hint of [undefined, 'access_token'] as const) assert.deepEqual(await wiki.introspectBothWays(session, hint), { active: false });

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
  assert.deepEqual(await wiki.introspectBothWays(tokens.access_token, 'access_token'), { active: false });
  assert.deepEqual(await wiki.introspectBothWays(tokens.refresh_token!, 'refresh_token'), { active: false });
  assert.deepEqual(await wiki.refresh(tokens.refresh_token!), { error: 'invalid_grant' });
});

/** How many requests oidc-provider's own (Koa) application handled while `work` ran. */
async function providerRequests(work: () => Promise<unknown>): Promise<number> {
  const koa = (await OidcProvider.of(server.app.ctx).get()).app;
  const createContext = koa.createContext.bind(koa);
  let count = 0;
  koa.createContext = (...args) => {
    count += 1;
    return createContext(...args);
  };
  try {
    await work();
  } finally {
    delete (koa as Partial<typeof koa>).createContext;
  }
  return count;
}

test("the app's secret in the Authorization header is answered by the server itself, in the body by oidc-provider", async () => {
  const { browser } = await person();
  const tokens = await wiki.signIn(browser);
  assert.equal(await providerRequests(() => wiki.introspect(tokens.access_token)), 0);
  assert.equal(await providerRequests(() => wiki.introspectionResponse(tokens.access_token, undefined, { secretInBody: true })), 1);
  // A browser's request (it has an Origin) and a wrong secret go to the provider too.
  const basic = `Basic ${Buffer.from(`${wiki.appId}:${wiki.secret}`).toString('base64')}`;
  const post = (headers: Record<string, string>) =>
    fetch(wiki.as.introspection_endpoint!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: `token=${tokens.access_token}`,
    });
  assert.equal(await providerRequests(() => post({ authorization: basic, origin: 'http://127.0.0.1:9' })), 1);
  assert.equal(await providerRequests(() => post({ authorization: `Basic ${Buffer.from(`${wiki.appId}:wrong`).toString('base64')}` })), 1);
});

test('odd and hostile requests get the answer oidc-provider gives them, to the byte', async () => {
  const { browser } = await person();
  const tokens = await wiki.signIn(browser, 'openid offline_access', offline);
  const jwtShaped = `${Buffer.from('{"alg":"RS256"}').toString('base64url')}.e30.c2ln`;
  const basic = `Basic ${Buffer.from(`${wiki.appId}:${wiki.secret}`).toString('base64')}`;
  const post = async (body: string, headers: Record<string, string>) => {
    const response = await fetch(wiki.as.introspection_endpoint!, { method: 'POST', headers, body });
    return { status: response.status, body: await response.text() };
  };
  const requests: { body: string; type?: string }[] = [
    { body: `token=${tokens.access_token}&token=${tokens.access_token}` },
    { body: `token=${tokens.access_token}&token_type_hint=a&token_type_hint=b` },
    { body: `token=${tokens.access_token}&unknown=1&unknown=2` },
    { body: 'token=&token_type_hint=access_token' },
    { body: '' },
    { body: `token=${jwtShaped}` },
    { body: `token=${tokens.access_token}`, type: 'text/plain' },
    { body: `token=${tokens.access_token}`, type: 'application/json' },
    { body: `token=${'a'.repeat(60 * 1024)}` },
    { body: `token=${tokens.refresh_token}&token_type_hint=urn:ietf:params:oauth:token-type:refresh_token` },
    { body: `token=${tokens.refresh_token}&token_type_hint=id_token` },
    { body: `token=${encodeURIComponent(`${tokens.access_token}\u0000`)}` },
  ];
  for (const { body, type = 'application/x-www-form-urlencoded' } of requests) {
    // The same request with the secret in the body goes to oidc-provider.
    const secretInBody = `${body}${body ? '&' : ''}client_id=${wiki.appId}&client_secret=${wiki.secret}`;
    const [direct, provider] = await Promise.all([post(body, { authorization: basic, 'content-type': type }), post(secretInBody, { 'content-type': type })]);
    assert.deepEqual(direct, provider, `${type}: ${body.slice(0, 120)}`);
  }
  // Client parameters in the body beside the header: what oidc-provider answers.
  const refused = async (body: string, description: string) =>
    assert.deepEqual(await post(body, { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }), {
      status: 400,
      body: JSON.stringify({ error: 'invalid_request', error_description: description }),
    });
  await refused(`token=${tokens.access_token}&client_id=${mail.appId}`, 'client_id mismatch');
  // A NUL names nothing (PostgreSQL's text cannot hold one): the provider's own client lookup too.
  const nul = await post(`token=${tokens.access_token}&client_id=${wiki.appId}%00&client_secret=${wiki.secret}`, {
    'content-type': 'application/x-www-form-urlencoded',
  });
  assert.deepEqual([nul.status, JSON.parse(nul.body).error], [401, 'invalid_client']);
  await refused(`token=${tokens.access_token}&client_secret=${wiki.secret}`, 'client authentication must only be provided using one mechanism');
  await refused(`token=${tokens.access_token}&client_id=${wiki.appId}&client_id=${wiki.appId}`, "'client_id' parameter must not be provided twice");
  assert.equal(
    JSON.parse(
      (await post(`token=${tokens.access_token}&client_id=${wiki.appId}`, { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' })).body,
    ).active,
    true,
  );
});
