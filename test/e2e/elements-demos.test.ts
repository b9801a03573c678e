// The host demos of demo/ in Chromium under the strict CSP: every page loads with zero
// `securitypolicyviolation` events and no console error (screenshots in /tmp/shots/demo-*.png);
// the portal, the React and the Vue hosts drive the embedded console (uiEmbed, memory routing)
// without touching their own URL or history; the third-party page on a second origin signs in
// with <iam-login auth-mode="token"> and keeps the token in memory only; the console in history
// routing stays below its base; a host with a nonce CSP runs every element.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, launchBrowser, openPage, startServer, type RunningServer, type WatchedPage } from './harness';
// @ts-expect-error -- a plain ES module of the demo (no typings)
import { startThirdPartyServer } from '../../demo/third-party-server.mjs';

const SHOTS = '/tmp/shots';

let server: RunningServer;
let thirdParty: { url: string; stop: () => Promise<void> };
let browser: Browser;

before(async () => {
  const launched = launchBrowser();
  thirdParty = await startThirdPartyServer({ apiOrigin: () => server.url });
  // The IAM server accepts the third-party origin (CORS, token mode).
  server = await startServer({ IAM_CORS_ORIGINS: thirdParty.url });
  browser = await launched;
  mkdirSync(SHOTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await thirdParty?.stop();
});

/** A watched page that records every CSP violation the document reports. */
async function cspWatchedPage(): Promise<WatchedPage> {
  const watched = await openPage(browser);
  await watched.page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  return watched;
}

async function violationsOf(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}

/** Asserts the strict CSP header, no violation and no console error, then takes the screenshot. */
async function checkPage(watched: WatchedPage, name: string, csp: RegExp): Promise<void> {
  const { page, errors } = watched;
  assert.deepEqual(await violationsOf(page), [], `CSP violations on ${name}`);
  assert.deepEqual(errors, [], `console errors on ${name}`);
  const policy = await page.evaluate(async () => (await fetch(location.href)).headers.get('content-security-policy'));
  assert.match(policy ?? '', csp, `the CSP of ${name}`);
  await page.screenshot({ path: `${SHOTS}/demo-${name}.png` });
}

const STRICT = /default-src 'self'.*script-src 'self'.*style-src 'self'/;

test('the host portal drives the embedded console through `route` and follows iam-navigate; its URL and history stay', async () => {
  const watched = await cspWatchedPage();
  const { page } = watched;
  await page.goto(`${server.url}/demo/portal.html`);
  const embedded = page.locator('iam-console');
  // Signed out: the console shows its sign-in page in place of the screen.
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  const start = await page.evaluate(() => ({ href: location.href, length: history.length }));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await embedded.getByRole('heading', { name: 'Users' }).first().waitFor();
  assert.equal(await embedded.getByRole('navigation', { name: 'Main menu' }).count(), 0, 'uiEmbed: no side menu');
  assert.equal(await embedded.locator('header').count(), 0, 'uiEmbed: no top bar');

  await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Tenants' }).click();
  // iam-navigate reached the portal: its title line shows the console's route title.
  await page.locator('#portal-title').filter({ hasText: 'Tenant' }).waitFor();
  assert.equal(await embedded.getAttribute('route'), '/operate/tenant/list');
  assert.equal(await page.getByRole('link', { name: 'Tenants' }).getAttribute('aria-current'), 'page');

  await page.getByRole('link', { name: 'My account' }).click();
  await embedded.getByRole('heading', { name: 'Personal center' }).waitFor();
  assert.equal(await page.getByRole('link', { name: 'Tenants' }).getAttribute('aria-current'), null);
  assert.deepEqual(await page.evaluate(() => ({ href: location.href, length: history.length })), start, 'the host URL and history are untouched');
  await checkPage(watched, 'portal', STRICT);
  await watched.context.close();
});

test('the sign-in demo page works under the strict CSP', async () => {
  const watched = await cspWatchedPage();
  await watched.page.goto(`${server.url}/demo/login.html`);
  await watched.page.getByLabel('Username').waitFor();
  await checkPage(watched, 'login', STRICT);
  await watched.context.close();
});

test('the demo index links every host page, each served under a strict or nonce CSP', async () => {
  const watched = await cspWatchedPage();
  const { page } = watched;
  await page.goto(`${server.url}/demo/`);
  const links = page.getByRole('navigation', { name: 'Demos' }).getByRole('link');
  const targets = await links.evaluateAll((anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).href));
  assert.deepEqual(
    targets.map((href) => new URL(href).pathname),
    ['/demo/portal.html', '/demo/react.html', '/demo/vue.html', '/demo/history/', '/demo/nonce.html', '/demo/login.html'],
  );
  for (const href of targets) {
    const answer = await page.request.get(href);
    assert.equal(answer.status(), 200, href);
    assert.match(answer.headers()['content-security-policy'] ?? '', /script-src 'self'( 'nonce-[^']+')?;/, href);
    assert.match(await answer.text(), /<iam-(console|login|provider)|id="(react|vue)-host"/, href);
  }
  await checkPage(watched, 'index', STRICT);
  await watched.context.close();
});

test('the React 19 host drives the console through <iam-provider> and typed events', async () => {
  const watched = await cspWatchedPage();
  const { page } = watched;
  await page.goto(`${server.url}/demo/react.html`);
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const embedded = page.locator('iam-console');
  const hostBar = page.getByRole('banner');
  await embedded.getByRole('heading', { name: `Welcome back, ${ADMIN.username}` }).waitFor();
  // The provider's theme reached the console; the host's button switches it live.
  assert.equal(await embedded.getAttribute('theme'), 'light');
  await hostBar.getByRole('button', { name: 'Dark theme' }).click();
  await page.waitForFunction(() => document.querySelector('iam-console')?.getAttribute('theme') === 'dark');
  assert.equal(await page.locator('iam-password-dialog').getAttribute('theme'), 'dark');

  await hostBar.getByRole('button', { name: 'My account' }).click();
  await embedded.getByRole('heading', { name: 'Personal center' }).waitFor();
  // The typed iam-navigate listener put the route title into the host's bar.
  await page.locator('.react-host-title').filter({ hasText: 'Personal center' }).waitFor();

  await hostBar.getByRole('button', { name: 'Change password' }).click();
  const dialog = page.locator('iam-password-dialog').getByRole('dialog');
  await dialog.waitFor();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  // iam-close reached React, whose state (set as the element's `open` property) is false again.
  await page.waitForFunction(() => document.querySelector('iam-password-dialog')?.open === false);

  await hostBar.getByRole('button', { name: 'Edit profile' }).click();
  const profile = page.locator('iam-profile-dialog').getByRole('dialog');
  await profile.getByLabel('Real name').waitFor();
  await profile.getByRole('button', { name: 'Save' }).click();
  // iam-profile-saved (typed detail) reached the host; the dialog closed itself.
  await hostBar
    .getByRole('status')
    .filter({ hasText: /^Profile saved \(\S{8}\)\.$/ })
    .waitFor();
  await profile.waitFor({ state: 'detached' });
  await checkPage(watched, 'react', STRICT);
  await watched.context.close();
});

test('the third-party page on another origin signs in with a token kept in memory only', async () => {
  const watched = await cspWatchedPage();
  const { page, context } = watched;
  let token: string | undefined;
  page.on('response', async (answer) => {
    if (answer.url().endsWith('/api/authc/login') && answer.request().method() === 'POST')
      token = ((await answer.json()) as { data?: { token?: string } }).data?.token;
  });
  await page.goto(`${thirdParty.url}/demo/third-party.html?api=${encodeURIComponent(`${server.url}/api`)}`);
  assert.notEqual(new URL(thirdParty.url).origin, new URL(server.url).origin);
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `Signed in as ${ADMIN.username}.` })
    .waitFor();

  assert.ok(token && token.length >= 16, 'the server answered a token in token mode');
  const stored = await page.evaluate(() => ({
    attributes: [...document.querySelectorAll('*')].flatMap((element) => [...element.attributes].map((attribute) => attribute.value)),
    html: document.documentElement.outerHTML,
    local: JSON.stringify({ ...localStorage }),
    session: JSON.stringify({ ...sessionStorage }),
    cookie: document.cookie,
  }));
  assert.ok(!stored.attributes.some((value) => value.includes(token!)), 'the token is in no attribute');
  assert.ok(!stored.html.includes(token), 'the token is nowhere in the markup');
  assert.ok(!stored.local.includes(token) && !stored.session.includes(token), 'the token is in no web storage');
  assert.equal(stored.cookie, '', 'no cookie on the third-party origin');
  assert.deepEqual(await context.cookies(thirdParty.url), [], 'no cookie for the third-party origin');

  // The token works as the header named by token-name (default `token`) from this origin.
  const session = await page.evaluate(async ({ api, value }) => (await fetch(`${api}/cas/session`, { headers: { token: value } })).status, {
    api: `${server.url}/api`,
    value: token,
  });
  assert.equal(session, 200);
  await checkPage(watched, 'third-party', /default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self' http:\/\/127\.0\.0\.1:\d+/);
  await context.close();
});

test('the Vue 3 host signs in with <iam-login>, drives the console through its own nav and switches it to Chinese', async () => {
  const watched = await cspWatchedPage();
  const { page } = watched;
  await page.goto(`${server.url}/demo/vue.html`);
  const start = await page.evaluate(() => ({ href: location.href, length: history.length }));
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // The typed iam-login-success listener reported the username; the host then shows the console.
  const hostBar = page.getByRole('banner');
  await hostBar
    .getByRole('status')
    .filter({ hasText: `Signed in as ${ADMIN.username}.` })
    .waitFor();
  const embedded = page.locator('iam-console');
  await embedded.getByRole('heading', { name: `Welcome back, ${ADMIN.username}` }).waitFor();
  assert.equal(await page.locator('iam-login').count(), 0, 'the sign-in form is gone');
  assert.equal(await embedded.getByRole('navigation', { name: 'Main menu' }).count(), 0, 'uiEmbed: no side menu');

  const nav = page.getByRole('navigation', { name: 'Vue host' });
  for (const [link, heading, route] of [
    ['Users', 'Users', '/operate/user'],
    ['Tenants', 'Tenants', '/operate/tenant/list'],
    ['My account', 'Personal center', '/profile/userInfo'],
  ] as const) {
    await nav.getByRole('link', { name: link }).click();
    await embedded.getByRole('heading', { name: heading, level: 1, exact: true }).waitFor();
    // iam-navigate (typed detail) reached Vue: the route follows and the host's bar shows the title.
    assert.equal(await embedded.getAttribute('route'), route);
    await hostBar.locator('.vue-host-title').filter({ hasText: heading }).waitFor();
    assert.equal(await nav.getByRole('link', { name: link }).getAttribute('aria-current'), 'page');
  }

  await hostBar.getByRole('button', { name: '中文' }).click();
  await embedded.getByRole('heading', { name: '个人中心', level: 1 }).waitFor();
  assert.equal(await embedded.getAttribute('locale'), 'zh', 'the locale reached the console as an attribute');
  await nav.getByRole('link', { name: 'Users' }).click();
  await embedded.getByRole('heading', { name: '用户管理', level: 1 }).waitFor();
  assert.deepEqual(await page.evaluate(() => ({ href: location.href, length: history.length })), start, 'the host URL and history are untouched');
  await checkPage(watched, 'vue', STRICT);
  await watched.context.close();
});

test('history routing under a sub-path: deep links, pushed URLs, back and forward stay below the base', async () => {
  const base = '/demo/history';
  const watched = await cspWatchedPage();
  const { page } = watched;
  const pathOf = () => new URL(page.url()).pathname;
  const embedded = page.locator('iam-console');

  // Signed out, a deep link goes to the sign-in page below the base, and back to the link after it.
  await page.goto(`${server.url}${base}/operate/user`);
  await page.getByLabel('Username').fill(ADMIN.username);
  assert.equal(pathOf(), `${base}/login`);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await embedded.getByRole('heading', { name: 'Users', level: 1, exact: true }).waitFor();
  assert.equal(pathOf(), `${base}/operate/user`);

  // Signed in, a deep link loads the page (server fallback) and opens its screen.
  await page.goto(`${server.url}${base}/operate/tenant/list`);
  await embedded.getByRole('heading', { name: 'Tenants', level: 1, exact: true }).waitFor();
  const hrefs = await page.evaluate(() =>
    [...document.querySelector('iam-console')!.shadowRoot!.querySelectorAll('a[href]')].map((link) => link.getAttribute('href') ?? ''),
  );
  assert.ok(hrefs.length >= 5, `the console shows its links (${hrefs.length})`);
  // (The skip link's #fragment stays on the page itself.)
  assert.deepEqual(
    hrefs.filter((href) => !href.startsWith(`${base}/`) && !href.startsWith('#')),
    [],
    'every link stays below the base',
  );

  // In-app navigation pushes entries below the base without loading the page again.
  await page.evaluate(() => ((window as unknown as { loaded: string }).loaded = 'once'));
  const length = await page.evaluate(() => history.length);
  const menu = embedded.getByRole('navigation', { name: 'Main menu' });
  await menu.getByRole('link', { name: 'Users' }).click();
  await embedded.getByRole('heading', { name: 'Users', level: 1, exact: true }).waitFor();
  assert.equal(pathOf(), `${base}/operate/user`);
  await menu.getByRole('link', { name: 'Apps' }).click();
  await embedded.getByRole('heading', { name: 'Apps', level: 1, exact: true }).waitFor();
  assert.equal(pathOf(), `${base}/operate/app`);
  assert.equal(await page.evaluate(() => history.length), length + 2, 'two entries pushed');

  await page.goBack();
  await embedded.getByRole('heading', { name: 'Users', level: 1, exact: true }).waitFor();
  assert.equal(pathOf(), `${base}/operate/user`);
  await page.goBack();
  await embedded.getByRole('heading', { name: 'Tenants', level: 1, exact: true }).waitFor();
  assert.equal(pathOf(), `${base}/operate/tenant/list`);
  await page.goForward();
  await embedded.getByRole('heading', { name: 'Users', level: 1, exact: true }).waitFor();
  assert.equal(pathOf(), `${base}/operate/user`);
  assert.equal(await page.evaluate(() => (window as unknown as { loaded?: string }).loaded), 'once', 'no page load: the console routed in place');
  // The host's own markup is untouched.
  await page.getByRole('banner').filter({ hasText: 'Acme intranet' }).waitFor();
  await checkPage(watched, 'history', STRICT);

  // Signing out lands on the sign-in page below the base too.
  await embedded.getByRole('button', { name: /^Account menu of / }).click();
  await embedded.getByRole('menuitem', { name: 'Sign out' }).click();
  await embedded.getByRole('dialog', { name: 'Sign out' }).getByRole('button', { name: 'Sign out' }).click();
  await embedded.getByRole('heading', { name: 'Sign in' }).waitFor();
  assert.equal(pathOf(), `${base}/login`);
  assert.deepEqual(await violationsOf(page), []);
  await watched.context.close();
});

test('a host whose CSP allows its inline script and style by nonce: every element works, no violation', async () => {
  const watched = await cspWatchedPage();
  const { page } = watched;
  const answer = await page.goto(`${server.url}/demo/nonce.html`);
  const policy = (await answer!.allHeaders())['content-security-policy'] ?? '';
  const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(policy)?.[1];
  assert.ok(nonce && nonce.length >= 16, `a nonce in the script policy: ${policy}`);
  assert.ok(policy.includes(`style-src 'self' 'nonce-${nonce}'`), 'the same nonce in the style policy');
  assert.ok(!policy.includes("'unsafe-inline'"), 'no unsafe-inline');
  const again = (await fetch(`${server.url}/demo/nonce.html`)).headers.get('content-security-policy');
  assert.ok(again && !again.includes(nonce), 'a fresh nonce on every answer');

  // The inline script (it puts <iam-login> on the page) and the inline style both ran.
  await page.getByLabel('Username').fill(ADMIN.username);
  const hostBar = page.getByRole('banner');
  assert.equal(await hostBar.evaluate((bar) => getComputedStyle(bar).backgroundColor), 'rgb(59, 63, 143)');
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await hostBar
    .getByRole('status')
    .filter({ hasText: `Signed in as ${ADMIN.username}.` })
    .waitFor();
  const embedded = page.locator('iam-console');
  await embedded.getByRole('heading', { name: 'Users', level: 1, exact: true }).waitFor();
  const nonces = await page.evaluate(() =>
    ['iam-provider', 'iam-console', 'iam-profile-dialog', 'iam-password-dialog'].map((tag) => (document.querySelector(tag) as HTMLElement).nonce),
  );
  assert.deepEqual(nonces, [nonce, nonce, nonce, nonce], 'every element carries the page nonce');

  await hostBar.getByRole('button', { name: 'Edit profile' }).click();
  const profile = page.locator('iam-profile-dialog').getByRole('dialog');
  await profile.getByLabel('Real name').waitFor();
  await page.keyboard.press('Escape');
  await profile.waitFor({ state: 'detached' });
  await hostBar.getByRole('button', { name: 'Change password' }).click();
  const password = page.locator('iam-password-dialog').getByRole('dialog');
  await password.getByLabel('Old password', { exact: true }).waitFor();
  await page.keyboard.press('Escape');
  await password.waitFor({ state: 'detached' });
  await checkPage(watched, 'nonce', /default-src 'self'; script-src 'self' 'nonce-[^']+'; style-src 'self' 'nonce-[^']+'/);
  await watched.context.close();
});
