// An auditor asks who signed in to which app, and from where: every authorization code the
// OpenID Connect provider issues to an app leaves an `app.sign_in` record naming the person, their
// tenant, the app and the address, in the code's own transaction; as SAML's sign-ins do. A request
// that ends without a code (a denied consent, an exchange of the code) records no sign-in.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, signedInPerson, type Client, type TestServer } from './harness';
import { RelyingParty } from './oidc-rp';

let server: TestServer;
let admin: Client;
let wiki: RelyingParty;
let serial = 0;

interface SignInRow {
  actorId: string | null;
  actorName: string | null;
  targetType: string | null;
  targetId: string | null;
  tenantId: string | null;
  ip: string | null;
  success: number | boolean;
  detail: string;
}

before(async () => {
  server = await startServer();
  admin = await server.admin();
  wiki = await RelyingParty.register(server, admin, 'Wiki');
});
after(async () => {
  await server.stop();
});

const person = () => signedInPerson(server, admin, { username: `app-visitor-${++serial}`, realName: 'App_visitor' });

const signInsOf = async (userId: string) =>
  (await server.app.ctx.db
    .selectFrom('auditLog')
    .selectAll()
    .where('action', '=', 'app.sign_in')
    .where('actorId', '=', userId)
    .orderBy('id')
    .execute()) as unknown as SignInRow[];

test('a sign-in through the consent page records app.sign_in with the person, their tenant, the app and the address', async () => {
  const { user, browser, username } = await person();
  const tokens = await wiki.signIn(browser, 'openid profile');
  assert.ok(tokens.id_token);
  const rows = await signInsOf(user.id);
  assert.equal(rows.length, 1, JSON.stringify(rows));
  const [row] = rows;
  assert.equal(row!.actorName, username);
  assert.equal(row!.targetType, 'app');
  assert.equal(row!.targetId, wiki.appId);
  assert.equal(row!.tenantId, user.tenantId);
  assert.equal(row!.ip, '127.0.0.1');
  assert.equal(Boolean(row!.success), true);
  assert.deepEqual(JSON.parse(row!.detail), { protocol: 'oidc' });
  // The code exchange and a refresh are no new sign-in.
  assert.equal((await signInsOf(user.id)).length, 1);
});

test('each later sign-in that skips the consent page records one more', async () => {
  const { user, browser } = await person();
  await wiki.signIn(browser, 'openid');
  const again = await wiki.authorization('openid');
  const { url } = await wiki.follow(browser, again.url);
  assert.equal(url.origin + url.pathname, wiki.callback, `the consent given before counts: landed on ${url.href}`);
  assert.equal((await signInsOf(user.id)).length, 2);
});

test('a denied consent records no sign-in', async () => {
  const { user, browser } = await person();
  const request = await wiki.authorization('openid');
  const { url } = await wiki.follow(browser, request.url);
  assert.equal(url.pathname, '/oauth/authorize');
  const denied = await browser.post<{ redirectURL: string }>(`/api/sso/interactions/${url.searchParams.get('uid')}`, { allow: false });
  assert.equal(denied.status, 200, JSON.stringify(denied.body));
  const back = await wiki.follow(browser, denied.body.data.redirectURL);
  assert.equal(back.url.searchParams.get('error'), 'access_denied');
  assert.equal((await signInsOf(user.id)).length, 0);
});
