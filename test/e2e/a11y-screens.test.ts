// axe-core on every screen of §2 and the main dialogs, signed in as the platform administrator with
// a little seeded data (so tables, trees and details are not empty), in English and Chinese, dark
// and light. Every screen is checked in all four combinations; the dialogs in English/dark and
// Chinese/light (a rotation that covers each locale and each theme once). Fails on any serious or
// critical violation, colour contrast included. Also: `lang` on the console root follows the locale,
// and each dialog gives focus back to its opener when it closes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Locator, Page } from 'playwright-core';
import { ADMIN, launchBrowser, openPage, startServer, type RunningServer, type WatchedPage } from './harness';
import { until } from './admin-support';
import { choose, consoleScreens, MEMBER, seedSample, seriousViolations, settled, text, type Locale, type SampleIds, type Theme } from './a11y-support';

let server: RunningServer;
let browser: Browser;
let watched: WatchedPage;
let page: Page;
let ids: SampleIds;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  ids = await seedSample(server.url);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const shadowActive = (element: Locator) => element.evaluate((node) => (node.getRootNode() as ShadowRoot | Document).activeElement === node);
const rootLang = () => page.locator('iam-console').evaluate((host) => host.shadowRoot?.querySelector('[data-theme]')?.getAttribute('lang'));

/** The main dialogs: how to open each, and which element must have the focus after it closes. */
function dialogs(locale: Locale): { name: string; open: () => Promise<Locator> }[] {
  const accountMenu = () => page.getByRole('button', { name: text(locale, 'console:user.menu', { name: ADMIN.username }) });
  const fromAccountMenu = (item: string) => async () => {
    await page.goto(`${server.url}/home/index`);
    await settled(page);
    await accountMenu().click();
    await page.getByRole('menuitem', { name: text(locale, item) }).click();
    return accountMenu();
  };
  const onUsers = async () => {
    await page.goto(`${server.url}/operate/user`);
    await page.getByRole('cell', { name: MEMBER, exact: true }).waitFor();
  };
  const fromRowMenu = (item: string) => async () => {
    await onUsers();
    const more = page.getByRole('button', { name: text(locale, 'admin:action.moreOf', { name: MEMBER }) });
    await more.click();
    await page.getByRole('menuitem', { name: text(locale, item) }).click();
    return more;
  };
  const byButton = (name: () => string) => async () => {
    await onUsers();
    const opener = page.getByRole('button', { name: name(), exact: true });
    await opener.click();
    return opener;
  };
  return [
    { name: 'profile', open: fromAccountMenu('console:user.profile') },
    { name: 'own password', open: fromAccountMenu('console:user.resetPassword') },
    { name: 'new user', open: byButton(() => text(locale, 'admin:user.create')) },
    { name: 'edit user', open: byButton(() => text(locale, 'admin:action.of', { action: text(locale, 'admin:action.edit'), name: MEMBER })) },
    { name: "a user's password", open: fromRowMenu('admin:action.resetPassword') },
    { name: 'delete confirmation', open: fromRowMenu('admin:action.delete') },
  ];
}

async function signIn(locale: Locale): Promise<void> {
  await page.getByLabel(text(locale, 'login:username')).fill(ADMIN.username);
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
    await signIn(locale);

    for (const screen of consoleScreens(ids, locale)) {
      await page.goto(`${server.url}${screen.path}`);
      await settled(page);
      await screen.then?.(page);
      await settled(page);
      found.push(...(await seriousViolations(page, `${locale}/${theme} ${screen.name}`)));
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
        await until(() => shadowActive(opener), 3000).catch(() => found.push(`${locale}/${theme} ${dialog.name} dialog: the focus did not return to its opener`));
      }
    }
    assert.deepEqual(found, [], `accessibility problems:\n${found.join('\n')}`);
    assert.deepEqual(watched.errors, []);
    await watched.context.close();
  });
}
