// The app's menu with its own bearer token: an app calls the multi-app menu list with the access
// token our provider issued to it for a person, and gets that person's menu of that app only; the
// token must be live (not expired, not revoked), the person still enabled, and it never opens
// another app's menu.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type Client, type TestServer, signedInPerson } from './harness';
import { RelyingParty } from './oidc-rp';
import { oidcDb } from '../../server/oidc/tables';

const MENU = '/api/menu/app/assignment/public/multi_app_menu/list';
interface AppMenu {
  appId: string | null;
  menus: { name: string }[];
}

let server: TestServer;
let admin: Client;
let wiki: RelyingParty;
let mail: RelyingParty;
let serial = 0;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  wiki = await RelyingParty.register(server, admin, 'Wiki');
  mail = await RelyingParty.register(server, admin, 'Mail', 'http://127.0.0.1:9/mail-callback');
  const edit = await admin.post<{ id: string }>(`/api/apps/${wiki.appId}/privileges`, { name: 'Edit pages', key: 'edit' });
  assert.equal(edit.status, 200, JSON.stringify(edit.body));
  for (const [appId, items] of [
    [
      wiki.appId,
      [
        { name: 'Pages', path: '/pages' },
        { name: 'Editor', path: '/editor', privilegeId: edit.body.data.id },
      ],
    ],
    [mail.appId, [{ name: 'Inbox', path: '/inbox' }]],
    [undefined, [{ name: 'Home', path: '/home' }]],
  ] as const) {
    const plan = await admin.post('/api/menu-plans', { ...(appId ? { appId } : {}), name: `Menu ${appId ?? 'global'}`, items });
    assert.equal(plan.status, 200, JSON.stringify(plan.body));
  }
});
after(async () => {
  await server.stop();
});

function person() {
  return signedInPerson(server, admin, { username: `menu-person-${++serial}`, realName: 'Menu_Person' });
}

/** The menu list asked with only a bearer token (no console session). */
async function menuWith(token: string, query = '') {
  const response = await fetch(`${server.base}${MENU}${query}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as { code: number; message: string; data: AppMenu[] } };
}

test("the app's token answers that person's menu of that app only", async () => {
  const { browser } = await person();
  const tokens = await wiki.signIn(browser, 'openid');
  const answer = await menuWith(tokens.access_token);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.deepEqual(
    answer.body.data.map((entry) => entry.appId),
    [wiki.appId],
  );
  assert.deepEqual(
    answer.body.data[0]!.menus.map((item) => item.name),
    ['Pages'],
    'the item bound to a privilege the person lacks is hidden',
  );
  const same = await menuWith(tokens.access_token, `?appId=${wiki.appId}`);
  assert.deepEqual(
    same.body.data.map((entry) => entry.appId),
    [wiki.appId],
  );
  // The console session still answers every app, as before.
  const console = await browser.get<AppMenu[]>(MENU);
  assert.equal(console.status, 200);
  assert.equal(console.body.data.length, 3);
});

test("an app's token asking another app's menu is refused", async () => {
  const { browser } = await person();
  const tokens = await wiki.signIn(browser, 'openid');
  const answer = await menuWith(tokens.access_token, `?appId=${mail.appId}`);
  assert.equal(answer.status, 403, JSON.stringify(answer.body));
  assert.equal(answer.body.data, null);
});

test('dead tokens are refused: revoked, expired, a person disabled since, a machine token, a made-up one', async () => {
  const revoked = await person();
  const revokedTokens = await wiki.signIn(revoked.browser);
  assert.equal((await revoked.browser.get('/api/cas/logout')).status, 200);
  assert.equal((await menuWith(revokedTokens.access_token)).status, 401, 'revoked');

  const expired = await person();
  const expiredTokens = await wiki.signIn(expired.browser);
  await oidcDb(server.app.ctx.db)
    .updateTable('oidcPayloads')
    .set({ expiresAt: Date.now() - 1000 })
    .where('model', '=', 'AccessToken')
    .where('id', '=', expiredTokens.access_token)
    .execute();
  assert.equal((await menuWith(expiredTokens.access_token)).status, 401, 'expired');

  const disabled = await person();
  const disabledTokens = await wiki.signIn(disabled.browser);
  await server.app.ctx.db.updateTable('users').set({ availabilityStatus: 2 }).where('id', '=', disabled.user.id).execute();
  assert.equal((await menuWith(disabledTokens.access_token)).status, 401, "disabled behind the console's back");

  assert.equal((await admin.put(`/api/apps/${wiki.appId}/oidc-client`, { clientCredentials: true })).status, 200);
  const machine = await wiki.machineToken();
  assert.ok('access_token' in machine);
  assert.equal((await menuWith(machine.access_token)).status, 401, 'a machine token has no person');

  for (const value of ['made-up-token', 'not a token', '']) {
    const madeUp = await menuWith(value);
    assert.equal(madeUp.status, 401, `"${value}"`);
    assert.equal(madeUp.body.code, 401);
  }
});

test('without any credential the call still answers 401', async () => {
  assert.equal((await fetch(`${server.base}${MENU}`)).status, 401);
});
