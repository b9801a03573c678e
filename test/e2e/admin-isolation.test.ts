// Isolation with three kinds of administrator, in the browser and on the server: a platform
// administrator reaches everything; a tenant administrator sees and changes only their tenant's
// subtree; an app administrator only the apps they administer. Each time the UI does not offer
// what the server refuses, and the server refuses it anyway when asked directly.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { transformPassword } from '../../src/core/password';
import { ADMIN, ApiClient, openPage, type WatchedPage, startServerAndBrowser } from './harness';
import { columnTexts, mainMenu, openFromMenu, PASSWORD, Seeder, signIn, until, type Created, type Tenant } from './admin-support';

const { server, browser } = await startServerAndBrowser();
let north: Tenant;
let northEast: Tenant;
let south: Tenant;
let southUser: Created;
let northUser: Created;
let alpha: Created;
let beta: Created;

before(async () => {
  const api = await Seeder.as(server.url);
  const root = await api.rootTenant();
  north = await api.tenant(root.id, 'North');
  northEast = await api.tenant(north.id, 'North_East', 'department');
  south = await api.tenant(root.id, 'South');
  await api.user({ username: 'north-admin', realName: 'North_Admin', tenantId: north.id, isAdmin: true });
  northUser = await api.user({ username: 'ne-user', realName: 'Ne_User', tenantId: northEast.id });
  southUser = await api.user({ username: 'south-user', realName: 'South_User', tenantId: south.id });
  alpha = await api.app('Alpha_App');
  beta = await api.app('Beta_App');
  const appAdmin = await api.user({ username: 'alpha-admin', realName: 'Alpha_Admin' });
  await api.call('PUT', `/apps/${alpha.id}/admins`, { userIds: [appAdmin.id] });
  await api.call('POST', '/menu-plans', { appId: alpha.id, name: 'Alpha menu', items: [{ name: 'Start', path: '/start' }] });
});

/** A browser page signed in as `username`, and an API client as the same person. */
async function as(username: string, password = PASSWORD): Promise<{ watched: WatchedPage; page: Page; client: ApiClient }> {
  // The one refused call this test makes from the browser is the foreign app opened by address.
  const watched = await openPage(browser, { expectedFailures: [/\/api\/apps\/[\w-]+$/] });
  await signIn(watched.page, server.url, username, password);
  const client = new ApiClient(server.url);
  await client.signIn(username, password);
  return { watched, page: watched.page, client };
}

/** The HTTP status a call answers (the API client throws on anything but success). */
async function statusOf(client: ApiClient, method: string, path: string, body?: unknown): Promise<number> {
  try {
    await client.call(method, path, body);
    return 200;
  } catch (error) {
    return Number(/: (\d{3}) /.exec((error as Error).message)?.[1] ?? 0);
  }
}

const menuLinks = async (page: Page) => {
  const operations = mainMenu(page).getByRole('button', { name: 'Operations' });
  if ((await operations.getAttribute('aria-expanded')) !== 'true') await operations.click();
  return mainMenu(page).getByRole('link').allTextContents();
};

test('a platform administrator sees and changes everything', async () => {
  const { page, watched, client } = await as(ADMIN.username, ADMIN.password);
  assert.ok((await menuLinks(page)).includes('Apps'));
  await openFromMenu(page, 'Users');
  const users = page.getByRole('table', { name: 'Users' });
  await users.getByText('south-user').waitFor();
  await users.getByText('ne-user').waitFor();
  await page.getByRole('button', { name: 'Roles ne-user' }).waitFor();
  await page.getByRole('button', { name: 'New user' }).click();
  await page.getByRole('dialog', { name: 'New user' }).getByLabel('User type').waitFor();
  await page.keyboard.press('Escape');

  await openFromMenu(page, 'Tenants');
  const tree = page.getByRole('tree', { name: 'Tenant tree' });
  await tree.getByRole('treeitem', { name: /^South/ }).waitFor();
  await tree
    .getByRole('treeitem', { name: /^North/ })
    .first()
    .waitFor();

  await openFromMenu(page, 'Apps');
  await page.getByRole('button', { name: 'New app' }).waitFor();
  await page.getByRole('button', { name: 'Delete Beta_App' }).waitFor();
  await openFromMenu(page, 'Menu plans');
  await page.getByRole('button', { name: 'New menu plan' }).waitFor();

  assert.equal(await statusOf(client, 'GET', `/user/${southUser.id}`), 200);
  assert.equal(await statusOf(client, 'GET', `/apps/${beta.id}`), 200);
  assert.deepEqual(watched.errors, []);
});

test('a tenant administrator sees and changes only their tenant’s subtree', async () => {
  const { page, watched, client } = await as('north-admin');
  const links = await menuLinks(page);
  assert.ok(links.includes('Users') && links.includes('Tenants'));
  // Their code 4 covers /operate/…, but apps, login settings and channels are not theirs (the server refuses those calls).
  for (const hidden of ['Apps', 'Login settings', 'Channels']) assert.ok(!links.includes(hidden), `${hidden} is not in the menu`);

  // Users: only the subtree, no platform rights on offer.
  await openFromMenu(page, 'Users');
  const users = page.getByRole('table', { name: 'Users' });
  await until(async () => (await columnTexts(users, 0)).length === 2);
  assert.deepEqual((await columnTexts(users, 0)).sort(), ['ne-user', 'north-admin']);
  // They administer no app, so they grant no app's roles: the roles button is not offered.
  assert.equal(await page.getByRole('button', { name: 'Roles ne-user', exact: true }).count(), 0, 'Roles is not offered');
  // The filter's options come from the tenant tree, a request of their own: read them once it answered.
  const tenantFilter = page.getByLabel('Tenant', { exact: true });
  await tenantFilter.getByRole('option', { name: 'North_East' }).waitFor({ state: 'attached' });
  const tenantOptions = await tenantFilter.getByRole('option').allTextContents();
  assert.deepEqual(
    tenantOptions.map((text) => text.trim()),
    ['All tenants', 'North', 'North_East'],
  );
  await page.getByRole('button', { name: 'New user' }).click();
  const form = page.getByRole('dialog', { name: 'New user' });
  await form.getByLabel('Real name').waitFor();
  assert.equal(await form.getByLabel('User type').count(), 0, 'no platform users on offer');
  await page.keyboard.press('Escape');

  // Tenants: only the subtree; their own tenant is neither moved nor deleted.
  await openFromMenu(page, 'Tenants');
  const tree = page.getByRole('tree', { name: 'Tenant tree' });
  await tree.getByRole('treeitem', { name: /^North_East/ }).waitFor();
  assert.deepEqual(await tree.getByRole('treeitem').allTextContents(), ['NorthCompany', 'North_EastDepartment']);
  await page.getByRole('heading', { name: 'North', level: 2 }).waitFor();
  await page.getByRole('button', { name: 'Add sub-tenant North' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Move North', exact: true }).count(), 0, 'Move North is not offered');
  assert.equal(await page.getByRole('button', { name: 'Delete North', exact: true }).count(), 0, 'Delete North is not offered');

  // Login settings by address: the 403 page; menu plans: read-only.
  await page.goto(`${server.url}/operate/setting`);
  await page.getByRole('heading', { name: 'You do not have permissions to access this page' }).waitFor();
  await page.goto(`${server.url}/home/index`);
  await openFromMenu(page, 'Menu plans');
  const plans = page.getByRole('table', { name: 'Menu plans' });
  await plans.getByRole('link', { name: 'Alpha_App', exact: true }).click();
  await page.getByRole('heading', { name: 'Menu plan details', level: 1 }).waitFor();
  await page.getByRole('treeitem', { name: 'Start' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Save menu plan', exact: true }).count(), 0, 'Save menu plan is not offered');
  assert.equal(await page.getByRole('button', { name: 'New menu plan', exact: true }).count(), 0, 'New menu plan is not offered');

  // The server refuses the same things when asked directly.
  assert.equal(await statusOf(client, 'GET', `/user/${southUser.id}`), 404);
  assert.equal(await statusOf(client, 'PUT', `/user/${southUser.id}`, { realName: 'Taken_Over', version: 1 }), 404);
  assert.equal(await statusOf(client, 'DELETE', `/user/${southUser.id}`), 404);
  assert.equal(await statusOf(client, 'DELETE', `/authc/user/${southUser.id}/login/unlock`), 404);
  assert.equal(await statusOf(client, 'GET', `/user/${southUser.id}/roles`), 404);
  assert.equal(await statusOf(client, 'PUT', `/user/${northUser.id}/roles/${alpha.id}`, { roleIds: [] }), 403);
  assert.equal(
    await statusOf(client, 'POST', '/user', {
      username: 'sneaky-one',
      realName: 'Sneaky_One',
      password: await transformPassword(PASSWORD),
      tenantId: south.id,
    }),
    403,
  );
  assert.equal(
    await statusOf(client, 'POST', '/user', {
      username: 'sneaky-two',
      realName: 'Sneaky_Two',
      password: await transformPassword(PASSWORD),
      extraProp: { intProperty1: 2 },
    }),
    403,
  );
  assert.equal(await statusOf(client, 'DELETE', `/tenants/${south.id}`), 404);
  assert.equal(await statusOf(client, 'PUT', `/tenants/${north.id}/parent`, { parentId: south.id, version: north.version }), 403);
  assert.equal(await statusOf(client, 'PUT', `/tenants/${northEast.id}/parent`, { parentId: south.id, version: northEast.version }), 404);
  assert.equal(await statusOf(client, 'GET', `/tenants/${south.id}/admins`), 404);
  assert.equal(await statusOf(client, 'GET', '/apps'), 403);
  assert.equal(await statusOf(client, 'POST', '/menu-plans', { name: 'Own menu', items: [] }), 403);
  // … and allows what the screens offer.
  assert.equal(await statusOf(client, 'GET', `/user/${northUser.id}/roles`), 200);
  assert.deepEqual(watched.errors, []);
});

test('an app administrator reaches only the apps they administer', async () => {
  const { page, watched, client } = await as('alpha-admin');
  const links = await menuLinks(page);
  assert.ok(links.includes('Apps'));
  for (const hidden of ['Users', 'Tenants', 'Menu plans']) assert.ok(!links.includes(hidden), `${hidden} is not in the menu`);

  await openFromMenu(page, 'Apps');
  const apps = page.getByRole('table', { name: 'Apps' });
  await apps.getByRole('link', { name: 'Alpha_App', exact: true }).waitFor();
  assert.deepEqual(await columnTexts(apps, 0), ['Alpha_App']);
  assert.equal(await page.getByRole('button', { name: 'New app', exact: true }).count(), 0, 'New app is not offered');
  assert.equal(await page.getByRole('button', { name: 'Delete Alpha_App', exact: true }).count(), 0, 'Delete Alpha_App is not offered');

  await apps.getByRole('link', { name: 'Alpha_App', exact: true }).click();
  await page.getByRole('heading', { name: 'Alpha_App', level: 2 }).waitFor();
  assert.equal(await page.getByLabel('Master app').count(), 0, 'only the platform chooses the master app');
  await page.getByRole('tab', { name: 'Administrators' }).click();
  await page.getByRole('list', { name: 'App administrators' }).getByText('Alpha_Admin (alpha-admin)').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Save administrators', exact: true }).count(), 0, 'Save administrators is not offered');
  assert.equal(await page.getByLabel('Find a person by username or name').count(), 0);

  // Another app by its address: not shown.
  await page.goto(`${server.url}/app/detail/${beta.id}`);
  await page.getByText('This app does not exist, or you do not administer it.').waitFor();
  // A screen they have no permission for: the 403 page.
  await page.goto(`${server.url}/operate/user`);
  await page.getByRole('heading', { name: 'You do not have permissions to access this page' }).waitFor();

  assert.equal(await statusOf(client, 'GET', `/apps/${beta.id}`), 404);
  assert.equal(await statusOf(client, 'GET', `/apps/${beta.id}/roles`), 404);
  assert.equal(await statusOf(client, 'PUT', `/apps/${beta.id}`, { detail: 'Taken over', version: 1 }), 404);
  assert.equal(await statusOf(client, 'POST', '/apps', { name: 'Own_App' }), 403);
  assert.equal(await statusOf(client, 'DELETE', `/apps/${alpha.id}`), 403);
  assert.equal(await statusOf(client, 'PUT', `/apps/${alpha.id}/admins`, { userIds: [] }), 403);
  assert.equal(await statusOf(client, 'GET', '/user'), 403);
  assert.equal(await statusOf(client, 'GET', '/tenants/tree'), 403);
  assert.equal(await statusOf(client, 'GET', '/menu-plans'), 403);
  // … and allows what the screens offer.
  assert.equal(await statusOf(client, 'GET', `/apps/${alpha.id}/privileges`), 200);
  assert.deepEqual(watched.errors, []);
});
