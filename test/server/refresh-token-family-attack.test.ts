// An outside attacker's view of the token endpoint: a stolen refresh token replayed in a burst
// with the current one, presented by another app, kept alive across a change of the app's client
// type, revoked or introspected by another app; client authentication mixed; PKCE downgraded.
// Every test asserts the secure behaviour.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import { startServer, type Client, type TestServer, signedInPerson } from './harness';
import { RelyingParty, type Tokens } from './oidc-rp';

let server: TestServer;
let admin: Client;
let wiki: RelyingParty;
let mail: RelyingParty;
let serial = 0;
const offline = { prompt: 'consent' };
const insecure = { [oauth.allowInsecureRequests]: true };

before(async () => {
  server = await startServer();
  admin = await server.admin();
  wiki = await RelyingParty.register(server, admin, 'FamilyWiki');
  mail = await RelyingParty.register(server, admin, 'FamilyMail', 'http://127.0.0.1:9/mail-callback');
});
after(async () => {
  await server.stop();
});

function person() {
  return signedInPerson(server, admin, { username: `family-${++serial}`, realName: 'Family' });
}

const won = (answers: (Tokens | { error: string })[]) => answers.filter((answer): answer is Tokens => 'access_token' in answer);

async function assertDead(app: RelyingParty, tokens: Tokens, why: string) {
  assert.deepEqual(await app.refresh(tokens.refresh_token!), { error: 'invalid_grant' }, `refresh after ${why}`);
  assert.equal((await app.userinfo(tokens.access_token)).status, 401, `access token after ${why}`);
  assert.deepEqual(await app.introspectBothWays(tokens.access_token), { active: false }, `introspection after ${why}`);
}

/** POST to the token endpoint with a raw form body and headers: the status and the error code. */
async function tokenCall(form: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(wiki.as.token_endpoint!, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

test('a rotated-out refresh token replayed in a parallel burst of 10 with the current one: the whole family dies, no burst winner survives', async () => {
  for (let round = 0; round < 2; round++) {
    const { browser } = await person();
    const first = await wiki.signIn(browser, 'openid offline_access', offline);
    const current = (await wiki.refresh(first.refresh_token!)) as Tokens;
    const answers = await Promise.all([...Array.from({ length: 10 }, () => wiki.refresh(current.refresh_token!)), wiki.refresh(first.refresh_token!)]);
    const winners = won(answers);
    assert.ok(winners.length <= 1, `${winners.length} refreshes succeeded from one current token`);
    for (const answer of answers) if ('error' in answer) assert.equal(answer.error, 'invalid_grant');
    for (const tokens of [current, ...winners]) await assertDead(wiki, tokens, 'a replay inside the burst');
  }
});

test("another app presenting the app's refresh token gets invalid_grant and no tokens", async () => {
  const { browser } = await person();
  const tokens = await wiki.signIn(browser, 'openid offline_access', offline);
  assert.deepEqual(await mail.refresh(tokens.refresh_token!), { error: 'invalid_grant' });
  // Wiki's own credentials with mail's client_id in the body: refused, nothing issued.
  const mixed = await tokenCall(
    { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: mail.appId },
    { authorization: basic(wiki.appId, wiki.secret!) },
  );
  assert.equal(mixed.status, 400, JSON.stringify(mixed.body));
  assert.equal(mixed.body.access_token, undefined);
});

test('revocation by another app ends nothing of the token it did not receive', async () => {
  const { browser } = await person();
  const tokens = await wiki.signIn(browser, 'openid offline_access', offline);
  for (const token of [tokens.refresh_token!, tokens.access_token]) {
    const response = await oauth.revocationRequest(mail.as, mail.client, oauth.ClientSecretBasic(mail.secret!), token, insecure);
    assert.ok([200, 400].includes(response.status), `revocation by another app answered ${response.status}`);
  }
  assert.equal((await wiki.userinfo(tokens.access_token)).status, 200, "wiki's access token still works");
  assert.ok('access_token' in (await wiki.refresh(tokens.refresh_token!)), "wiki's refresh token still works");
});

test('client authentication given twice (Basic and client_secret in the body) is refused at the token endpoint and at introspection', async () => {
  const { browser } = await person();
  const tokens = await wiki.signIn(browser, 'openid offline_access', offline);
  const twice = await tokenCall(
    { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: wiki.appId, client_secret: wiki.secret! },
    { authorization: basic(wiki.appId, wiki.secret!) },
  );
  assert.equal(twice.status, 400, JSON.stringify(twice.body));
  assert.equal(twice.body.error, 'invalid_request');
  const introspected = await fetch(wiki.as.introspection_endpoint!, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(wiki.appId, wiki.secret!) },
    body: new URLSearchParams({ token: tokens.access_token, client_secret: wiki.secret! }),
  });
  assert.equal(introspected.status, 400);
  // The refused calls consumed nothing: the token still refreshes.
  assert.ok('access_token' in (await wiki.refresh(tokens.refresh_token!)));
});

test('another app (with its own valid secret, in the Authorization header) introspecting a rotated family learns nothing', async () => {
  const { browser } = await person();
  const first = await wiki.signIn(browser, 'openid offline_access', offline);
  const second = (await wiki.refresh(first.refresh_token!)) as Tokens;
  assert.deepEqual(await wiki.introspectBothWays(first.refresh_token!), { active: false }, 'a rotated-out refresh token is inactive');
  assert.equal((await wiki.introspectBothWays(second.refresh_token!)).active, true);
  assert.deepEqual(await mail.introspectBothWays(second.refresh_token!), { active: false });
  assert.deepEqual(await mail.introspectBothWays(second.access_token), { active: false });
});

test('PKCE cannot be downgraded: no code_challenge, or the plain method, is refused at the authorization endpoint', async () => {
  const { browser } = await person();
  for (const change of [{ code_challenge_method: 'plain' }, { drop: 'code_challenge' }] as const) {
    const request = await wiki.authorization('openid offline_access', offline);
    if ('drop' in change) {
      request.url.searchParams.delete('code_challenge');
      request.url.searchParams.delete('code_challenge_method');
    } else {
      request.url.searchParams.set('code_challenge', 'a'.repeat(43));
      request.url.searchParams.set('code_challenge_method', change.code_challenge_method);
    }
    const { url } = await wiki.follow(browser, request.url);
    assert.equal(url.searchParams.get('error'), 'invalid_request', `${JSON.stringify(change)}: ${url.href}`);
    assert.equal(url.searchParams.get('code'), null);
  }
});

test('the code exchange without the code_verifier is refused and spends the code', async () => {
  const { browser } = await person();
  const request = await wiki.authorization('openid offline_access', offline);
  const { url } = await wiki.follow(browser, request.url);
  const allowed = await browser.post<{ redirectURL: string }>(`/api/sso/interactions/${url.searchParams.get('uid')}`, { allow: true });
  const landed = await wiki.follow(browser, allowed.body.data.redirectURL);
  const code = landed.url.searchParams.get('code')!;
  const without = await tokenCall({ grant_type: 'authorization_code', code, redirect_uri: wiki.callback }, { authorization: basic(wiki.appId, wiki.secret!) });
  assert.equal(without.status, 400, JSON.stringify(without.body));
  await assert.rejects(wiki.exchange(landed.url, request.verifier, request.state), 'the code is spent after the refused exchange');
});

test('switching a confidential app to public ends the refresh tokens it issued: a stolen one cannot be refreshed without the secret', async () => {
  const app = await RelyingParty.register(server, admin, `FamilySwitch${++serial}`, 'http://127.0.0.1:9/switch-callback');
  const { browser } = await person();
  const tokens = await app.signIn(browser, 'openid offline_access', offline);
  const switched = await admin.put(`/api/apps/${app.appId}/oidc-client`, { clientType: 'public' });
  assert.equal(switched.status, 200, JSON.stringify(switched.body));
  // The thief has only the refresh token (the secret that guarded it is gone): public-client refresh.
  const response = await oauth.refreshTokenGrantRequest(app.as, app.client, oauth.None(), tokens.refresh_token!, insecure);
  const body = (await response.json()) as Record<string, unknown>;
  assert.equal(response.status, 400, `a confidential client's refresh token was refreshed with no client authentication: ${JSON.stringify(body)}`);
  assert.equal(body.error, 'invalid_grant');
});

test("rotating the app's secret: the old secret refreshes nothing", async () => {
  const app = await RelyingParty.register(server, admin, `FamilyRotate${++serial}`, 'http://127.0.0.1:9/rotate-callback');
  const { browser } = await person();
  const tokens = await app.signIn(browser, 'openid offline_access', offline);
  const rotated = await admin.post(`/api/apps/${app.appId}/oidc-client/secret`);
  assert.equal(rotated.status, 200);
  const old = await oauth.refreshTokenGrantRequest(app.as, app.client, oauth.ClientSecretBasic(app.secret!), tokens.refresh_token!, insecure);
  assert.equal(old.status, 401);
  assert.equal(((await old.json()) as { error: string }).error, 'invalid_client');
});

test('a refresh racing the console sign-out: nothing it returns outlives the sign-out', async () => {
  for (let round = 0; round < 3; round++) {
    const { browser } = await person();
    const tokens = await wiki.signIn(browser, 'openid offline_access', offline);
    const [refreshed] = await Promise.all([wiki.refresh(tokens.refresh_token!), browser.get('/api/cas/logout')]);
    if ('access_token' in refreshed) await assertDead(wiki, refreshed, 'a sign-out during the refresh');
    await assertDead(wiki, tokens, 'a sign-out during the refresh');
  }
});

for (const [how, end] of [
  [
    'disabled',
    async (app: RelyingParty) => {
      const { version } = (await admin.get<{ version: number }>(`/api/apps/${app.appId}`)).body.data;
      assert.equal((await admin.put(`/api/apps/${app.appId}`, { status: 2, version })).status, 200);
    },
  ],
  ['deleted', async (app: RelyingParty) => assert.equal((await admin.delete(`/api/apps/${app.appId}`)).status, 200)],
] as const) {
  test(`an app ${how}: its refresh and access tokens stop working, and it introspects nothing`, async () => {
    const app = await RelyingParty.register(server, admin, `FamilyEnded${++serial}`, 'http://127.0.0.1:9/ended-callback');
    const { browser } = await person();
    const tokens = await app.signIn(browser, 'openid offline_access', offline);
    await end(app);
    const refreshed = await oauth.refreshTokenGrantRequest(app.as, app.client, oauth.ClientSecretBasic(app.secret!), tokens.refresh_token!, insecure);
    assert.equal(refreshed.status, 401, `refresh of a ${how} app's token`);
    assert.equal((await app.userinfo(tokens.access_token)).status, 401);
    assert.equal((await app.introspectionResponse(tokens.access_token)).status, 401);
    assert.equal((await app.introspectionResponse(tokens.access_token, undefined, { secretInBody: true })).status, 401);
  });
}

test('a trusted app asking offline_access with prompt=consent gets no refresh token unless the person consented on the page', async () => {
  const app = await RelyingParty.register(server, admin, `FamilyTrusted${++serial}`, 'http://127.0.0.1:9/trusted-callback');
  assert.equal((await admin.put(`/api/apps/${app.appId}/oidc-client`, { trusted: true })).status, 200);
  const { browser } = await person();
  const request = await app.authorization('openid offline_access', offline);
  const { url } = await app.follow(browser, request.url);
  if (url.pathname === '/oauth/authorize') return; // the consent page was shown: the person decides
  const tokens = await app.exchange(url, request.verifier, request.state);
  assert.equal(tokens.refresh_token, undefined, 'a 14-day refresh token was issued for prompt=consent without any consent page');
});

test("a role taken away: the next refresh's ID token and userinfo no longer name it, nor its privileges", async () => {
  const app = await RelyingParty.register(server, admin, `FamilyRoles${++serial}`, 'http://127.0.0.1:9/roles-callback');
  const role = (await admin.post<{ id: string }>(`/api/apps/${app.appId}/roles`, { name: 'Approver' })).body.data;
  const privilege = (await admin.post<{ id: string }>(`/api/apps/${app.appId}/privileges`, { name: 'Approve', key: 'approve', parentId: null })).body.data;
  assert.equal((await admin.put(`/api/apps/${app.appId}/roles/${role.id}/privileges`, { privilegeIds: [privilege.id] })).status, 200);
  const { user, browser } = await person();
  assert.equal((await admin.put(`/api/apps/${app.appId}/roles/${role.id}/members`, { userIds: [user.id] })).status, 200);
  const tokens = await app.signIn(browser, 'openid roles offline_access', offline);
  assert.deepEqual((await app.userinfo(tokens.access_token)).body.roles, ['Approver'], 'the role is named while held');
  assert.equal((await admin.put(`/api/apps/${app.appId}/roles/${role.id}/members`, { userIds: [] })).status, 200);
  const refreshed = (await app.refresh(tokens.refresh_token!)) as Tokens;
  const idClaims = JSON.parse(Buffer.from(refreshed.id_token!.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
  assert.deepEqual([idClaims.roles ?? [], idClaims.privileges ?? []], [[], []], 'the refreshed ID token');
  const info = (await app.userinfo(refreshed.access_token)).body;
  assert.deepEqual([info.roles ?? [], info.privileges ?? []], [[], []], 'userinfo');
});
