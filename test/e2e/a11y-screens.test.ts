// axe-core on every screen and every dialog, signed in as the platform administrator with a
// little seeded data (so tables, trees and details are not empty), in English and Chinese, dark and
// light. Every screen is checked in all four combinations; the dialogs and the third-party
// complement form (reached through a real OpenID Connect provider) in English/dark and
// Chinese/light (a rotation that covers each locale and each theme once). Fails on any serious or
// critical violation, colour contrast included. Also: `lang` on the console root follows the locale,
// and each dialog gives focus back to its opener when it closes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { ADMIN, ApiClient, openPage, type WatchedPage, startServerAndBrowser } from './harness';
import { startIdentityProvider, type IdentityProvider } from '../server/identity-provider';
import { until } from './admin-support';
import { CHANNEL, choose, consoleScreens, MEMBER, seedSample, seriousViolations, settled, text, type Locale, type SampleIds, type Theme } from './a11y-support';

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

/** Every dialog: how to open it, answering the element that must have the focus after it closes. */
function dialogs(locale: Locale): { name: string; open: () => Promise<Locator> }[] {
  const accountMenu = () => page.getByRole('button', { name: text(locale, 'console:user.menu', { name: ADMIN.username }) });
  /** Dialogs opened one after another on the same screen share one load of it (Escape keeps it). */
  const visit = async (path: string) => {
    if (new URL(page.url()).pathname === path) return;
    await page.goto(`${server.url}${path}`);
    await settled(page);
  };
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

/** Signing in through the provider as a person new here ends on the complement form (/infoComplete). */
async function complementFormViolations(locale: Locale, theme: Theme): Promise<string[]> {
  await page.getByRole('link', { name: text(locale, 'console:login.withProvider', { name: PROVIDER }) }).click();
  await page.getByText(text(locale, 'console:infoComplete.text')).waitFor();
  await settled(page);
  const found = await seriousViolations(page, `${locale}/${theme} third-party complement form`);
  await page.goto(`${server.url}/login`);
  await page.getByRole('heading', { name: text(locale, 'login:title') }).waitFor();
  return found;
}

async function signIn(locale: Locale): Promise<void> {
  await page.getByLabel(text(locale, 'login:identifier.USERNAME_PASSWORD')).fill(ADMIN.username);
  await page.getByLabel(text(locale, 'login:password'), { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: text(locale, 'login:submit') }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
}

const combinations: { locale: Locale; theme: Theme; withDialogs: boolean }[] = [
  { locale: 'en', theme: 'dark', withDialogs: true },
  { locale: 'en', theme: 'light', withDialogs: false },
  { locale: 'zh', theme: 'dark', withDialogs: false },
  { locale: 'zh', theme: 'light', withDialogs: true },
];

for (const { locale, theme, withDialogs } of combinations) {
  test(`axe finds no serious or critical violation on every screen${withDialogs ? ' and dialog' : ''} (${locale}, ${theme})`, async () => {
    const found: string[] = [];
    // One page per combination: its own cookies, locale and theme chosen before the console loads.
    watched = await openPage(browser);
    page = watched.page;
    await watched.context.addInitScript(choose, { locale, theme });
    await page.goto(`${server.url}/login`);
    await page.getByRole('heading', { name: text(locale, 'login:title') }).waitFor();
    await settled(page);
    assert.equal(await rootLang(), locale, 'lang of the console root on the sign-in page');
    found.push(...(await seriousViolations(page, `${locale}/${theme} sign-in`)));
    if (withDialogs) found.push(...(await complementFormViolations(locale, theme)));
    await signIn(locale);

    for (const screen of consoleScreens(ids, locale)) {
      const where = `${locale}/${theme} ${screen.name}`;
      await page.goto(`${server.url}${screen.path}`);
      await settled(page).catch((error: Error) => assert.fail(`${where}: ${error.message}`));
      if (screen.then) {
        await screen.then(page);
        await settled(page);
      }
      found.push(...(await seriousViolations(page, where)));
    }
    assert.equal(await rootLang(), locale, 'lang of the console root when signed in');

    if (withDialogs) {
      for (const dialog of dialogs(locale)) {
        const opener = await dialog.open();
        await page.getByRole('dialog').waitFor();
        await settled(page);
        found.push(...(await seriousViolations(page, `${locale}/${theme} ${dialog.name} dialog`)));
        await page.keyboard.press('Escape');
        await page.getByRole('dialog').waitFor({ state: 'detached' });
        await until(() => shadowActive(opener), 3000).catch(() =>
          found.push(`${locale}/${theme} ${dialog.name} dialog: the focus did not return to its opener`),
        );
      }
    }
    assert.deepEqual(found, [], `accessibility problems:\n${found.join('\n')}`);
    assert.deepEqual(watched.errors, []);
    await watched.context.close();
  });
}
