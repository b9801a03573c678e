// Our OpenID Connect provider, driven by a real relying party (openid-client): discovery, the
// authorization code flow with PKCE through the consent calls, userinfo, refresh, client secrets.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import { startServer, type Client, type TestServer } from './harness';

let server: TestServer;
let admin: Client;
let appId: string;
const callback = 'http://127.0.0.1:9/callback';

before(async () => {
  server = await startServer();
  admin = await server.admin();
  const created = await admin.post<{ id: string }>('/api/apps', { name: 'Wiki', entrypoint: 'http://127.0.0.1:9/', callbackUrl: callback });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  appId = created.body.data.id;
});
after(async () => {
  await server.stop();
});

async function newSecret() {
  const answer = await admin.post<{ clientSecret: string; issuer: string }>(`/api/apps/${appId}/oidc-client/secret`);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data;
}

const discover = (issuer: string, secret: string) => oidc.discovery(new URL(issuer), appId, secret, undefined, { execute: [oidc.allowInsecureRequests] });

/** Follows the provider's redirects with the browser-like client until it lands on the app. */
async function follow(client: Client, location: string): Promise<URL> {
  let next = new URL(location, server.base);
  for (let hop = 0; hop < 10 && next.origin === server.base; hop++) {
    const response = await client.raw('GET', next.pathname + next.search);
    const target = response.headers.get('location');
    assert.ok(target, `no redirect from ${next.pathname}: ${response.status} ${await response.text()}`);
    next = new URL(target, next);
    if (next.pathname === '/oauth/authorize') return next;
  }
  return next;
}

test('discovery document and JWKS are published under the issuer', async () => {
  const { issuer } = await newSecret();
  assert.equal(issuer, `${server.base}/api/oidc`);
  const document = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
  assert.equal(document.issuer, issuer);
  assert.deepEqual(document.code_challenge_methods_supported, ['S256']);
  const jwks = (await (await fetch(String(document.jwks_uri))).json()) as { keys: { kty: string; d?: string }[] };
  assert.equal(jwks.keys[0]?.kty, 'RSA');
  assert.equal(jwks.keys[0]?.d, undefined, 'the private part is never published');
});

test('an app signs a user in with the code flow and PKCE, reads userinfo and refreshes', async () => {
  const { issuer, clientSecret } = await newSecret();
  const config = await discover(issuer, clientSecret);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const challenge = { code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' };
  // A refresh token is asked with offline_access, which counts with prompt=consent only.
  const authorize = oidc.buildAuthorizationUrl(config, {
    redirect_uri: callback,
    scope: 'openid profile email offline_access',
    prompt: 'consent',
    state,
    ...challenge,
  });
  const silent = oidc.buildAuthorizationUrl(config, { redirect_uri: callback, scope: 'openid profile email', state, ...challenge });

  const browser = await server.admin();
  const consentPage = await follow(browser, authorize.href);
  assert.equal(consentPage.pathname, '/oauth/authorize');
  const uid = consentPage.searchParams.get('uid')!;
  const details = await browser.get<{ clientName: string; scopes: string[] }>(`/api/sso/interactions/${uid}`);
  assert.equal(details.body.data.clientName, 'Wiki');
  assert.deepEqual(details.body.data.scopes, ['openid', 'profile', 'email', 'offline_access']);
  assert.equal((await server.client().get(`/api/sso/interactions/${uid}`)).status, 401, 'the consent calls need a session');

  const allowed = await browser.post<{ redirectURL: string }>(`/api/sso/interactions/${uid}`, { allow: true });
  assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
  const landed = await follow(browser, allowed.body.data.redirectURL);
  assert.equal(landed.origin + landed.pathname, callback);

  const tokens = await oidc.authorizationCodeGrant(config, landed, { pkceCodeVerifier: verifier, expectedState: state });
  const claims = tokens.claims()!;
  assert.equal(claims.iss, issuer);
  assert.ok(tokens.refresh_token, 'a refresh token is issued');
  const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
  assert.equal(info.preferred_username, 'admin');

  const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token);
  assert.ok(refreshed.access_token && refreshed.access_token !== tokens.access_token);
  assert.equal((await oidc.fetchUserInfo(config, refreshed.access_token, claims.sub)).sub, claims.sub);

  // Signed in and consented: the next request goes straight back to the app; after signing out of
  // the console it goes through the consent page again.
  const again = await follow(browser, silent.href);
  assert.equal(again.origin + again.pathname, callback);
  assert.ok(again.searchParams.get('code'));
  await browser.get('/api/cas/logout');
  assert.equal((await follow(browser, silent.href)).pathname, '/oauth/authorize');

  // The code is single use (and its reuse revokes what it granted).
  await assert.rejects(oidc.authorizationCodeGrant(config, landed, { pkceCodeVerifier: verifier, expectedState: state }));
});

test('a denied request returns access_denied to the app', async () => {
  const { issuer, clientSecret } = await newSecret();
  const config = await discover(issuer, clientSecret);
  const authorize = oidc.buildAuthorizationUrl(config, {
    redirect_uri: callback,
    scope: 'openid',
    state: 'deny-state',
    code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
    code_challenge_method: 'S256',
  });
  const browser = await server.admin();
  const uid = (await follow(browser, authorize.href)).searchParams.get('uid')!;
  const denied = await browser.post<{ redirectURL: string }>(`/api/sso/interactions/${uid}`, { allow: false });
  const landed = await follow(browser, denied.body.data.redirectURL);
  assert.equal(landed.searchParams.get('error'), 'access_denied');
});

test('PKCE is required, and a rotated secret replaces the old one', async () => {
  const first = await newSecret();
  const noPkce = new URL(`${first.issuer}/auth`);
  noPkce.search = new URLSearchParams({ client_id: appId, redirect_uri: callback, response_type: 'code', scope: 'openid' }).toString();
  const refused = await follow(server.client(), noPkce.href);
  assert.equal(refused.searchParams.get('error'), 'invalid_request');

  const status = await admin.get<{ hasSecret: boolean }>(`/api/apps/${appId}/oidc-client`);
  assert.equal(status.body.data.hasSecret, true);
  assert.ok(!JSON.stringify(status.body).includes(first.clientSecret), 'the secret is never answered again');

  const second = await newSecret();
  const token = (secret: string) =>
    fetch(`${first.issuer}/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${appId}:${secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token&refresh_token=unknown',
    }).then(async (response) => ((await response.json()) as { error: string }).error);
  assert.equal(await token(first.clientSecret), 'invalid_client');
  assert.equal(await token(second.clientSecret), 'invalid_grant');

  const member = server.client();
  assert.equal((await member.post(`/api/apps/${appId}/oidc-client/secret`)).status, 401);
});
