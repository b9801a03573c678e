// The apps screen and an app's details against the real server: create an app (name rule, a
// taken name keeps what was typed), edit its basics, build its privilege tree (add, add child,
// reorder, re-parent, delete, a taken key), roles with the role-name rule, privileges from the
// tree and members, app administrators, search and delete in the list, and both in Chinese.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, ApiClient, openPage, type WatchedPage, startServerAndBrowser } from './harness';
import { columnTexts, openFromMenu, PASSWORD, Seeder, signIn, until, type Created } from './admin-support';

const { server, browser } = await startServerAndBrowser();
let watched: WatchedPage;
let page: Page;
let api: Seeder;
let appId: string;

const tab = (name: string) => page.getByRole('tab', { name });
const tree = () => page.getByRole('tree', { name: 'Privilege tree' });
const node = (name: string) => tree().getByRole('treeitem', { name: new RegExp(`^${name}`) });
const dialog = (name: string) => page.getByRole('dialog', { name });
const topLevelNames = () =>
  tree()
    .locator(':scope > li > [role="treeitem"]')
    .evaluateAll((items) => items.map((item) => item.firstElementChild?.nextElementSibling?.firstChild?.textContent ?? ''));

async function addPrivilege(name: string, key: string, options: { path?: string; under?: string } = {}): Promise<void> {
  if (options.under) {
    await node(options.under).click();
    await page.getByRole('button', { name: `Add child ${options.under}` }).click();
  } else {
    await page.getByRole('button', { name: 'Add privilege' }).click();
  }
  const form = dialog('New privilege');
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Key').fill(key);
  if (options.path) await form.getByLabel('Path').fill(options.path);
  await form.getByRole('button', { name: 'Save' }).click();
  await form.waitFor({ state: 'detached' });
  await node(name).waitFor();
}

// The steps build on each other (one person's page, the data made before): they are subtests of
// one test, run in order by definition.
test('the apps screens, step by step', async (t) => {
  api = await Seeder.as(server.url);
  await api.app('ERP_Core');
  await api.user({ username: 'crm-user', realName: 'Crm_User' });
  await api.user({ username: 'crm-admin', realName: 'Crm_Admin' });
  // Taken names and keys answer 400: expected console messages.
  watched = await openPage(browser, { expectedFailures: [/\/api\/apps(\/[\w-]+)?$/, /\/api\/apps\/[\w-]+\/privileges$/] });
  page = watched.page;
  await signIn(page, server.url, ADMIN.username, ADMIN.password);
  await openFromMenu(page, 'Apps');

  await t.test('creates an app with the name rule; a taken name keeps what was typed', async () => {
    await page.getByRole('button', { name: 'New app' }).click();
    const form = dialog('New app');
    await form.getByLabel('Name').fill('-x');
    await form.getByLabel('Callback URL').fill('javascript:alert(1)');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText("Use 2-50 letters, digits, underscores, hyphens or Chinese characters, not starting with '-'").waitFor();
    await form.getByText('Please enter a valid URL starting with http:// or https://').waitFor();
    await form.getByLabel('Name').fill('ERP_Core');
    await form.getByLabel('Detail').fill('Customer relations');
    await form.getByLabel('Entrypoint').fill('https://crm.example.com/');
    await form.getByLabel('Callback URL').fill('https://crm.example.com/callback');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('This name is already used').waitFor();
    assert.equal(await form.getByLabel('Detail').inputValue(), 'Customer relations');
    await form.getByLabel('Name').fill('CRM_Suite');
    await form.getByRole('button', { name: 'Save' }).click();
    // A new app opens in its details.
    await page.getByRole('heading', { name: 'App details', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'CRM_Suite', level: 2 }).waitFor();
    appId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
    const app = await api.call<{ entrypoint: string; callbackUrl: string }>('GET', `/apps/${appId}`);
    assert.deepEqual([app.entrypoint, app.callbackUrl], ['https://crm.example.com/', 'https://crm.example.com/callback']);
  });

  await t.test('edits the basics', async () => {
    assert.equal(await tab('Basics').getAttribute('aria-selected'), 'true');
    await page.getByLabel('Detail').fill('Customers, orders and reports');
    await page.getByRole('button', { name: 'Save' }).click();
    await until(async () => (await api.call<{ detail: string }>('GET', `/apps/${appId}`)).detail === 'Customers, orders and reports');
  });

  await t.test('builds the privilege tree: add, add child, reorder, re-parent, delete', async () => {
    await tab('Privileges').click();
    await page.getByText('No privileges yet.').waitFor();
    await addPrivilege('Customers', 'customers', { path: '/customers' });
    await addPrivilege('Customer list', 'customer-list', { under: 'Customers', path: '/customers/list' });
    await addPrivilege('Orders', 'orders');
    await addPrivilege('Reports', 'reports');
    assert.equal(await node('Customer list').getAttribute('aria-level'), '2');
    assert.deepEqual(await topLevelNames(), ['Customers', 'Orders', 'Reports']);

    // Reports moves up one place among its siblings.
    await node('Reports').click();
    await page.getByRole('button', { name: 'Move up Reports' }).click();
    await until(async () => JSON.stringify(await topLevelNames()) === JSON.stringify(['Customers', 'Reports', 'Orders']));

    // A taken key is refused under the field.
    await page.getByRole('button', { name: 'Add privilege' }).click();
    const form = dialog('New privilege');
    await form.getByLabel('Name').fill('Duplicate');
    await form.getByLabel('Key').fill('orders');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('This key is already used in this app').waitFor();
    await form.getByRole('button', { name: 'Cancel' }).click();

    // Customer list moves under Orders.
    await node('Customer list').click();
    await page.getByRole('button', { name: 'Edit Customer list' }).click();
    const edit = dialog('Edit privilege');
    assert.equal(await edit.getByLabel('Path').inputValue(), '/customers/list');
    await edit.getByLabel('Parent').selectOption({ label: 'Orders' });
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    const privileges = await api.call<{ id: string; key: string; parentId: string | null }[]>('GET', `/apps/${appId}/privileges`);
    const byKey = Object.fromEntries(privileges.map((each) => [each.key, each]));
    assert.equal(byKey['customer-list']?.parentId, byKey.orders?.id);

    await node('Reports').click();
    await page.getByRole('button', { name: 'Delete Reports' }).click();
    await dialog('Delete privilege').getByRole('button', { name: 'Delete' }).click();
    await node('Reports').waitFor({ state: 'detached' });
  });

  await t.test('creates a role with the role-name rule, privileges from the tree and members', async () => {
    await tab('Roles').click();
    await page.getByText('No roles yet.').waitFor();
    await page.getByRole('button', { name: 'New role' }).click();
    const form = dialog('New role');
    await form.getByLabel('Role name').fill('x');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Use 2-30 letters, digits, underscores, hyphens or Chinese characters').waitFor();
    await form.getByLabel('Role name').fill('Sales_Rep');
    await form.getByLabel('Description').fill('Sales people');
    // Checking a node checks its subtree.
    await form.getByRole('group', { name: 'Privileges' }).getByLabel('Orders (orders)').check();
    assert.equal(await form.getByLabel('Customer list (customer-list)').isChecked(), true);
    await form.getByLabel('Find a person by username or name').fill('crm-us');
    await form.getByRole('button', { name: 'Add crm-user' }).click();
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    const table = page.getByRole('table', { name: 'Roles' });
    await until(async () => JSON.stringify(await columnTexts(table, 0)) === '["Sales_Rep"]');

    const roles = await api.call<{ list: Created[] }>('GET', `/apps/${appId}/roles`);
    const roleId = roles.list[0]!.id;
    const held = await api.call<string[]>('GET', `/apps/${appId}/roles/${roleId}/privileges`);
    assert.equal(held.length, 2);
    const members = await api.call<{ username: string }[]>('GET', `/apps/${appId}/roles/${roleId}/members`);
    assert.deepEqual(
      members.map((member) => member.username),
      ['crm-user'],
    );

    // Opening it again shows what was saved.
    await page.getByRole('button', { name: 'Edit Sales_Rep' }).click();
    const again = dialog('Edit role');
    await again.getByRole('button', { name: 'Remove crm-user' }).waitFor();
    assert.equal(await again.getByLabel('Orders (orders)').isChecked(), true);
    assert.equal(await again.getByLabel('Customers (customers)').isChecked(), false);
    await again.getByRole('button', { name: 'Cancel' }).click();
  });

  await t.test('searches and deletes roles', async () => {
    await api.role(appId, 'Temp_Role');
    const table = page.getByRole('table', { name: 'Roles' });
    await page.getByRole('searchbox', { name: 'Search' }).fill('temp');
    await until(async () => JSON.stringify(await columnTexts(table, 0)) === '["Temp_Role"]');
    await page.getByRole('button', { name: 'Delete Temp_Role' }).click();
    await dialog('Delete role').getByRole('button', { name: 'Delete' }).click();
    await table.getByText('No roles match.').waitFor();
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
  });

  await t.test('sets the app administrators, who then reach the app', async () => {
    await tab('Administrators').click();
    await page.getByLabel('Find a person by username or name').fill('crm-adm');
    await page.getByRole('button', { name: 'Add crm-admin' }).click();
    const save = page.getByRole('button', { name: 'Save administrators' });
    await save.click();
    // Saved (the toast follows the answer; the button is disabled while the request runs too): nothing is left to save.
    await page.getByRole('status').filter({ hasText: 'Administrators saved' }).waitFor();
    await until(() => save.isDisabled());
    const person = new ApiClient(server.url);
    await person.signIn('crm-admin', PASSWORD);
    const session = await person.call<{ user: { permissions: string[] }; administeredApps: { id: string }[] }>('GET', '/cas/session');
    assert.deepEqual(session.user.permissions, ['0', '1']);
    assert.deepEqual(
      session.administeredApps.map((app) => app.id),
      [appId],
    );
  });

  await t.test('the list searches by name and deletes after confirming', async () => {
    await openFromMenu(page, 'Apps');
    const table = page.getByRole('table', { name: 'Apps' });
    await table.getByRole('link', { name: 'ERP_Core', exact: true }).waitFor();
    await page.getByRole('searchbox', { name: 'Search' }).fill('crm');
    await until(async () => JSON.stringify(await columnTexts(table, 0)) === '["CRM_Suite"]');
    await page.getByRole('searchbox', { name: 'Search' }).fill('erp');
    await until(async () => JSON.stringify(await columnTexts(table, 0)) === '["ERP_Core"]');
    await page.getByRole('button', { name: 'Delete ERP_Core' }).click();
    await dialog('Delete app').getByRole('button', { name: 'Delete' }).click();
    await table.getByText('No apps match.').waitFor();
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    await table.getByRole('link', { name: 'CRM_Suite', exact: true }).waitFor();
  });

  await t.test('the apps screens in Chinese', async () => {
    await page.getByRole('button', { name: '中文' }).click();
    await page.getByRole('heading', { name: '应用管理', level: 1 }).waitFor();
    await page.getByRole('button', { name: '新建应用' }).waitFor();
    await page.getByRole('button', { name: '删除 CRM_Suite' }).waitFor();
    await page.getByRole('link', { name: '打开 CRM_Suite' }).click();
    await page.getByRole('heading', { name: '应用详情', level: 1 }).waitFor();
    for (const name of ['基本信息', '权限', '角色', '管理员']) await tab(name).waitFor();
    await tab('权限').click();
    await page.getByRole('tree', { name: '权限树' }).waitFor();
    await page.getByRole('button', { name: '添加权限' }).waitFor();
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'App details', level: 1 }).waitFor();
    assert.deepEqual(watched.errors, []);
  });
});
