// The administration story, through the screens only: the platform administrator creates a tenant, an
// app with a privilege tree and a role, a user in that tenant with that role, and menu plans (the
// app's and the global one the console's side menu follows); after a reload each is found again
// through its screen's search; the new user signs in and sees exactly the menu the plans and the
// role allow (the console's side menu follows the global plan; the app's menu as the portal gets it).
// One story: its steps are subtests of one test, run in order on one page by definition.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, ApiClient, openPage, type WatchedPage, startServerAndBrowser } from './harness';
import { columnTexts, mainMenu, openFromMenu, signIn, until } from './admin-support';

const { server, browser } = await startServerAndBrowser();
let watched: WatchedPage;
let page: Page;
let appPath: string;
const USER = { username: 'journey-user', password: 'Journey-2024' };

const dialog = (name: string) => page.getByRole('dialog', { name });
const search = (text: string) => page.getByRole('searchbox', { name: 'Search' }).fill(text);

async function addPrivilege(name: string, key: string, under?: string): Promise<void> {
  const tree = page.getByRole('tree', { name: 'Privilege tree' });
  if (under) {
    await tree.getByRole('treeitem', { name: new RegExp(`^${under}`) }).click();
    await page.getByRole('button', { name: `Add child ${under}` }).click();
  } else {
    await page.getByRole('button', { name: 'Add privilege' }).click();
  }
  const form = dialog('New privilege');
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Key').fill(key);
  await form.getByRole('button', { name: 'Save' }).click();
  await form.waitFor({ state: 'detached' });
  await tree.getByRole('treeitem', { name: new RegExp(`^${name}`) }).waitFor();
}

async function addMenuItem(name: string, path: string, privilege?: string): Promise<void> {
  await page.getByRole('button', { name: 'Add menu item' }).click();
  const fields = page.getByRole('region').filter({ has: page.getByRole('button', { name: /^Delete item/ }) });
  await fields.getByLabel('Item name (English)').fill(name);
  await fields.getByLabel('Path').fill(path);
  if (privilege) await fields.getByLabel('Shown to holders of').selectOption({ label: privilege });
}

/** Opens a screen by its address (the side menu follows the global plan once it exists). */
async function visit(path: string, heading: string): Promise<void> {
  await page.goto(`${server.url}${path}`);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

async function startPlan(menu: string): Promise<void> {
  await visit('/operate/menu', 'Menu plans');
  await page.getByRole('button', { name: 'New menu plan' }).click();
  await dialog('New menu plan').getByLabel('Menu').selectOption({ label: menu });
  await dialog('New menu plan').getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: menu, level: 2 }).waitFor();
}

test('the administration journey', async (t) => {
  watched = await openPage(browser);
  page = watched.page;
  await signIn(page, server.url, ADMIN.username, ADMIN.password);

  await t.test('the platform administrator builds it all through the screens', async () => {
    // A tenant.
    await openFromMenu(page, 'Tenants');
    await page.getByRole('tree', { name: 'Tenant tree' }).getByRole('treeitem', { name: /^root/ }).click();
    await page.getByRole('button', { name: 'Add sub-tenant root' }).click();
    await dialog('New tenant under root').getByLabel('Name').fill('Journey_Co');
    await dialog('New tenant under root').getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Journey_Co', level: 2 }).waitFor();

    // An app with a privilege tree and a role.
    await openFromMenu(page, 'Apps');
    await page.getByRole('button', { name: 'New app' }).click();
    await dialog('New app').getByLabel('Name').fill('Journey_App');
    await dialog('New app').getByLabel('Entrypoint').fill('https://journey.example.com/');
    await dialog('New app').getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Journey_App', level: 2 }).waitFor();
    appPath = new URL(page.url()).pathname;
    await page.getByRole('tab', { name: 'Privileges' }).click();
    await addPrivilege('Reports', 'reports');
    await addPrivilege('Monthly', 'monthly', 'Reports');
    await addPrivilege('Billing', 'billing');
    await page.getByRole('tab', { name: 'Roles' }).click();
    await page.getByRole('button', { name: 'New role' }).click();
    const role = dialog('New role');
    await role.getByLabel('Role name').fill('Analyst');
    await role.getByLabel('Reports (reports)').check();
    await role.getByRole('button', { name: 'Save' }).click();
    await role.waitFor({ state: 'detached' });

    // A user in that tenant, with that role.
    await openFromMenu(page, 'Users');
    await page.getByRole('button', { name: 'New user' }).click();
    const form = dialog('New user');
    await form.getByLabel('Username').fill(USER.username);
    await form.getByLabel('Real name').fill('Journey_User');
    await form.getByLabel('Password', { exact: true }).fill(USER.password);
    await form.getByLabel('Tenant', { exact: true }).selectOption({ label: '\u00a0\u00a0Journey_Co' });
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await search(USER.username);
    await page.getByRole('button', { name: `Roles ${USER.username}` }).click();
    await dialog(`Roles of ${USER.username}`).getByRole('group', { name: 'Journey_App' }).getByLabel('Analyst').check();
    await dialog(`Roles of ${USER.username}`).getByRole('button', { name: 'Save' }).click();
    await dialog(`Roles of ${USER.username}`).waitFor({ state: 'detached' });

    // The app's menu plan and the global one, items bound to privileges.
    await startPlan('Journey_App');
    await addMenuItem('Reports', '/reports', 'Reports (reports)');
    await addMenuItem('Billing', '/billing', 'Billing (billing)');
    await addMenuItem('Help', '/help');
    await page.getByRole('button', { name: 'Save menu plan' }).click();
    await page.getByText('Not saved yet').waitFor({ state: 'detached' });
    await startPlan('Global menu');
    await addMenuItem('Start here', '/home/index');
    await addMenuItem('My reports', '/profile/message', 'Reports (reports)');
    await addMenuItem('Billing center', '/profile/messageHis', 'Billing (billing)');
    await page.getByRole('button', { name: 'Save menu plan' }).click();
    await page.getByText('Not saved yet').waitFor({ state: 'detached' });
  });

  await t.test('after a reload each is found again through its screen’s search', async () => {
    await page.reload();
    await visit('/operate/tenant/list', 'Tenants');
    await search('journey');
    await page
      .getByRole('list', { name: 'Matching tenants' })
      .getByRole('button', { name: /Journey_Co/ })
      .click();
    await page.getByRole('heading', { name: 'Journey_Co', level: 2 }).waitFor();

    await visit('/operate/app', 'Apps');
    const apps = page.getByRole('table', { name: 'Apps' });
    await search('journey');
    await until(async () => JSON.stringify(await columnTexts(apps, 0)) === '["Journey_App"]');

    await visit('/operate/user', 'Users');
    const users = page.getByRole('table', { name: 'Users' });
    await search('journey');
    await until(async () => JSON.stringify(await columnTexts(users, 0)) === `["${USER.username}"]`);
    await users.getByText('Journey_Co').waitFor();

    await page.goto(`${server.url}${appPath}`);
    await page.getByRole('tab', { name: 'Roles' }).click();
    await search('analy');
    await until(async () => JSON.stringify(await columnTexts(page.getByRole('table', { name: 'Roles' }), 0)) === '["Analyst"]');

    await visit('/operate/menu', 'Menu plans');
    const plans = page.getByRole('table', { name: 'Menu plans' });
    await search('journey');
    await until(async () => JSON.stringify(await columnTexts(plans, 0)) === '["Journey_App"]');
    assert.deepEqual(watched.errors, []);
  });

  await t.test('the new user signs in and sees exactly the menu the plans and the role allow', async () => {
    const person = await openPage(browser);
    await signIn(person.page, server.url, USER.username, USER.password);
    await person.page.getByRole('heading', { name: 'Welcome back, Journey_User' }).waitFor();
    // The console's side menu follows the global plan: the item bound to Billing is not there.
    const menu = mainMenu(person.page);
    await menu.getByRole('link', { name: 'My reports' }).waitFor();
    assert.deepEqual(await menu.getByRole('link').allTextContents(), ['Start here', 'My reports']);
    await menu.getByRole('link', { name: 'My reports' }).click();
    await person.page.waitForURL((url) => url.pathname === '/profile/message');
    // The menus as the console and the portal receive them (the same call, as the new user): items
    // bound to a privilege the role does not grant are not there.
    const menus = await person.page.evaluate(async () => {
      const answer = await fetch('/api/menu/app/assignment/public/multi_app_menu/list', { credentials: 'same-origin' });
      return ((await answer.json()) as { data: { appId: string | null; appName: string; menus: { name: string }[] }[] }).data;
    });
    const names = (entry: { menus: { name: string }[] } | undefined) => entry?.menus.map((item) => item.name);
    assert.deepEqual(names(menus.find((entry) => entry.appName === 'Journey_App')), ['Reports', 'Help']);
    assert.deepEqual(names(menus.find((entry) => entry.appId === null)), ['Start here', 'My reports']);
    // The administrator, holding everything, receives every item, and the administration screens the
    // plan leaves out under the Operations group (route.operate, translated by the console).
    const admin = new ApiClient(server.url);
    await admin.signIn(ADMIN.username, ADMIN.password);
    const all = await admin.call<{ appId: string | null; menus: { name: string }[] }[]>('GET', '/menu/app/assignment/public/multi_app_menu/list');
    assert.deepEqual(names(all.find((entry) => entry.appId === null)), ['Start here', 'My reports', 'Billing center', 'route.operate']);
    assert.deepEqual(person.errors, []);
  });
});
