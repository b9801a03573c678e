// The users screen as the platform administrator uses it, against the real server: server paging,
// search by field, sorting, the tenant filter, create/edit with the rules, a duplicate username
// and a stale edit that lose nothing typed, enable/disable, lock → unlock, an administrator's
// password reset, roles per app, delete after confirming, and the screen in Chinese.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, ApiClient, openPage, type WatchedPage, startServerAndBrowser } from './harness';
import { bodyRows, columnTexts, openFromMenu, Seeder, signIn, until, type Tenant } from './admin-support';

const { server, browser } = await startServerAndBrowser();
let watched: WatchedPage;
let page: Page;
let api: Seeder;
let sales: Tenant;

const table = () => page.getByRole('table', { name: 'Users' });
const dialog = (name: string) => page.getByRole('dialog', { name });
const usernames = () => columnTexts(table(), 0);

async function search(field: string, text: string): Promise<void> {
  await page.getByLabel('Search by', { exact: true }).selectOption({ label: field });
  await page.getByRole('searchbox', { name: 'Search' }).fill(text);
}

/** A row action behind the row's "More" menu button. */
async function rowAction(username: string, action: string): Promise<void> {
  await page.getByRole('button', { name: `More actions for ${username}` }).click();
  await page
    .getByRole('menu', { name: `More actions for ${username}` })
    .getByRole('menuitem', { name: action })
    .click();
}

async function waitForUsernames(expected: string[]): Promise<void> {
  await until(async () => JSON.stringify(await usernames()) === JSON.stringify(expected)).catch(async () => {
    assert.deepEqual(await usernames(), expected);
  });
}

// The steps build on each other (one person's page, the data made before): they are subtests of
// one test, run in order by definition.
test('the users screen, step by step', async (t) => {
  api = await Seeder.as(server.url);
  const root = await api.rootTenant();
  const acme = await api.tenant(root.id, 'Acme');
  sales = await api.tenant(acme.id, 'Acme_Sales', 'department');
  // 12 people in Sales (two pages of ten with the administrator) and one elsewhere.
  for (let index = 1; index <= 12; index += 1) {
    const number = String(index).padStart(2, '0');
    await api.user({ username: `sales-${number}`, realName: `Sales_${number}`, email: `sales${number}@acme.example`, tenantId: sales.id });
  }
  await api.user({ username: 'zed-outsider', realName: 'Zed_Outsider', tenantId: acme.id, mobilePhone: '13912345678' });
  // Deterministic lockout: three failures lock, no captcha on the way.
  const policy = await api.call<{ version: number }>('GET', '/settings/login');
  await api.call('PUT', '/settings/login', { maxFailures: 3, captchaAfterFailures: 0, version: policy.version });

  // Chromium logs each refused call this test provokes (a duplicate username, a stale edit, a wrong
  // administrator password); any other failed call is an error.
  watched = await openPage(browser, { expectedFailures: [/\/api\/user$/, /\/api\/user\/[\w-]+$/, /\/api\/user\/[\w-]+\/password$/] });
  page = watched.page;
  await signIn(page, server.url, ADMIN.username, ADMIN.password);
  await openFromMenu(page, 'Users');

  await t.test('pages on the server: 10 rows of page 1 first, then page 2', async () => {
    await bodyRows(table()).nth(9).waitFor();
    assert.equal(await bodyRows(table()).count(), 10);
    await page.getByText('1–10 of 14').waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('11–14 of 14').waitFor();
    await until(async () => (await bodyRows(table()).count()) === 4);
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByText('1–10 of 14').waitFor();
  });

  await t.test('sorts by username both ways, marked with aria-sort', async () => {
    const header = table().getByRole('columnheader', { name: 'Username' });
    await header.getByRole('button').click();
    assert.equal(await header.getAttribute('aria-sort'), 'ascending');
    await until(async () => (await usernames())[0] === 'admin');
    await header.getByRole('button').click();
    assert.equal(await header.getAttribute('aria-sort'), 'descending');
    await until(async () => (await usernames())[0] === 'zed-outsider');
  });

  await t.test('searches by field and filters by tenant', async () => {
    await search('Username', 'sales-1');
    await waitForUsernames(['sales-12', 'sales-11', 'sales-10']);
    await search('Mobile phone', '139123');
    await waitForUsernames(['zed-outsider']);
    await search('Email', 'nobody-here');
    await table().getByText('No users match.').waitFor();
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    await page.getByLabel('Tenant', { exact: true }).selectOption({ label: '\u00a0\u00a0\u00a0\u00a0Acme_Sales' });
    await page.getByText('1–10 of 12').waitFor();
    assert.ok((await usernames()).every((name) => name.startsWith('sales-')));
    await page.getByLabel('Tenant', { exact: true }).selectOption({ label: 'All tenants' });
    await page.getByText('1–10 of 14').waitFor();
  });

  await t.test('creates a user with the rules; a duplicate username keeps what was typed', async () => {
    await page.getByRole('button', { name: 'New user' }).click();
    const form = dialog('New user');
    await form.getByLabel('Username').fill('x');
    await form.getByLabel('Real name').fill('y');
    await form.getByLabel('Password', { exact: true }).fill('short');
    await form.getByLabel('Email').fill('not-an-address');
    await form.getByLabel('Mobile phone').fill('123');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText("Use 3-20 letters, digits, '-' or '_'").waitFor();
    await form.getByText('Use 2-20 letters, digits, underscores, hyphens or Chinese characters').waitFor();
    await form.getByText('Please enter a valid email address').waitFor();
    await form.getByText('Please enter a valid mobile phone number').waitFor();
    // A name refused only for its space: the platform administrator is shown where the
    // international field rules are, and the link leads there.
    await form.getByLabel('Real name').fill('Tina Admin');
    await form.getByRole('button', { name: 'Save' }).click();
    await form
      .getByText('Spaces, accented letters, e-mail usernames and international phone numbers are accepted under the international field rules:')
      .waitFor();
    assert.match((await form.getByRole('link', { name: 'Login settings → Field rules' }).getAttribute('href')) ?? '', /\/operate\/setting$/);

    // A taken username: the server says so under the field, and the other fields keep their values.
    await form.getByLabel('Username').fill('sales-01');
    await form.getByLabel('Real name').fill('New_Person');
    await form.getByLabel('Password', { exact: true }).fill('Welcome-42');
    await form.getByLabel('Email').fill('new.person@acme.example');
    await form.getByLabel('Mobile phone').fill('13800001111');
    await form.getByLabel('Description').fill('Joined the sales team');
    await form.getByLabel('Tenant', { exact: true }).selectOption({ label: '\u00a0\u00a0\u00a0\u00a0Acme_Sales' });
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('This username is already taken').waitFor();
    assert.equal(await form.getByLabel('Real name').inputValue(), 'New_Person');
    assert.equal(await form.getByLabel('Email').inputValue(), 'new.person@acme.example');
    assert.equal(await form.getByLabel('Description').inputValue(), 'Joined the sales team');

    await form.getByLabel('Username').fill('new-person');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await search('Username', 'new-person');
    await waitForUsernames(['new-person']);
    const row = bodyRows(table()).first();
    await row.getByText('Acme_Sales').waitFor();
    await row.getByText('new.person@acme.example').waitFor();
    await row.getByText('Enabled').waitFor();
    // The new user signs in with the password given.
    const person = new ApiClient(server.url);
    await person.signIn('new-person', 'Welcome-42');
  });

  await t.test('a stale edit keeps what was typed and saves over the latest version on request', async () => {
    await page.getByRole('button', { name: 'Edit new-person' }).click();
    const form = dialog('Edit user');
    await form.getByLabel('Real name').fill('Edited_Here');
    // Meanwhile someone else saves the same user.
    const current = (await api.call<{ list: { id: string; version: number }[] }>('GET', '/user?searchProp=username&searchValue=new-person')).list[0]!;
    await api.call('PUT', `/user/${current.id}`, { description: 'Changed elsewhere', version: current.version });

    await form.getByRole('button', { name: 'Save' }).click();
    await form
      .getByRole('alert')
      .getByText(/Someone else changed this user/)
      .waitFor();
    assert.equal(await form.getByLabel('Real name').inputValue(), 'Edited_Here');
    await form.getByRole('button', { name: 'Take the latest version' }).click();
    await form.getByRole('alert').waitFor({ state: 'detached' });
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await bodyRows(table()).first().getByText('Edited_Here').waitFor();
    const saved = await api.call<{ realName: string }>('GET', `/user/${current.id}`);
    assert.equal(saved.realName, 'Edited_Here');
  });

  await t.test("changing a person's phone takes the administrator's own password (where their password reset goes); other edits do not", async () => {
    await page.getByRole('button', { name: 'Edit new-person' }).click();
    const form = dialog('Edit user');
    await form.getByLabel('Real name').waitFor();
    assert.equal(await form.getByLabel('Your password', { exact: true }).count(), 0, 'no password asked while the phone and email stay');
    await form.getByLabel('Mobile phone').fill('13800002222');
    await form.getByText('Changing a phone or email takes your own password: password resets and sign-in codes go there.').waitFor();
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('This field is required').waitFor();
    const password = form.getByLabel('Your password', { exact: true });
    await password.fill('Not-the-admin-1');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('The password is wrong').waitFor();
    await password.fill(ADMIN.password);
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    const current = (await api.call<{ list: { mobilePhone?: string }[] }>('GET', '/user?searchProp=username&searchValue=new-person')).list[0]!;
    assert.equal(current.mobilePhone, '13800002222');
  });

  await t.test('disables and enables a user: a disabled user cannot sign in', async () => {
    await rowAction('new-person', 'Disable');
    await bodyRows(table()).first().getByText('Disabled').waitFor();
    await assert.rejects(new ApiClient(server.url).signIn('new-person', 'Welcome-42'));
    await rowAction('new-person', 'Enable');
    await bodyRows(table()).first().getByText('Enabled').waitFor();
    await new ApiClient(server.url).signIn('new-person', 'Welcome-42');
  });

  await t.test('a user locked after failed sign-ins is unlocked from the list', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) await assert.rejects(new ApiClient(server.url).signIn('new-person', 'Wrong-pass-1'));
    await assert.rejects(new ApiClient(server.url).signIn('new-person', 'Welcome-42'), 'locked even with the right password');
    await search('Username', 'new-pers');
    await bodyRows(table()).first().getByText('Locked').waitFor();
    await rowAction('new-person', 'Unlock');
    await dialog('Unlock user').getByRole('button', { name: 'Unlock' }).click();
    await page.getByText('new-person unlocked: they can sign in again').waitFor();
    await bodyRows(table()).first().getByText('Locked').waitFor({ state: 'detached' });
    await new ApiClient(server.url).signIn('new-person', 'Welcome-42');
  });

  await t.test("resets a user's password with the administrator's own password", async () => {
    await rowAction('new-person', 'Reset password');
    const form = dialog("Reset the user's password");
    assert.equal(await form.getByLabel('Username').inputValue(), 'new-person');
    await form.getByLabel('Your password', { exact: true }).fill('Not-the-admin-1');
    await form.getByLabel('New password', { exact: true }).fill('Renewed-77');
    await form.getByLabel('Confirm the new password', { exact: true }).fill('Renewed-77');
    await form.getByRole('button', { name: 'OK' }).click();
    await form
      .getByText(/password/i)
      .first()
      .waitFor();
    await form.getByLabel('Your password', { exact: true }).fill(ADMIN.password);
    await form.getByRole('button', { name: 'OK' }).click();
    await form.waitFor({ state: 'detached' });
    await new ApiClient(server.url).signIn('new-person', 'Renewed-77');
  });

  await t.test('assigns roles per app', async () => {
    const crm = await api.app('Sales_CRM');
    await api.role(crm.id, 'Account_Manager');
    await api.role(crm.id, 'Viewer');
    await page.getByRole('button', { name: 'Roles new-person' }).click();
    const form = dialog('Roles of new-person');
    const group = form.getByRole('group', { name: 'Sales_CRM' });
    await group.getByLabel('Account_Manager').check();
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    const id = (await api.call<{ list: { id: string }[] }>('GET', '/user?searchProp=username&searchValue=new-person')).list[0]!.id;
    const roles = await api.call<{ appName: string; roles: { name: string; assigned: boolean }[] }[]>('GET', `/user/${id}/roles`);
    const held = roles
      .find((entry) => entry.appName === 'Sales_CRM')
      ?.roles.filter((role) => role.assigned)
      .map((role) => role.name);
    assert.deepEqual(held, ['Account_Manager']);
    // Opening it again shows the saved choice.
    await page.getByRole('button', { name: 'Roles new-person' }).click();
    assert.equal(await dialog('Roles of new-person').getByLabel('Account_Manager').isChecked(), true);
    await page.keyboard.press('Escape');
  });

  await t.test('deletes a user after confirming', async () => {
    // The row menu closes on Escape and gives the focus back to its button.
    const more = page.getByRole('button', { name: 'More actions for new-person' });
    await more.click();
    await page.getByRole('menuitem', { name: 'Reset password' }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    // The menu gives the focus back after it is gone.
    await until(() => more.evaluate((element) => element === (element.getRootNode() as ShadowRoot).activeElement));
    await rowAction('new-person', 'Delete');
    const confirm = dialog('Delete user');
    await confirm.getByText('Delete the user new-person? This cannot be undone.').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await bodyRows(table()).first().getByText('new-person').waitFor();
    await rowAction('new-person', 'Delete');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await table().getByText('No users match.').waitFor();
    await assert.rejects(new ApiClient(server.url).signIn('new-person', 'Renewed-77'));
  });

  await t.test('the users screen in Chinese', async () => {
    await page.getByRole('button', { name: '中文' }).click();
    await page.getByRole('heading', { name: '用户管理', level: 1 }).waitFor();
    await page.getByRole('button', { name: '新建用户' }).waitFor();
    const zhTable = page.getByRole('table', { name: '用户管理' });
    for (const header of ['用户名', '真实姓名', '邮箱和手机', '租户', '状态', '创建时间', '操作'])
      await zhTable.getByRole('columnheader', { name: header }).waitFor();
    await page.getByRole('searchbox', { name: '搜索' }).fill('');
    await page.getByRole('button', { name: '编辑 zed-outsider' }).waitFor();
    await page.getByRole('button', { name: '新建用户' }).click();
    const form = page.getByRole('dialog', { name: '新建用户' });
    await form.getByRole('button', { name: '保存' }).click();
    await form.getByText('此项为必填项').first().waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    assert.deepEqual(watched.errors, []);
  });
});
