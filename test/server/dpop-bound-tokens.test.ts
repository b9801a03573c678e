// A DPoP-bound access token (RFC 9449) at the console's API routes that take an app's token (the
// multi-app menu list): refused as a plain Bearer token (a stolen bound token is worth nothing
// without its key, §7.1), accepted as `Authorization: DPoP` with a fresh proof of the bound key,
// refused with a proof of another key, for another URL or method, replayed, or without a proof.
// /api/oidc/me (oidc-provider's own check) is held to the same answers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import { startServer, transform, type Client, type TestServer } from './harness';
import { RelyingParty } from './oidc-rp';
import type { User } from '../../src/core/types';

const MENU = '/api/menu/app/assignment/public/multi_app_menu/list';
const insecure = { [oauth.allowInsecureRequests]: true };

let server: TestServer;
let admin: Client;
let wiki: RelyingParty;
let key: CryptoKeyPair;
let bound: string;
let plain: string;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  wiki = await RelyingParty.register(server, admin, 'DpopWiki');
  const plan = await admin.post('/api/menu-plans', { appId: wiki.appId, name: 'Dpop_menu', items: [{ name: 'Pages', path: '/pages' }] });
  assert.equal(plan.status, 200, JSON.stringify(plan.body));
  const created = await admin.post<User>('/api/user', { username: 'dpop-person', realName: 'Dpop_Person', password: transform('Secret123') });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const browser = server.client();
  assert.equal((await browser.login('dpop-person', 'Secret123')).body.data?.loginSuccess, true);
  key = await oauth.generateKeyPair('ES256');
  bound = (await wiki.signIn(browser, 'openid', {}, {}, oauth.DPoP(wiki.client, key))).access_token;
  plain = (await wiki.signIn(browser, 'openid')).access_token;
});
after(async () => {
  await server.stop();
});

/** A DPoP proof signed by `proofKey` for `method` `url` and `token` (made by oauth4webapi, caught before it is sent). */
async function proof(proofKey: CryptoKeyPair, token: string, url: string, method = 'GET'): Promise<string> {
  let made = '';
  await oauth.protectedResourceRequest(token, method, new URL(url), new Headers(), null, {
    ...insecure,
    DPoP: oauth.DPoP(wiki.client, proofKey),
    [oauth.customFetch]: async (_url, init) => {
      made = new Headers(init.headers).get('dpop')!;
      return new Response(null, { status: 204 });
    },
  });
  return made;
}

/** A request with the token under `scheme`, and a proof made by `proofKey` for `method` `proofFor` when given. */
async function call(path: string, token: string, scheme: 'Bearer' | 'DPoP', proofKey?: CryptoKeyPair, proofFor = `${server.base}${path}`, method = 'GET') {
  const headers: Record<string, string> = { authorization: `${scheme} ${token}` };
  if (proofKey) headers.dpop = await proof(proofKey, token, proofFor, method);
  const response = await fetch(`${server.base}${path}`, { headers });
  return { status: response.status, body: await response.text() };
}

test('a bound token is refused as a plain Bearer token, at the menu route and at userinfo', async () => {
  assert.equal((await call(MENU, bound, 'Bearer')).status, 401);
  assert.equal((await call('/api/oidc/me', bound, 'Bearer')).status, 401);
});

test('a bound token with a fresh proof of its key is accepted, at the menu route and at userinfo', async () => {
  const menu = await call(MENU, bound, 'DPoP', key);
  assert.equal(menu.status, 200, menu.body);
  assert.deepEqual(
    (JSON.parse(menu.body) as { data: { appId: string }[] }).data.map((entry) => entry.appId),
    [wiki.appId],
  );
  const me = await call('/api/oidc/me', bound, 'DPoP', key);
  assert.equal(me.status, 200, me.body);
});

test('a bound token is refused with a proof of another key, for another URL or method, without a proof, or replayed', async () => {
  const other = await oauth.generateKeyPair('ES256');
  assert.equal((await call(MENU, bound, 'DPoP', other)).status, 401, 'another key');
  assert.equal((await call(MENU, bound, 'DPoP', key, `${server.base}/api/oidc/me`)).status, 401, 'another URL');
  assert.equal((await call(MENU, bound, 'DPoP', key, undefined, 'POST')).status, 401, 'another method');
  assert.equal((await call(MENU, bound, 'DPoP')).status, 401, 'no proof');
  const once = { authorization: `DPoP ${bound}`, dpop: await proof(key, bound, `${server.base}${MENU}`) };
  assert.equal((await fetch(`${server.base}${MENU}`, { headers: once })).status, 200);
  const again = await fetch(`${server.base}${MENU}`, { headers: once });
  assert.equal(again.status, 401, 'the same proof twice');
});

test('an unbound token still works as Bearer and is refused under the DPoP scheme', async () => {
  assert.equal((await call(MENU, plain, 'Bearer')).status, 200);
  assert.equal((await call(MENU, plain, 'DPoP', key)).status, 401);
});
