// XSS in the browser. Script payloads are stored (through the API, as the administrator) in every
// free-text field the product stores and shows — user and tenant descriptions, app detail,
// privilege name, role description, menu plan name/description/item name, channel name and
// vendor, message title and body, identity provider name, branding (application name, copyright,
// sign-in text) — and fields with a stricter rule (names of users, tenants, apps, roles; URL
// fields given `javascript:`) are shown to refuse them. Then every screen and a few dialogs that
// show them are opened in Chromium (the sign-in page with its branding and identity providers,
// `<iam-login>` on the demo page, home, every operations screen, app and menu plan details, the
// personal center and messages; a member's portal and messages), and:
//  (a) every payload is on some screen as text (or as an input's value),
//  (b) no payload ran: each one calls __xss.push(field) — recorded in Node through an exposed
//      binding — and the page opens no dialog;
//  (c) an uploaded SVG with <script> and onload, opened directly in a tab and as an <img>, runs
//      nothing, and is served with `Content-Security-Policy: … sandbox` and nosniff.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, ApiClient, openPage, type WatchedPage, startServerAndBrowser } from './harness';
import { signIn } from './admin-support';

const MEMBER_PASSWORD = 'Member-xss-1';

const { server, browser } = await startServerAndBrowser();
let api: ApiClient;
/** Payloads that ran, by field (from any page of this file). */
const ran: string[] = [];
const dialogs: string[] = [];

const seen = new Set<string>();

/** Fields by number: a payload calls __xss.push(n) (short enough for 50-character fields). */
const fieldNumbers: string[] = [];
const numberOf = (field: string) => (fieldNumbers.includes(field) ? fieldNumbers.indexOf(field) : fieldNumbers.push(field) - 1);
/** A payload for `field`: short (names of at most 50–60 characters, starting with a letter) or full. */
const shortPayload = (field: string) => `X"><img src=x onerror=__xss.push(${numberOf(field)})>`;
const fullPayload = (field: string) => {
  const n = numberOf(field);
  return `X"><img src=x onerror=__xss.push(${n})><svg onload=__xss.push(${n})><script>__xss.push(${n})</script><a href="javascript:__xss.push(${n})">link ${n}</a>`;
};

/** field → the payload stored in it. */
const stored = new Map<string, string>();
const ids: Record<string, string> = {};

async function store<T>(field: string, payload: string, call: (payload: string) => Promise<T>): Promise<T> {
  stored.set(field, payload);
  return call(payload);
}

async function refused(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return (error as Error).message;
  }
  assert.fail('the server stored it');
}

before(async () => {
  api = new ApiClient(server.url);
  await api.signIn(ADMIN.username, ADMIN.password);

  // Rules that keep markup out altogether (character sets, URL fields).
  const tree = await api.call<{ id: string; parentId: string | null }[]>('GET', '/tenants/tree');
  const rootId = tree.find((tenant) => tenant.parentId === null)!.id;
  for (const message of [
    await refused(api.call('POST', '/tenants', { parentId: rootId, name: shortPayload('tenant.name'), type: 'company' })),
    await refused(api.call('POST', '/apps', { name: shortPayload('app.name') })),
    await refused(api.call('POST', '/apps', { name: 'Url_App', callbackUrl: "javascript:__xss.push('app.callbackUrl')" })),
    await refused(api.call('POST', '/apps', { name: 'Url_App', entrypoint: "javascript:__xss.push('app.entrypoint')" })),
    await refused(api.call('POST', '/user', { username: 'xss<b>', realName: shortPayload('user.realName'), password: 'x'.repeat(64) })),
  ])
    assert.match(message, /: 400 /);

  const me = await api.call<{ user: { id: string } }>('GET', '/cas/session');
  ids.me = me.user.id;
  ids.member = await api.createUser({ username: 'xss-member', realName: 'Xss_Member', password: MEMBER_PASSWORD });
  await store('user.description', fullPayload('user.description'), (payload) =>
    api.call('POST', '/user', { username: 'xss-person', realName: 'Xss_Person', description: payload, password: 'a'.repeat(64), extraProp: {} }),
  );
  ids.tenant = (
    await store('tenant.description', fullPayload('tenant.description'), (payload) =>
      api.call<{ id: string }>('POST', '/tenants', { parentId: rootId, name: 'Xss_Tenant', type: 'company', description: payload }),
    )
  ).id;
  ids.app = (
    await store('app.detail', fullPayload('app.detail'), (payload) =>
      api.call<{ id: string }>('POST', '/apps', { name: 'Xss_App', detail: payload, callbackUrl: 'https://app.example.com/cb' }),
    )
  ).id;
  await store('privilege.name', shortPayload('privilege.name'), (payload) =>
    api.call('POST', `/apps/${ids.app}/privileges`, { name: payload, key: 'xsspriv', parentId: null }),
  );
  await store('role.description', fullPayload('role.description'), (payload) =>
    api.call('POST', `/apps/${ids.app}/roles`, { name: 'Xss_Role', description: payload }),
  );
  const planName = shortPayload('plan.name');
  const itemName = shortPayload('plan.item');
  stored.set('plan.name', planName);
  stored.set('plan.item', itemName);
  // A plan's description is stored but no screen shows it (nothing to look at; stored all the same).
  await api.call('POST', '/menu-plans', {
    appId: ids.app,
    name: planName,
    description: fullPayload('plan.description'),
    items: [{ name: itemName, path: '/home/index' }],
  });
  const vendor = shortPayload('channel.vendor');
  stored.set('channel.vendor', vendor);
  await store('channel.name', shortPayload('channel.name'), (payload) =>
    api.call('POST', '/channels', { name: payload, serviceType: 'SITE_MESSAGE', vendor, config: {} }),
  );
  const content = fullPayload('message.content');
  stored.set('message.content', content);
  await store('message.title', shortPayload('message.title'), (payload) => api.call('POST', '/messages', { title: payload, content, userIds: [ids.me] }));
  await store('idp.name', shortPayload('idp.name'), (payload) =>
    api.call('POST', '/idps', { code: 'xssidp', name: payload, type: 'OIDC', config: { issuer: 'https://sso.example.com', clientId: 'iam' } }),
  );
  const config = await api.call<{ value: { system: Record<string, unknown> }; version: number }>('GET', '/config');
  const system: Record<string, unknown> = { ...config.value.system, supportThirdLogin: 'Y' };
  for (const field of ['appName', 'copyright', 'loginSign'] as const) {
    system[field] = field === 'appName' ? shortPayload('branding.appName') : fullPayload(`branding.${field}`);
    stored.set(`branding.${field}`, String(system[field]));
  }
  await api.call('PUT', '/config', { system, version: config.version });
});

/** A page whose payload calls reach this file, and whose dialogs are counted and dismissed. */
async function watchedPage(): Promise<WatchedPage> {
  const watched = await openPage(browser, { expectedFailures: [/\/x$/, /\/api\//] });
  await watched.context.exposeBinding('__xssRan', (_source, n: number) => {
    ran.push(fieldNumbers[n] ?? String(n));
  });
  await watched.context.addInitScript('window.__xss = { push: (n) => window.__xssRan(n) };');
  watched.page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return watched;
}

/** Everything the page shows as text, plus the values of its form fields, shadow roots included
 *  (a string: tsx would wrap a function's inner helpers with its own __name, unknown in the page). */
const PAGE_TEXT = `(() => {
  const parts = [document.body.innerText];
  const walk = (root) => root.querySelectorAll('*').forEach((element) => {
    if (element.matches('input, textarea')) parts.push(element.value);
    if (element.shadowRoot) { parts.push(element.shadowRoot.textContent || ''); walk(element.shadowRoot); }
  });
  walk(document);
  return parts.join('\\n');
})()`;

async function fieldsShown(page: Page): Promise<string[]> {
  const text = await page.evaluate<string>(PAGE_TEXT);
  return [...stored].filter(([, payload]) => text.includes(payload)).map(([field]) => field);
}

/** Waits until the page shows `expected` fields (a screen loads its data after its first paint);
 *  answers every field it shows. */
async function expectShown(page: Page, where: string, expected: string[]): Promise<string[]> {
  const deadline = Date.now() + 15_000;
  let shown = await fieldsShown(page);
  while (expected.some((field) => !shown.includes(field)) && Date.now() < deadline) {
    await page.waitForTimeout(250);
    shown = await fieldsShown(page);
  }
  assert.deepEqual(
    expected.filter((field) => !shown.includes(field)),
    [],
    `${where}: not shown as text`,
  );
  console.log(`xss: ${where} shows ${shown.join(', ') || 'none'}`);
  for (const field of shown) seen.add(field);
  return shown;
}

async function visit(page: Page, path: string, expected: string[]): Promise<string[]> {
  await page.goto(`${server.url}${path}`);
  return expectShown(page, path, expected);
}

/** The page runs the payloads' call for real (so a payload that ran would be reported, not lost in a ReferenceError). */
async function assertWatching(page: Page): Promise<void> {
  await page.evaluate('__xss.push(-1)');
  assert.equal(ran.pop(), '-1');
}

test('the sign-in page and <iam-login> show the branding and identity providers as text; nothing runs', async () => {
  const { page } = await watchedPage();
  await visit(page, '/login', ['branding.loginSign', 'branding.copyright', 'idp.name']);
  await assertWatching(page);
  await visit(page, '/demo/login.html', []);
  await assertWatching(page);
  assert.deepEqual(ran, [], 'a payload ran');
  assert.deepEqual(dialogs, []);
});

test('every console screen and the dialogs show the stored payloads as text; nothing runs', async () => {
  const { page } = await watchedPage();
  await signIn(page, server.url, ADMIN.username, ADMIN.password);
  await visit(page, '/home/index', ['branding.appName']);

  await visit(page, '/operate/user', []);
  await page.getByRole('button', { name: 'Edit xss-person' }).click();
  await expectShown(page, 'user dialog', ['user.description']);
  await page.keyboard.press('Escape');

  await visit(page, '/operate/tenant/list', []);
  await page
    .getByRole('tree', { name: 'Tenant tree' })
    .getByRole('treeitem', { name: /^Xss_Tenant\b/ })
    .click();
  await expectShown(page, 'tenant detail', ['tenant.description']);

  await visit(page, '/operate/app', ['app.detail']);
  await visit(page, `/app/detail/${ids.app}`, ['app.detail']);
  await page.getByRole('tab', { name: 'Privileges' }).click();
  await expectShown(page, 'app privileges', ['privilege.name']);
  await page.getByRole('tab', { name: 'Roles' }).click();
  await expectShown(page, 'app roles', ['role.description']);

  await visit(page, '/operate/menu', ['plan.name']);
  await visit(page, `/menu/detail/${ids.app}`, ['plan.name', 'plan.item']);
  await visit(page, '/operate/tunnel', ['channel.name']);
  await visit(page, '/operate/setting', []);
  await visit(page, '/profile/message', ['message.title']);
  await visit(page, '/profile/messageHis', []);
  await visit(page, '/profile/userInfo', []);
  await assertWatching(page);
  assert.deepEqual(ran, [], 'a payload ran');
  assert.deepEqual(dialogs, []);
});

// Script in an SVG marks the document it runs in (our __xss may not exist in a sandboxed document).
const EVIL_SVG =
  `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" onload="document.documentElement.setAttribute('data-pwned','onload')">` +
  `<script>document.documentElement.setAttribute('data-pwned','script');window.__xss&&__xss.push(-2)</script>` +
  '<rect width="16" height="16" fill="green"/></svg>';

test('an uploaded SVG with script runs nothing, opened directly or as an image', async () => {
  const name = await api.upload('icon', 'evil.svg', new TextEncoder().encode(EVIL_SVG), 'image/svg+xml');
  const url = `${server.url}/api/file/get/${name}`;
  const served = await fetch(url);
  const body = await served.text();
  assert.equal(served.status, 200);
  assert.match(served.headers.get('content-type') ?? '', /^image\/svg\+xml/);
  assert.match(served.headers.get('content-security-policy') ?? '', /(^|;)\s*sandbox\b/);
  assert.match(served.headers.get('content-security-policy') ?? '', /default-src 'none'/);
  assert.equal(served.headers.get('x-content-type-options'), 'nosniff');
  console.log(
    `xss: the stored SVG ${/<script|onload=/i.test(body) ? 'keeps' : 'lost'} its script (sanitised on upload); served with ${served.headers.get('content-security-policy')}`,
  );

  const { page } = await watchedPage();
  await page.goto(url);
  await page.waitForLoadState('load');
  assert.equal(await page.evaluate('document.documentElement.getAttribute("data-pwned")'), null, 'the SVG ran script when opened in a tab');

  await page.goto(`${server.url}/login`);
  await assertWatching(page);
  await page.evaluate(
    `new Promise((resolve) => { const image = new Image(); image.onload = image.onerror = resolve; image.src = ${JSON.stringify(url)}; document.body.append(image); })`,
  );
  assert.equal(await page.evaluate('document.documentElement.getAttribute("data-pwned")'), null, 'the SVG ran script as an image');
  assert.deepEqual(ran, []);
  assert.deepEqual(dialogs, []);
});

test('a member’s portal (home, messages) shows the app menus and messages as text; nothing runs', async () => {
  await api.call('POST', '/messages', { title: stored.get('message.title'), content: stored.get('message.content'), userIds: [ids.member] });
  const { page } = await watchedPage();
  await signIn(page, server.url, 'xss-member', MEMBER_PASSWORD);
  await visit(page, '/home/index', []);
  await visit(page, '/profile/message', ['message.title']);
  await assertWatching(page);
  assert.deepEqual(ran, [], 'a payload ran');
  assert.deepEqual(dialogs, []);
});

test('every stored payload was shown somewhere, as text', () => {
  console.log(`xss: ${stored.size} fields stored, ${seen.size} shown: ${[...seen].sort().join(', ')}; ${ran.length} ran, ${dialogs.length} dialogs`);
  assert.deepEqual([...stored.keys()].filter((field) => !seen.has(field)).sort(), []);
});
