// The OpenID Connect authorization and logout endpoints, attacked with the variants real apps (and
// attackers) send: a redirect_uri that differs from the registered one by a trailing slash, the
// case of its host or path, its port, a fragment, a dot-segment or an added query; a request object
// (unsigned, naming another redirect_uri) and a request_uri on a loopback address; prompt=none
// after the console session ended; and an id_token_hint of one app with another app's
// post-logout URI. Nothing may reach an unregistered URI, no code may be issued without a session.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { startServer, signedInPerson, type Client, type TestServer } from './harness';
import { RelyingParty } from './oidc-rp';

let server: TestServer;
let admin: Client;
let wiki: RelyingParty;
let mail: RelyingParty;
let serial = 0;
const CALLBACK = 'http://127.0.0.1:9/wiki/callback';

before(async () => {
  server = await startServer();
  admin = await server.admin();
  wiki = await RelyingParty.register(server, admin, 'VariantWiki', CALLBACK);
  mail = await RelyingParty.register(server, admin, 'VariantMail', 'http://127.0.0.1:9/mail/callback');
  for (const app of [wiki, mail]) {
    const saved = await admin.put(`/api/apps/${app.appId}/oidc-client`, { postLogoutRedirectUris: [`${app.callback.replace('/callback', '/signed-out')}`] });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
  }
});
after(() => server.stop());

const person = () => signedInPerson(server, admin, { username: `variant-${++serial}`, realName: 'Variant' });

/** Where the browser is sent for an authorization request with `changes` (the last hop out). */
async function authorize(browser: Client, changes: Record<string, string | null>) {
  const request = await wiki.authorization('openid');
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) request.url.searchParams.delete(name);
    else request.url.searchParams.set(name, value);
  }
  return wiki.follow(browser, request.url);
}

test('holds: a redirect_uri that is not exactly the registered one gets nothing sent to it', async () => {
  const { browser } = await person();
  for (const variant of [
    `${CALLBACK}/`,
    'http://127.0.0.1:9/wiki/Callback',
    'HTTP://127.0.0.1:9/wiki/callback',
    'http://127.0.0.1:90/wiki/callback',
    'http://127.0.0.1/wiki/callback',
    'http://localhost:9/wiki/callback',
    `${CALLBACK}#fragment`,
    'http://127.0.0.1:9/wiki/callback/../../evil',
    'http://127.0.0.1:9/wiki/%2e%2e/evil',
    `${CALLBACK}?next=https://evil.example/`,
    'http://127.0.0.1:9@evil.example/wiki/callback',
  ]) {
    const { url, response } = await authorize(browser, { redirect_uri: variant });
    const location = response.headers.get('location');
    assert.ok(!location || new URL(location, server.base).origin === server.base, `${variant}: redirected to ${location}`);
    assert.equal(url.searchParams.get('code'), null, `${variant}: a code in ${url.href}`);
    assert.notEqual(url.origin, 'http://127.0.0.1:9', `${variant}: the browser was sent to ${url.href}`);
  }
});

test('holds: a request object naming another redirect_uri, and a request_uri on a loopback address, are refused and never fetched', async () => {
  const { browser } = await person();
  const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
  const claims = Buffer.from(
    JSON.stringify({ client_id: wiki.appId, redirect_uri: 'http://127.0.0.1:9/evil', response_type: 'code', scope: 'openid' }),
  ).toString('base64url');
  const withObject = await authorize(browser, { request: `${header}.${claims}.` });
  assert.equal(withObject.url.searchParams.get('code'), null, withObject.url.href);
  assert.notEqual(withObject.url.pathname, '/evil', withObject.url.href);

  let connections = 0;
  const listener = createServer((socket: Socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  try {
    const port = (listener.address() as { port: number }).port;
    const withUri = await authorize(browser, { request_uri: `http://127.0.0.1:${port}/request.jwt` });
    assert.equal(withUri.url.searchParams.get('code'), null, withUri.url.href);
    assert.equal(connections, 0, 'the provider fetched the request_uri');
  } finally {
    listener.close();
  }
});

test('holds: prompt=none after the console sign-out issues no code (login_required to the registered URI)', async () => {
  const { browser } = await person();
  await wiki.signIn(browser, 'openid');
  assert.equal((await browser.get('/api/cas/logout')).status, 200);
  const { url } = await authorize(browser, { prompt: 'none' });
  assert.equal(url.origin + url.pathname, CALLBACK, url.href);
  assert.equal(url.searchParams.get('code'), null, url.href);
  assert.equal(url.searchParams.get('error'), 'login_required', url.href);
});

test("holds: one app's id_token_hint with another app's post-logout URI is refused; with another client_id too", async () => {
  const { browser } = await person();
  const tokens = await wiki.signIn(browser, 'openid');
  const mailSignedOut = 'http://127.0.0.1:9/mail/signed-out';
  const queries: Record<string, string>[] = [
    { id_token_hint: tokens.id_token!, post_logout_redirect_uri: mailSignedOut },
    { id_token_hint: tokens.id_token!, client_id: mail.appId, post_logout_redirect_uri: mailSignedOut },
  ];
  for (const query of queries) {
    const answer = await browser.raw('GET', `/api/oidc/session/end?${new URLSearchParams(query)}`);
    assert.equal(answer.status, 400, `${JSON.stringify(Object.keys(query))}: ${answer.status}`);
    assert.equal(answer.headers.get('location'), null);
  }
  assert.equal((await browser.get('/api/cas/session')).status, 200, 'still signed in to the console');
});
