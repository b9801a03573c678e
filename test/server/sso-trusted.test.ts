// Trusted apps: the platform administrator (only) marks an app trusted, and a person signed in to
// the console then goes straight from the app's authorization request back to the app, without
// the consent page; other apps still ask.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type Client, type TestServer, signedInPerson } from './harness';
import { RelyingParty } from './oidc-rp';

let server: TestServer;
let admin: Client;
let portal: RelyingParty;
let wiki: RelyingParty;
let appAdmin: Client;
let serial = 0;

function person() {
  return signedInPerson(server, admin, { username: `trusting-${++serial}`, realName: 'Trusting' });
}

before(async () => {
  server = await startServer();
  admin = await server.admin();
  portal = await RelyingParty.register(server, admin, 'Portal');
  wiki = await RelyingParty.register(server, admin, 'Wiki', 'http://127.0.0.1:9/wiki-callback');
  const { user, browser } = await person();
  const appointed = await admin.put(`/api/apps/${portal.appId}/admins`, { userIds: [user.id] });
  assert.equal(appointed.status, 200, JSON.stringify(appointed.body));
  appAdmin = browser;
});
after(async () => {
  await server.stop();
});

const setTrusted = (who: Client, app: RelyingParty, trusted: boolean) => who.put<{ trusted: boolean }>(`/api/apps/${app.appId}/oidc-client`, { trusted });

test('an app administrator cannot mark their own app trusted (403), nor untrusted; the other switches stay theirs', async () => {
  for (const trusted of [true, false]) {
    const refused = await setTrusted(appAdmin, portal, trusted);
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 403);
  }
  assert.equal((await admin.get<{ trusted: boolean }>(`/api/apps/${portal.appId}/oidc-client`)).body.data.trusted, false);
  assert.equal((await appAdmin.put(`/api/apps/${portal.appId}/oidc-client`, { clientCredentials: false })).status, 200);
});

test("a trusted app's authorization goes straight through for a signed-in person; an untrusted one still asks", async () => {
  const marked = await setTrusted(admin, portal, true);
  assert.equal(marked.status, 200, JSON.stringify(marked.body));
  assert.equal(marked.body.data.trusted, true);
  const { browser, username } = await person();
  const request = await portal.authorization('openid profile');
  const { url } = await portal.follow(browser, request.url);
  assert.equal(url.origin + url.pathname, portal.callback, `landed on ${url.href}`);
  const tokens = await portal.exchange(url, request.verifier, request.state);
  assert.equal((await portal.userinfo(tokens.access_token)).body.preferred_username, username);
  // Another app is not trusted: the consent page, saying so.
  const asked = await wiki.follow(browser, (await wiki.authorization()).url);
  assert.equal(asked.url.pathname, '/oauth/authorize');
  const details = await browser.get<{ trusted: boolean }>(`/api/sso/interactions/${asked.url.searchParams.get('uid')}`);
  assert.equal(details.body.data.trusted, false);
});

test("not signed in to the console: the trusted app's request goes to the sign-in page first, which then allows it by itself", async () => {
  assert.equal((await setTrusted(admin, portal, true)).status, 200);
  const browser = server.client();
  const { url } = await portal.follow(browser, (await portal.authorization()).url);
  assert.equal(url.pathname, '/oauth/authorize');
  const { username } = await person();
  assert.equal((await browser.login(username, 'Secret123')).body.data?.loginSuccess, true);
  const details = await browser.get<{ trusted: boolean }>(`/api/sso/interactions/${url.searchParams.get('uid')}`);
  assert.equal(details.body.data.trusted, true);
});

test('marked untrusted again: the consent page is back', async () => {
  assert.equal((await setTrusted(admin, portal, false)).status, 200);
  const { browser } = await person();
  const { url } = await portal.follow(browser, (await portal.authorization()).url);
  assert.equal(url.pathname, '/oauth/authorize');
});
