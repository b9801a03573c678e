// A tenant's "Directory" tab against the real server and a real slapd (test/server/slapd.ts): the
// connection form filled by its labels (the preset filling the attribute mapping), "Test connection"
// naming the step that failed (a wrong bind secret), the secret kept when left empty, "Synchronise
// now" and its report with the counts and a conflict, the tab in Chinese, and "Asked at first
// sign-ins": a checkbox for the platform administrator, shown but not changeable for a tenant
// administrator, whose save keeps it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ADMIN, openPage, startServerAndBrowser } from './harness';
import { openFromMenu, PASSWORD, Seeder, signIn, until } from './admin-support';
import { personLdif, READER, SUFFIX } from '../server/slapd';
import { startDirectory } from '../server/ldap-support';

const [{ server, browser }, slapd] = await Promise.all([
  startServerAndBrowser({ IAM_OUTBOUND_ALLOW: '127.0.0.1' }),
  startDirectory({
    ldif: [
      personLdif({ uid: 'ada', cn: 'Ada Lovelace', mail: 'ada@example.org', password: 'ada-pass' }),
      personLdif({ uid: 'alan', cn: 'Alan Turing', mail: 'alan@example.org', password: 'alan-pass' }),
      personLdif({ uid: 'grace', cn: 'Grace Hopper', mail: 'grace@example.org', password: 'grace-pass' }),
    ].join('\n\n'),
  }),
]);
test.after(() => slapd.destroy());

/** Where a screenshot of the tab goes when asked for (IAM_E2E_SHOTS=dir), to look at it. */
const shotDir = process.env.IAM_E2E_SHOTS;

test('a tenant connects its directory, tests it and synchronises from the console', async (t) => {
  const api = await Seeder.as(server.url);
  const root = await api.rootTenant();
  const acme = await api.tenant(root.id, 'Acme');
  // Someone here already has a directory person's username: a conflict left for an administrator.
  await api.user({ username: 'grace', realName: 'Local_Grace', tenantId: acme.id });
  // Directory names hold spaces ("Ada Lovelace"): the international field rules take them.
  const login = await api.call<{ version: number }>('GET', '/settings/login');
  await api.call('PUT', '/settings/login', { version: login.version, fieldRules: 'international' });
  const watched = await openPage(browser, { expectedFailures: [] });
  const page: Page = watched.page;
  await signIn(page, server.url, ADMIN.username, ADMIN.password);
  await openFromMenu(page, 'Tenants');
  await page
    .getByRole('tree', { name: 'Tenant tree' })
    .getByRole('treeitem', { name: /^Acme\b/ })
    .click();
  await page.getByRole('heading', { name: 'Acme', level: 2, exact: true }).waitFor();
  const form = page.getByRole('form', { name: 'Directory (LDAP / Active Directory)' });
  /** Saves the form by its button and waits for the server's answer. */
  const save = async () => {
    const answered = page.waitForResponse((answer) => answer.request().method() === 'PUT' && answer.url().endsWith(`/tenants/${acme.id}/ldap`));
    await form.getByRole('button', { name: 'Save connection' }).click();
    assert.equal((await answered).status(), 200);
  };

  await t.test('opens the Directory tab with the keyboard', async () => {
    await page.getByRole('tab', { name: 'Administrators' }).focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.getByRole('tab', { name: 'Directory' }).getAttribute('aria-selected'), 'true');
    await page.getByText('No directory connection yet: fill in the form and save it.').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Test connection' }).isDisabled(), true);
  });

  await t.test('fills the form by its labels; the preset fills the attribute mapping', async () => {
    await form.getByLabel('Preset').selectOption({ label: 'Active Directory' });
    await form.getByRole('button', { name: 'Fill filters and attributes from the preset' }).click();
    assert.equal(await form.getByLabel('Username attribute').inputValue(), 'sAMAccountName');
    assert.equal(await form.getByLabel('Principal name attribute').inputValue(), 'userPrincipalName');
    await form.getByLabel('Preset').selectOption({ label: 'OpenLDAP' });
    await form.getByRole('button', { name: 'Fill filters and attributes from the preset' }).click();
    assert.equal(await form.getByLabel('Username attribute').inputValue(), 'uid');
    assert.equal(await form.getByLabel('Principal name attribute').inputValue(), '');
    assert.equal(await form.getByLabel('User filter').inputValue(), '(objectClass=inetOrgPerson)');
    await form.getByLabel('Directory URL').fill('http://not-a-directory');
    await form.getByLabel('Windows domain (NetBIOS name)').fill('corp domain');
    await form.getByLabel('Connection name').fill('corp-directory');
    await form.getByRole('button', { name: 'Save connection' }).click();
    await form.getByText('Enter ldap://host[:port] or ldaps://host[:port]').waitFor();
    await form.getByText("Enter the Windows domain's short (NetBIOS) name").waitFor();
    await form.getByLabel('Windows domain (NetBIOS name)').fill('CORP');
    await form.getByLabel('Directory URL').fill(slapd.url);
    await form.getByLabel('Use StartTLS').check();
    await form.getByLabel('CA certificate (PEM)').fill(slapd.caPem);
    await form.getByLabel('Bind DN').fill(READER.dn);
    await form.getByLabel('Bind secret', { exact: true }).fill('not-the-secret');
    await form.getByLabel('Base DN').fill(SUFFIX);
    // A group mapping row, numbered in its labels, added and removed again by the keyboard.
    await form.getByRole('button', { name: 'Add a group mapping' }).click();
    await form.getByLabel('Group DN 1').fill(`cn=staff,${SUFFIX}`);
    assert.equal(await form.getByLabel('Role for group 1').getAttribute('aria-required'), 'true');
    await form.getByRole('button', { name: 'Remove group mapping 1' }).focus();
    await page.keyboard.press('Enter');
    assert.equal(await form.getByLabel('Group DN 1').count(), 0);
    await form.getByRole('button', { name: 'Save connection' }).click();
    await page.getByText('Directory connection saved').waitFor();
    await form.getByText('Leave empty to keep the stored secret').waitFor();
    assert.equal(await form.getByLabel('Bind secret', { exact: true }).inputValue(), '', 'the secret is never shown again');
  });

  await t.test('Test connection names the step that failed, then passes', async () => {
    await page.getByRole('button', { name: 'Test connection' }).click();
    const failed = page.getByRole('alert').filter({ hasText: 'Step "bind" failed' });
    await failed.waitFor();
    await form.getByLabel('Bind secret', { exact: true }).fill(READER.secret);
    await save();
    // The form is cleared when React renders the answer, a moment after the response arrives.
    const secret = form.getByLabel('Bind secret', { exact: true });
    await until(async () => (await secret.inputValue()) === '');
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByRole('status').filter({ hasText: 'Connection works: 3 people found' }).waitFor();
    // Saved again with the secret left empty: the stored one is kept.
    await form.getByLabel('Connection name').fill('corp-directory-2');
    await save();
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByRole('status').filter({ hasText: 'Connection works: 3 people found' }).waitFor();
  });

  await t.test('synchronises now and shows the report with its counts and conflict', async () => {
    await page.getByText('No synchronisation yet').waitFor();
    await page.getByRole('button', { name: 'Synchronise now' }).click();
    const reports = page.getByRole('table', { name: 'Synchronisation reports' });
    const row = reports.locator('tbody tr').first();
    await row.waitFor();
    const cells = await row.locator('td').allTextContents();
    assert.equal(cells[1], 'On demand');
    assert.equal(cells[2], 'Success');
    assert.equal(cells[3], 'seen 3, created 2, updated 0, disabled 0, role changes 0', cells.join(' | '));
    assert.equal(cells[4], 'grace (username taken)');
    const people = await api.call<{ list: { username: string }[] }>('GET', `/user?tenantId=${acme.id}&tenantMatch=exact&size=20`);
    assert.deepEqual(people.list.map((person) => person.username).sort(), ['ada', 'alan', 'grace']);
    if (shotDir) await page.screenshot({ path: join(shotDir, 'tenant-directory-en.png'), fullPage: true });
  });

  await t.test('the Directory tab in Chinese', async () => {
    await page.getByRole('button', { name: '中文' }).click();
    await page.getByRole('tab', { name: '目录' }).waitFor();
    await page.getByRole('heading', { name: '目录（LDAP / Active Directory）', level: 2 }).waitFor();
    await page.getByRole('form', { name: '目录（LDAP / Active Directory）' }).getByLabel('绑定密码', { exact: true }).waitFor();
    await page.getByRole('button', { name: '测试连接' }).waitFor();
    const row = page.getByRole('table', { name: '同步报告' }).locator('tbody tr').first();
    assert.equal(await row.locator('td').nth(2).textContent(), '成功');
    if (shotDir) await page.screenshot({ path: join(shotDir, 'tenant-directory-zh.png'), fullPage: true });
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('tab', { name: 'Directory' }).waitFor();
  });

  await t.test('the platform administrator lets the directory take part in first sign-ins; a tenant administrator sees it, and saves keep it', async () => {
    const firstSignIn = () => form.getByRole('checkbox', { name: 'Asked at first sign-ins' });
    const stored = async () => (await api.call<{ firstSignIn: boolean }>('GET', `/tenants/${acme.id}/ldap`)).firstSignIn;
    assert.equal(await firstSignIn().isChecked(), false, 'a new connection is not asked at first sign-ins');
    await firstSignIn().check();
    await save();
    assert.equal(await stored(), true);

    await api.user({ username: 'acme-admin', realName: 'Acme Admin', tenantId: acme.id, isAdmin: true });
    await signIn(page, server.url, 'acme-admin', PASSWORD);
    await openFromMenu(page, 'Tenants');
    await page
      .getByRole('tree', { name: 'Tenant tree' })
      .getByRole('treeitem', { name: /^Acme\b/ })
      .click();
    await page.getByRole('tab', { name: 'Directory' }).click();
    await firstSignIn().waitFor();
    assert.equal(await firstSignIn().isChecked(), true);
    assert.equal(await firstSignIn().isDisabled(), true, "a tenant administrator cannot change the platform's choice");
    await form.getByText('Only the platform administrator decides which directories are asked.', { exact: false }).waitFor();
    await form.getByLabel('Connection name').fill('corp-directory-3');
    await save();
    assert.equal(await stored(), true, "a tenant administrator's save keeps the platform's choice");
    assert.deepEqual(watched.errors, []);
  });
});
