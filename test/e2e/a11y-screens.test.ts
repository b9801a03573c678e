// axe-core on every screen and every dialog, signed in as the platform administrator with a
// little seeded data (so tables, trees and details are not empty), in English and Chinese, dark and
// light. Every screen (and the sign-in page) is checked in all four combinations; the dialogs and the
// third-party complement form (reached through a real OpenID Connect provider) in English/dark and
// Chinese/light (a rotation that covers each locale and each theme once). Fails on any serious or
// critical violation, colour contrast included. Also: `lang` on the console root follows the locale,
// and each dialog gives focus back to its opener when it closes. And reflow (WCAG 1.4.10): at 320 CSS
// pixels wide nothing scrolls sideways on the sign-in page and every screen, in English and in
// Chinese (light theme): the page's scrolling element is no wider than the viewport, and the top
// bar's account button is inside it (each screen's visit runs both checks).
//
// One page for the whole file. The sign-in page opens in the person's stored choice; each screen is
// reached the way the console's links go (no page load, and axe injected once), and shown in the
// four combinations by switching the element's locale and theme in place (a page load per screen
// and combination cost more than the checks: this file took 269 s of CI).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { ADMIN, ApiClient, openPage, type WatchedPage, startServerAndBrowser } from './harness';
import { startIdentityProvider, type IdentityProvider } from '../server/identity-provider';
import { signIn, until } from './admin-support';
import {
  CHANNEL,
  choose,
  consoleScreens,
  MEMBER,
  navigateInApp,
  seedSample,
  seriousViolations,
  settled,
  showAs,
  text,
  type Locale,
  type SampleIds,
  type Theme,
} from './a11y-support';

const { server, browser } = await startServerAndBrowser({ IAM_OUTBOUND_ALLOW: '127.0.0.1' });
let watched: WatchedPage;
let page: Page;
let ids: SampleIds;
let idp: IdentityProvider;
/** The sample's other tenant (the tenant move dialog needs one that is not the root). */
const TENANT = 'Northwind';
const PROVIDER = 'Corp SSO';

before(async () => {
  ids = await seedSample(server.url);
  // A third-party provider whose person is new here: signing in with it ends on the complement form.
  idp = await startIdentityProvider(`${server.url}/api/interaction/idp/corp/authorize/callback`, {
    sub: 'corp-carol',
    preferred_username: 'carol',
    name: 'Carol',
    email: 'carol@corp.example',
  });
  const api = new ApiClient(server.url);
  await api.signIn(ADMIN.username, ADMIN.password);
  await api.call('POST', '/idps', {
    code: 'corp',
    name: PROVIDER,
    type: 'OIDC',
    config: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret },
  });
  const { version } = await api.call<{ version: number }>('GET', '/config');
  await api.call('PUT', '/config', { system: { supportThirdLogin: 'Y' }, version });
});

after(async () => {
  await idp?.stop();
});

const shadowActive = (element: Locator) => element.evaluate((node) => (node.getRootNode() as ShadowRoot | Document).activeElement === node);
const rootLang = () => page.locator('iam-console').evaluate((host) => host.shadowRoot?.querySelector('[data-theme]')?.getAttribute('lang'));

type Combination = { locale: Locale; theme: Theme };
const zhLight: Combination = { locale: 'zh', theme: 'light' };
const enDark: Combination = { locale: 'en', theme: 'dark' };
/** The four combinations, each one switch from the next: the screens walk them forth and back. */
const combinations: Combination[] = [zhLight, { locale: 'zh', theme: 'dark' }, enDark, { locale: 'en', theme: 'light' }];
/** The dialogs and the complement form: each locale and each theme once. */
const rotation = [enDark, zhLight];
/** What the page shows now (the sign-in page opens in the person's stored choice, the first one). */
let shown = zhLight;

async function show(combination: Combination): Promise<void> {
  await showAs(page, combination);
  shown = combination;
  assert.equal(await rootLang(), combination.locale, `lang of the console root in ${combination.locale}/${combination.theme}`);
}

const where = (name: string) => `${shown.locale}/${shown.theme} ${name}`;

/** The page's width: axe runs at 1280 px, reflow is checked at 320 px. */
const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 320, height: 640 };
let width = WIDE.width;

async function setWidth(size: { width: number; height: number }): Promise<void> {
  if (width === size.width) return;
  await page.setViewportSize(size);
  width = size.width;
  await page.waitForFunction((wanted) => window.innerWidth === wanted, size.width);
  // The console's narrow layout follows a media query: let it draw a frame in the new width.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await settled(page);
}

/** How far the page scrolls sideways, and the account button's right edge against the viewport. */
function overflow(): Promise<{ scrollWidth: number; clientWidth: number; account: number | null }> {
  return page.evaluate(() => {
    const scroller = document.scrollingElement!;
    const shadow = document.querySelector('iam-console')?.shadowRoot;
    const account = shadow?.querySelector('[part="header"] button[aria-haspopup="menu"]')?.getBoundingClientRect().right ?? null;
    return { scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth, account };
  });
}

/** Reflow at 320 px of what is on screen, in the language shown: the problems found. */
async function reflowProblems(name: string): Promise<string[]> {
  await setWidth(NARROW);
  const { scrollWidth, clientWidth, account } = await overflow();
  const problems: string[] = [];
  if (scrollWidth > clientWidth) problems.push(`${where(name)} at 320 px: scrollWidth ${scrollWidth} > clientWidth ${clientWidth}`);
  if (account !== null && account > clientWidth) problems.push(`${where(name)} at 320 px: the account button ends at ${account}, past ${clientWidth}`);
  return problems;
}

/**
 * What is on screen in the four combinations, in `order` (a light one first and last): axe at
 * 1280 px in each, reflow at 320 px in the first and the last (so in both languages). The reflow
 * of the first is checked before widening, that of the last after axe: the next screen is reached
 * and checked at 320 px first, so each screen costs one change of width each way.
 */
async function checkAllCombinations(name: string, order: Combination[], found: string[], reflow: string[]): Promise<void> {
  for (const [index, combination] of order.entries()) {
    await show(combination);
    if (index === 0) reflow.push(...(await reflowProblems(name)));
    await setWidth(WIDE);
    found.push(...(await seriousViolations(page, where(name))));
    if (index === order.length - 1) reflow.push(...(await reflowProblems(name)));
  }
}

/** Every dialog: how to open it, answering the element that must have the focus after it closes. */
/** Every dialog: how to open it, answering the element that must have the focus after it closes. */
function dialogs(combination: Combination): { name: string; open: () => Promise<Locator> }[] {
  const { locale } = combination;
  const accountMenu = () => page.getByRole('button', { name: text(locale, 'console:user.menu', { name: ADMIN.username }) });
  /** Moves in place to the screen a dialog opens on (dialogs on the same screen share it: Escape keeps it). */
  const visit = (path: string) => navigateInApp(page, path);
  const fromAccountMenu = (item: string) => async () => {
    await visit('/home/index');
    await accountMenu().click();
    await page.getByRole('menuitem', { name: text(locale, item) }).click();
    return accountMenu();
  };
  /** Opens `path`, waits for `ready` (a part that loads after the heading), then presses a button. */
  const byButton = (path: string, ready: () => Locator, name: () => string) => async () => {
    await visit(path);
    await ready().waitFor();
    const opener = page.getByRole('button', { name: name(), exact: true });
    await opener.click();
    return opener;
  };
  const users = '/operate/user';
  const member = () => page.getByRole('cell', { name: MEMBER, exact: true });
  const fromRowMenu = (item: string) => async () => {
    await visit(users);
    await member().waitFor();
    const more = page.getByRole('button', { name: text(locale, 'admin:action.moreOf', { name: MEMBER }) });
    await more.click();
    await page.getByRole('menuitem', { name: text(locale, item) }).click();
    return more;
  };
  const ofUser = (action: string) => () => text(locale, 'admin:action.of', { action: text(locale, `admin:action.${action}`), name: MEMBER });
  const ofTenant = (action: string, name: string) => () => text(locale, 'admin:action.of', { action: text(locale, `admin:tenant.${action}`), name });
  const tenants = '/operate/tenant/list';
  const tree = () => page.getByRole('treeitem').first();
  const appDetailTab = (tab: string, name: string) => async () => {
    await visit(`/app/detail/${ids.app}`);
    await page.getByRole('tab', { name: text(locale, tab) }).click();
    const opener = page.getByRole('button', { name: text(locale, name), exact: true });
    await opener.click();
    return opener;
  };
  const channels = '/operate/tunnel';
  const channelRow = () => page.getByRole('cell', { name: CHANNEL, exact: true });
  /** A button of the settings screen's third-party login tab, once its table lists the seeded provider. */
  const onIdpTab = (name: string) => async () => {
    await visit('/operate/setting');
    await page.getByRole('tab', { name: text(locale, 'settings:tab.thirdParty') }).click();
    await page.getByRole('cell', { name: PROVIDER, exact: true }).waitFor();
    const opener = page.getByRole('button', { name, exact: true });
    await opener.click();
    return opener;
  };
  return [
    { name: 'profile', open: fromAccountMenu('console:user.profile') },
    { name: 'own password', open: fromAccountMenu('console:user.resetPassword') },
    { name: 'logout confirmation', open: fromAccountMenu('console:user.logout') },
    { name: 'new user', open: byButton(users, member, () => text(locale, 'admin:user.create')) },
    { name: 'edit user', open: byButton(users, member, ofUser('edit')) },
    { name: "a user's roles", open: byButton(users, member, ofUser('roles')) },
    { name: "a user's password", open: fromRowMenu('admin:action.resetPassword') },
    { name: 'delete confirmation', open: fromRowMenu('admin:action.delete') },
    { name: 'new tenant', open: byButton(tenants, tree, ofTenant('addChild', 'root')) },
    {
      name: 'move tenant',
      open: async () => {
        await visit(tenants);
        await page.getByRole('treeitem', { name: new RegExp(TENANT) }).click();
        const opener = page.getByRole('button', { name: ofTenant('move', TENANT)(), exact: true });
        await opener.click();
        return opener;
      },
    },
    {
      name: 'new app',
      open: byButton(
        '/operate/app',
        () => page.getByRole('cell', { name: 'Shop' }).first(),
        () => text(locale, 'admin:app.create'),
      ),
    },
    { name: 'new privilege', open: appDetailTab('admin:app.tab.privileges', 'admin:privilege.addTop') },
    { name: 'new role', open: appDetailTab('admin:app.tab.roles', 'admin:role.create') },
    {
      name: 'new menu plan',
      open: byButton(
        '/operate/menu',
        () => page.getByRole('cell', { name: 'Shop menu' }).first(),
        () => text(locale, 'admin:menu.create'),
      ),
    },
    { name: 'new channel', open: byButton(channels, channelRow, () => text(locale, 'settings:channel.create')) },
    { name: 'send test', open: byButton(channels, channelRow, () => text(locale, 'settings:channel.testOf', { name: CHANNEL })) },
    {
      name: 'send message',
      open: byButton(
        '/profile/message',
        () => page.getByText('Quarterly access review').first(),
        () => text(locale, 'settings:send.open'),
      ),
    },
    { name: 'new identity provider', open: onIdpTab(text(locale, 'settings:idp.create')) },
    { name: 'edit identity provider', open: onIdpTab(text(locale, 'settings:idp.editShortOf', { name: PROVIDER })) },
  ];
}

test('axe finds no serious or critical violation on the sign-in page (both languages, both themes) and the complement form; nothing scrolls sideways at 320 px', async () => {
  // One page for the whole file: the locale and theme the person chose are kept the console's way.
  watched = await openPage(browser);
  page = watched.page;
  await watched.context.addInitScript(choose, zhLight);
  await page.goto(`${server.url}/login`);
  await page.getByRole('heading', { name: text(shown.locale, 'login:title') }).waitFor();
  await settled(page);
  const found: string[] = [];
  const reflow: string[] = [];
  await checkAllCombinations('sign-in', combinations, found, reflow);
  await setWidth(WIDE);

  // Signing in through the provider as a person new here ends on the complement form (/infoComplete),
  // a page load of its own: in the stored choice again.
  await page.getByRole('link', { name: text(shown.locale, 'console:login.withProvider', { name: PROVIDER }) }).click();
  shown = zhLight;
  await page.getByText(text(shown.locale, 'console:infoComplete.text')).waitFor();
  await settled(page);
  for (const combination of rotation) {
    await show(combination);
    found.push(...(await seriousViolations(page, where('third-party complement form'))));
  }
  assert.deepEqual(found, [], `accessibility problems:\n${found.join('\n')}`);
  assert.deepEqual(reflow, [], `sideways scrolling at 320 px:\n${reflow.join('\n')}`);
  assert.deepEqual(watched.errors, []);
});

test('axe finds no serious or critical violation on any screen (both languages, both themes); nothing scrolls sideways at 320 px (en, zh)', async () => {
  await signIn(page, server.url, ADMIN.username, ADMIN.password);
  await settled(page);
  const found: string[] = [];
  const reflow: string[] = [];
  const count = consoleScreens(ids, 'en').length;
  for (let index = 0; index < count; index++) {
    // The parts a screen shows on request are brought up by their names in the language on screen.
    const screen = consoleScreens(ids, shown.locale)[index];
    assert.ok(screen);
    await navigateInApp(page, screen.path).catch((error: Error) => assert.fail(`${where(screen.name)}: ${error.message}`));
    if (screen.then) {
      await screen.then(page);
      await settled(page);
    }
    await checkAllCombinations(screen.name, index % 2 ? [...combinations].reverse() : combinations, found, reflow);
  }
  await setWidth(WIDE);
  assert.deepEqual(found, [], `accessibility problems:\n${found.join('\n')}`);
  assert.deepEqual(reflow, [], `sideways scrolling at 320 px:\n${reflow.join('\n')}`);
  assert.deepEqual(watched.errors, []);
});

test('axe finds no serious or critical violation on any dialog, and each gives the focus back to its opener (en/dark, zh/light)', async () => {
  const found: string[] = [];
  for (const combination of rotation) {
    await show(combination);
    for (const dialog of dialogs(combination)) {
      const opener = await dialog.open();
      await page.getByRole('dialog').waitFor();
      await settled(page);
      found.push(...(await seriousViolations(page, where(`${dialog.name} dialog`))));
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await until(() => shadowActive(opener), 3000).catch(() => found.push(`${where(dialog.name)} dialog: the focus did not return to its opener`));
    }
  }
  assert.deepEqual(found, [], `accessibility problems:\n${found.join('\n')}`);
  assert.deepEqual(watched.errors, []);
  await watched.context.close();
});
