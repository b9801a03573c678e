// The provider's endpoints by the methods and parameters the specifications require: the
// authorization and end-session endpoints by POST with a form (OpenID Connect Core §3.1.2.1,
// RP-Initiated Logout §2) as by GET; at the token endpoint, the redirect_uri sent to the
// authorization endpoint is required again (RFC 6749 §4.1.3, even for an app with one callback
// URL), and a refused exchange (a wrong PKCE verifier) uses the code up (RFC 9700).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import { startServer, type Client, type TestServer, signedInPerson } from './harness';
import { RelyingParty } from './oidc-rp';

let server: TestServer;
let admin: Client;
let wiki: RelyingParty;
let serial = 0;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  wiki = await RelyingParty.register(server, admin, 'MethodsWiki');
});
after(async () => {
  await server.stop();
});

async function person(): Promise<Client> {
  return (await signedInPerson(server, admin, { username: `methods-${++serial}`, realName: 'Methods_Person' })).browser;
}

/** The browser's authorization request by POST; the callback URL it lands on after consenting. */
async function authorizeByPost(browser: Client, request: { url: URL }): Promise<URL> {
  const posted = await browser.raw('POST', request.url.pathname, new URLSearchParams(request.url.search));
  assert.equal(posted.status, 303, await posted.clone().text());
  let { url } = await wiki.follow(browser, posted.headers.get('location')!);
  assert.equal(url.pathname, '/oauth/authorize', url.href);
  const allowed = await browser.post<{ redirectURL: string }>(`/api/sso/interactions/${url.searchParams.get('uid')}`, { allow: true });
  assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
  ({ url } = await wiki.follow(browser, allowed.body.data.redirectURL));
  return url;
}

test('POST at the authorization endpoint signs in as GET does (form parameters, not the query)', async () => {
  const browser = await person();
  const request = await wiki.authorization();
  const callback = await authorizeByPost(browser, request);
  assert.equal(callback.origin + callback.pathname, wiki.callback);
  const tokens = await wiki.exchange(callback, request.verifier, request.state);
  assert.equal((await wiki.userinfo(tokens.access_token)).status, 200);
});

test('POST at the end-session endpoint asks to confirm the sign-out as GET does', async () => {
  const browser = await person();
  const tokens = await wiki.signIn(browser);
  const response = await browser.raw('POST', '/api/oidc/session/end', new URLSearchParams({ id_token_hint: tokens.id_token!, state: 'bye' }));
  assert.equal(response.status, 200);
  const html = await response.text();
  const action = new URL(/<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(html)![1]!);
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1]!;
  const confirmed = await browser.raw('POST', action.pathname, new URLSearchParams({ xsrf, logout: 'yes' }));
  assert.equal(confirmed.status, 303);
  assert.equal((await browser.get('/api/cas/session')).status, 401, 'the console session ended');
});

test('an oversized form at the authorization endpoint is refused with 413 in the envelope', async () => {
  const response = await fetch(`${server.base}/api/oidc/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `client_id=${wiki.appId}&state=${'x'.repeat(100_000)}`,
  });
  assert.equal(response.status, 413);
  assert.equal(((await response.json()) as { code: number }).code, 413);
});

/** A code for a fresh sign-in (GET), and its verifier. */
async function freshCode() {
  const browser = await person();
  const request = await wiki.authorization();
  let { url } = await wiki.follow(browser, request.url);
  const allowed = await browser.post<{ redirectURL: string }>(`/api/sso/interactions/${url.searchParams.get('uid')}`, { allow: true });
  ({ url } = await wiki.follow(browser, allowed.body.data.redirectURL));
  return { code: url.searchParams.get('code')!, verifier: request.verifier };
}

/** The token endpoint's answer for a code exchange with these parameters. */
async function exchange(parameters: Record<string, string>) {
  const response = await fetch(wiki.as.token_endpoint!, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${wiki.appId}:${wiki.secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', ...parameters }),
  });
  return { status: response.status, body: (await response.json()) as { error?: string; access_token?: string } };
}

test('the token endpoint requires the redirect_uri that was sent to the authorization endpoint, even with one callback URL', async () => {
  const { code, verifier } = await freshCode();
  const without = await exchange({ code, code_verifier: verifier });
  assert.equal(without.status, 400);
  assert.equal(without.body.error, 'invalid_request');
});

test('a wrong PKCE verifier uses the code up: the right verifier afterwards is refused', async () => {
  const { code, verifier } = await freshCode();
  const wrong = await exchange({ code, code_verifier: oauth.generateRandomCodeVerifier(), redirect_uri: wiki.callback });
  assert.equal(wrong.status, 400);
  assert.equal(wrong.body.error, 'invalid_grant');
  const right = await exchange({ code, code_verifier: verifier, redirect_uri: wiki.callback });
  assert.equal(right.status, 400, JSON.stringify(right.body));
  assert.equal(right.body.error, 'invalid_grant');
  assert.equal(right.body.access_token, undefined);
});

test('a right exchange still works with the redirect_uri and verifier', async () => {
  const { code, verifier } = await freshCode();
  const right = await exchange({ code, code_verifier: verifier, redirect_uri: wiki.callback });
  assert.equal(right.status, 200, JSON.stringify(right.body));
  assert.ok(right.body.access_token);
});
