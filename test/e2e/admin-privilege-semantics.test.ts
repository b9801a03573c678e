// The privilege semantics end to end in Chromium: a role holding only "View payslips" (a child of
// "Salary") is shown tri-state in the role editor, its holder sees the Payroll app on their home
// (the "Salary" entry leads to the payslips), and the menu editor marks an item its holders cannot
// reach; then the menu plan as a tenant administrator sees it (every item counted, bindings named,
// read-only). Axe finds nothing serious.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, openPage, startServerAndBrowser } from './harness';
import { bodyRows, openFromMenu, PASSWORD, Seeder, signIn } from './admin-support';
import { seriousViolations } from './a11y-support';

const { server, browser } = await startServerAndBrowser();
const api = await Seeder.as(server.url);
const root = await api.rootTenant();
const office = await api.tenant(root.id, 'Office_Tenant');
const payroll = await api.app('Payroll', { entrypoint: 'https://payroll.example.com/' });
const salary = await api.privilege(payroll.id, { name: 'Salary', key: 'salary' });
await api.privilege(payroll.id, { name: 'View payslips', key: 'payslips', parentId: salary.id });
await api.privilege(payroll.id, { name: 'Approve raises', key: 'raises', parentId: salary.id });
const leave = await api.privilege(payroll.id, { name: 'Leave', key: 'leave' });
const employee = await api.role(payroll.id, 'Employee');
const erin = await api.user({ username: 'erin', realName: 'Erin_Employee', tenantId: office.id });
await api.user({ username: 'office-admin', tenantId: office.id, isAdmin: true });
await api.call('PUT', `/user/${erin.id}/roles/${payroll.id}`, { roleIds: [employee.id] });
const privileges = await api.call<{ id: string; name: string }[]>('GET', `/apps/${payroll.id}/privileges`);
const idOf = (name: string) => privileges.find((each) => each.name === name)!.id;
await api.call('POST', '/menu-plans', {
  appId: payroll.id,
  name: 'Payroll menu',
  items: [
    {
      name: 'Salary',
      path: '/salary',
      privilegeId: salary.id,
      children: [
        { name: 'Payslips', path: '/salary/payslips', privilegeId: idOf('View payslips') },
        { name: 'Leave requests', path: '/salary/leave', privilegeId: leave.id },
      ],
    },
    { name: 'Leave', path: '/leave', privilegeId: leave.id },
    { name: 'Help', path: '/help' },
  ],
});

const checkbox = (page: Page, name: string) => page.getByRole('dialog', { name: 'Edit role' }).getByRole('group', { name: 'Privileges' }).getByLabel(name);
const mixed = (page: Page, name: string) => checkbox(page, name).evaluate((box: HTMLInputElement) => box.indeterminate);

test('the role editor shows a partly held parent as mixed; holding only the child shows the app on the home', async () => {
  const { page, errors } = await openPage(browser);
  await signIn(page, server.url, ADMIN.username, ADMIN.password);
  await page.goto(`${server.url}/app/detail/${payroll.id}`);
  await page.getByRole('tab', { name: 'Roles' }).click();
  await page.getByRole('button', { name: 'Edit Employee' }).click();
  await checkbox(page, 'View payslips (payslips)').check();
  assert.equal(await mixed(page, 'Salary (salary)'), true, 'Salary is partly held');
  assert.equal(await checkbox(page, 'Salary (salary)').isChecked(), false);
  await page.getByText('A privilege also shows the menu entries bound to its parents').waitFor();
  assert.deepEqual(await seriousViolations(page, 'role editor, tri-state'), []);
  // All of Salary's children make it checked; unchecking it clears its subtree.
  await checkbox(page, 'Approve raises (raises)').check();
  assert.equal(await mixed(page, 'Salary (salary)'), false);
  assert.equal(await checkbox(page, 'Salary (salary)').isChecked(), true);
  await checkbox(page, 'Salary (salary)').uncheck();
  assert.equal(await checkbox(page, 'View payslips (payslips)').isChecked(), false);
  assert.equal(await mixed(page, 'Salary (salary)'), false);
  await checkbox(page, 'View payslips (payslips)').check();
  assert.equal(await mixed(page, 'Salary (salary)'), true);
  await page.getByRole('dialog', { name: 'Edit role' }).getByRole('button', { name: 'Save' }).click();
  await page.getByRole('dialog', { name: 'Edit role' }).waitFor({ state: 'detached' });
  const held = await api.call<string[]>('GET', `/apps/${payroll.id}/roles/${employee.id}/privileges`);
  assert.deepEqual(held, [idOf('View payslips')]);

  const person = await openPage(browser);
  await signIn(person.page, server.url, 'erin', PASSWORD);
  const apps = person.page.getByRole('region', { name: 'Your apps' });
  await apps.getByRole('link', { name: /Payroll/ }).waitFor();
  assert.equal(await person.page.getByText('No apps are assigned to you yet.').count(), 0);
  assert.deepEqual(errors, []);
  assert.deepEqual(person.errors, []);
});

test('the menu editor marks an item the holders of its privilege cannot reach', async () => {
  const { page, errors } = await openPage(browser);
  await signIn(page, server.url, ADMIN.username, ADMIN.password);
  await page.goto(`${server.url}/menu/detail/${payroll.id}`);
  const tree = page.getByRole('tree', { name: 'Menu items' });
  await tree
    .getByRole('treeitem', { name: /^Leave requests/ })
    .getByText('Unreachable')
    .waitFor();
  assert.equal(await tree.getByText('Unreachable').count(), 1, 'only the Leave item under Salary');
  await tree.getByRole('treeitem', { name: /^Leave requests/ }).click();
  await page.getByText('Holders of “Leave” alone never see this item: the enclosing item “Salary” is shown only to holders of “Salary”').waitFor();
  await tree.getByRole('treeitem', { name: /^Payslips/ }).click();
  assert.equal(await page.getByText('alone never see this item').count(), 0, 'a child of Salary reaches it');
  assert.deepEqual(await seriousViolations(page, 'menu editor warning'), []);
  assert.deepEqual(errors, []);
});

test("a tenant administrator's menu-plan view: every item counted, bindings named, read-only", async () => {
  const { page, errors } = await openPage(browser);
  await signIn(page, server.url, 'office-admin', PASSWORD);
  await openFromMenu(page, 'Menu plans');
  const row = bodyRows(page.getByRole('table', { name: 'Menu plans' })).filter({ hasText: 'Payroll' });
  await row.getByRole('cell', { name: '5', exact: true }).waitFor();
  await row.getByRole('link', { name: 'Payroll', exact: true }).click();
  const tree = page.getByRole('tree', { name: 'Menu items' });
  await tree
    .getByRole('treeitem', { name: /^Payslips/ })
    .getByText('View payslips')
    .waitFor();
  await tree.getByRole('treeitem', { name: /^Payslips/ }).click();
  const binding = page.getByLabel('Shown to holders of');
  assert.equal(await binding.locator('option:checked').textContent(), 'View payslips (payslips)');
  assert.equal(await binding.isDisabled(), true);
  assert.equal(await page.getByLabel('Item name (English)').isEditable(), false);
  assert.equal(await page.getByLabel('Plan name').isEditable(), false);
  await page.getByText('Only platform administrators change menu plans').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Save' }).count(), 0);
  assert.deepEqual(await seriousViolations(page, 'menu plan, tenant administrator'), []);
  assert.deepEqual(errors, []);
});
