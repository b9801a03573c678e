// An app asking the provider for a fresh sign-in (prompt=login, max_age) gets one, or is told none
// happened: the console's session allowing the request is not passed off as a new sign-in
// (server/oidc/interactions.ts, freshEnough; the session's age is read on the console's clock, so
// the test clock ages it). Hostile: it failed on the code before its fix.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer } from './harness';
import { RelyingParty } from './oidc-rp';

const PASSWORD = 'Fresh-sign-in-1';

let server: TestServer;
let admin: Client;

before(async () => {
  server = await startServer();
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

test('an app asking for a fresh sign-in (prompt=login, max_age) is not told one happened when the console session simply allowed it', async () => {
  const portal = await RelyingParty.register(server, admin, 'FreshPortal');
  const created = await admin.post('/api/user', { username: 'fresh-person', realName: 'Fresh_Person', password: transform(PASSWORD) });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const browser = server.client();
  assert.equal((await browser.login('fresh-person', PASSWORD)).body.data?.loginSuccess, true);
  const signedInAt = Math.floor(Date.now() / 1000);
  // Some time later (2.1 s on the console's clock) the app wants the person to prove they are at
  // the keyboard (before a payment, say).
  server.clock.advance(2_100);
  const request = await portal.authorization('openid', { prompt: 'login', max_age: '1' });
  const { url } = await portal.follow(browser, request.url);
  if (url.pathname === '/oauth/authorize') {
    // The consent page: allowing from the old session is refused without a fresh sign-in (the page offers "Sign in again").
    const allowed = await browser.post<{ redirectURL: string }>(`/api/sso/interactions/${url.searchParams.get('uid')}`, { allow: true });
    assert.equal(allowed.status, 401, JSON.stringify(allowed.body));
    return;
  }
  // Otherwise the app got a code straight away: its ID token must not claim a sign-in after the real one.
  assert.equal(url.origin + url.pathname, portal.callback, `neither the consent page nor the app's callback: ${url.href}`);
  assert.ok(url.searchParams.get('code'), url.href);
  const tokens = await portal.exchange(url, request.verifier, request.state);
  const claims = JSON.parse(Buffer.from(tokens.id_token!.split('.')[1]!, 'base64url').toString()) as { auth_time?: number };
  assert.ok(
    claims.auth_time !== undefined && claims.auth_time < signedInAt,
    `no password, passkey or code was asked, yet the ID token says the person signed in at ${claims.auth_time} (the console sign-in was at ${signedInAt}, 2.1 s before on the console's clock): the app's prompt=login / max_age step-up is void`,
  );
});
