// Trusted apps: the platform administrator (only) marks an app trusted, and a person signed in to
// the console then goes straight from the app's authorization request back to the app, without
// the consent page; other apps still ask. Silent sign-in (prompt=none) from a browser signed in to
// the console only (no provider session yet): a code for a trusted app or one the person allowed
// before, in any browser; the provider's own answers otherwise (server/oidc/console-login.ts).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type Client, type TestServer, signedInPerson } from './harness';
import { RelyingParty } from './oidc-rp';
import { oidcDb } from '../../server/oidc/tables';

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

describe('silent sign-in (prompt=none) from a browser signed in to the console only', () => {
  /** The app's silent request in `browser`: the callback's code or error. */
  async function silently(app: RelyingParty, browser: Awaited<ReturnType<typeof person>>['browser'], extra: Record<string, string> = {}) {
    const { url } = await app.follow(browser, (await app.authorization('openid', { prompt: 'none', ...extra })).url);
    assert.equal(url.origin + url.pathname, app.callback, url.href);
    return { code: url.searchParams.get('code'), error: url.searchParams.get('error') };
  }

  test('an app the person allowed in another browser: a code in this one, without asking again', async () => {
    const { browser, username } = await person();
    await wiki.signIn(browser, 'openid');
    const elsewhere = server.client();
    assert.equal((await elsewhere.login(username, 'Secret123')).body.data?.loginSuccess, true);
    const silent = await silently(wiki, elsewhere);
    assert.ok(silent.code, `the app was told ${silent.error}`);
    // Signed out of the console: no code, and the sign-in is what is missing.
    assert.equal((await elsewhere.get('/api/cas/logout')).status, 200);
    assert.equal((await silently(wiki, elsewhere)).error, 'login_required');
  });

  test('a trusted app: one grant and one app.consent record for repeated silent sign-ins; a console sign-in older than max_age is login_required', async () => {
    assert.equal((await setTrusted(admin, portal, true)).status, 200);
    const { browser, user } = await person();
    for (let time = 0; time < 2; time += 1) assert.ok((await silently(portal, browser)).code, 'no code for the trusted app');
    const db = server.app.ctx.db;
    const records = await db.selectFrom('auditLog').select('id').where('action', '=', 'app.consent').where('actorId', '=', user.id).execute();
    const grants = await oidcDb(db).selectFrom('oidcPayloads').select('id').where('model', '=', 'Grant').where('accountId', '=', user.id).execute();
    assert.deepEqual({ records: records.length, grants: grants.length }, { records: 1, grants: 1 });
    assert.equal((await silently(portal, server.client())).error, 'login_required', 'a browser signed in nowhere');
    const { browser: later } = await person();
    server.clock.advance(2_100);
    assert.equal((await silently(portal, later, { max_age: '1' })).error, 'login_required');
  });
});
