// The tenants screen against the real server: the tree with the type labels, create (with the
// name rule), rename, move, delete refused with a clear message while a tenant has sub-tenants
// or users, delete of an empty one, tenant administrators, search, and the screen in Chinese.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, ApiClient, openPage, type WatchedPage, startServerAndBrowser } from './harness';
import { openFromMenu, PASSWORD, Seeder, signIn, until } from './admin-support';

const { server, browser } = await startServerAndBrowser();
let watched: WatchedPage;
let page: Page;

const tree = () => page.getByRole('tree', { name: 'Tenant tree' });
const item = (name: string) => tree().getByRole('treeitem', { name: new RegExp(`^${name}\\b`) });

/** Opens a tree node with the keyboard (→), as a person would. */
async function expand(name: string): Promise<void> {
  if ((await item(name).getAttribute('aria-expanded')) === 'true') return;
  await item(name).focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await item(name).getAttribute('aria-expanded'), 'true');
}

async function select(name: string): Promise<void> {
  await item(name).click();
  await page.getByRole('heading', { name, level: 2, exact: true }).waitFor();
}

// The steps build on each other (one person's page, the data made before): they are subtests of
// one test, run in order by definition.
test('the tenants screen, step by step', async (t) => {
  const api = await Seeder.as(server.url);
  const root = await api.rootTenant();
  const globex = await api.tenant(root.id, 'Globex');
  const ops = await api.tenant(globex.id, 'Globex_Ops', 'department');
  await api.tenant(root.id, 'Initech', 'institution');
  await api.user({ username: 'globex-user', realName: 'Globex_User', tenantId: ops.id });
  // Refused deletes answer 409: expected console messages.
  watched = await openPage(browser, { expectedFailures: [/\/api\/tenants\/[\w-]+$/] });
  page = watched.page;
  await signIn(page, server.url, ADMIN.username, ADMIN.password);
  await openFromMenu(page, 'Tenants');

  await t.test('shows the tree with the type labels of the entity fields', async () => {
    await item('Globex').waitFor();
    assert.equal(await item('Globex').textContent(), 'GlobexCompany');
    assert.equal(await item('Initech').textContent(), 'InitechInstitution');
    assert.equal(await item('Globex').getAttribute('aria-level'), '2');
    // Sub-tenants open with their parent.
    assert.equal(await item('Globex').getAttribute('aria-expanded'), 'false');
    await expand('Globex');
    assert.equal(await item('Globex_Ops').textContent(), 'Globex_OpsDepartment');
  });

  await t.test('creates a sub-tenant with the name rule', async () => {
    await select('Globex');
    await page.getByRole('button', { name: 'Add sub-tenant Globex' }).click();
    const form = page.getByRole('dialog', { name: 'New tenant under Globex' });
    await form.getByLabel('Name').fill('-bad');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText("Use 2-50 letters, digits, underscores, hyphens or Chinese characters, not starting with '-'").waitFor();
    await form.getByLabel('Name').fill('Globex_Lab');
    await form.getByLabel('Type').selectOption({ label: 'Department' });
    await form.getByLabel('Description').fill('Research and development');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Globex_Lab', level: 2 }).waitFor();
    assert.equal(await item('Globex_Lab').textContent(), 'Globex_LabDepartment');
    assert.equal(await item('Globex_Lab').getAttribute('aria-selected'), 'true');
    await page.getByText('Research and development').waitFor();
  });

  await t.test('renames a tenant', async () => {
    await page.getByRole('button', { name: 'Edit Globex_Lab' }).click();
    const form = page.getByRole('dialog', { name: 'Edit tenant' });
    assert.equal(await form.getByLabel('Name').inputValue(), 'Globex_Lab');
    await form.getByLabel('Name').fill('Globex_Research');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await item('Globex_Research').waitFor();
    assert.equal(await item('Globex_Lab').count(), 0);
  });

  await t.test('moves a tenant under another parent', async () => {
    await page.getByRole('button', { name: 'Move Globex_Research' }).click();
    const form = page.getByRole('dialog', { name: 'Move Globex_Research' });
    // Its own subtree is never offered.
    assert.equal(await form.getByRole('option', { name: /Globex_Research/ }).count(), 0);
    await form.getByLabel('New parent').selectOption({ label: '\u00a0\u00a0Initech' });
    await form.getByRole('button', { name: 'Move' }).click();
    await form.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Globex_Research', level: 2 }).waitFor();
    // Now under Initech, which opened to show it.
    await until(async () => (await item('Initech').getAttribute('aria-expanded')) === 'true');
    assert.equal(await item('Globex_Research').getAttribute('aria-level'), '3');
    const parent = page.getByRole('region', { name: 'Globex_Research' }).getByText('Initech');
    await parent.waitFor();
  });

  await t.test('refuses to delete a tenant with sub-tenants or users, with a clear message', async () => {
    await select('Globex');
    await page.getByRole('button', { name: 'Delete Globex' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete tenant' });
    await confirm.getByText('Delete the tenant Globex? This cannot be undone.').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alert').filter({ hasText: 'Globex cannot be deleted while it has sub-tenants or users. Move or delete them first.' }).waitFor();
    await item('Globex').waitFor();

    await select('Globex_Ops');
    await page.getByRole('button', { name: 'Delete Globex_Ops' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alert').filter({ hasText: 'Globex_Ops cannot be deleted while it has sub-tenants or users.' }).waitFor();
  });

  await t.test('deletes an empty tenant', async () => {
    await expand('Initech');
    await select('Globex_Research');
    await page.getByRole('button', { name: 'Delete Globex_Research' }).click();
    await page.getByRole('dialog', { name: 'Delete tenant' }).getByRole('button', { name: 'Delete' }).click();
    await item('Globex_Research').waitFor({ state: 'detached' });
  });

  await t.test('sets tenant administrators, who then administer the tenant', async () => {
    await select('Globex_Ops');
    const admins = page.getByRole('region', { name: 'Tenant administrators' });
    await admins.getByText('Nobody yet.').waitFor();
    await admins.getByLabel('Find a person by username or name').fill('globex');
    await admins.getByRole('button', { name: 'Add globex-user' }).click();
    const save = admins.getByRole('button', { name: 'Save administrators' });
    await save.click();
    // Saved (the toast follows the answer; the button is disabled while the request runs too): nothing is left to save.
    await page.getByRole('status').filter({ hasText: 'Administrators saved' }).waitFor();
    await until(() => save.isDisabled());
    await admins.getByRole('button', { name: 'Remove globex-user' }).waitFor();
    const person = new ApiClient(server.url);
    await person.signIn('globex-user', PASSWORD);
    const session = await person.call<{ user: { permissions: string[] } }>('GET', '/cas/session');
    assert.deepEqual(session.user.permissions, ['0', '2', '4']);
  });

  await t.test('finds a tenant by name', async () => {
    await page.getByRole('searchbox', { name: 'Search' }).fill('initech');
    const matches = page.getByRole('list', { name: 'Matching tenants' });
    await matches.getByRole('button', { name: /Initech/ }).click();
    await page.getByRole('heading', { name: 'Initech', level: 2 }).waitFor();
    await page.getByRole('searchbox', { name: 'Search' }).fill('nothing-like-it');
    await page.getByText('No tenants match.').waitFor();
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
  });

  await t.test('the tenants screen in Chinese', async () => {
    await page.getByRole('button', { name: '中文' }).click();
    await page.getByRole('heading', { name: '租户管理', level: 1 }).waitFor();
    const zhTree = page.getByRole('tree', { name: '租户树' });
    // The tree's type labels may switch a render after the heading.
    const globex = zhTree.getByRole('treeitem', { name: /^Globex\b/ });
    await until(async () => (await globex.textContent()) === 'Globex公司').catch(async () => assert.equal(await globex.textContent(), 'Globex公司'));
    await page.getByRole('button', { name: '添加下级租户 Initech' }).waitFor();
    await page.getByRole('button', { name: '移动 Initech' }).waitFor();
    await page.getByRole('button', { name: '删除 Initech' }).waitFor();
    await page.getByRole('heading', { name: '租户管理员', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor();
    assert.deepEqual(watched.errors, []);
  });
});
