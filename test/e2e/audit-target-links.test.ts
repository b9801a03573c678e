// From the audit log to what an event names: a person opens on the people list (?user=), a tenant on
// the tenant screen (?tenant=), Back returns to the log; a deleted target reads as deleted, never as
// a link to nothing. And a tenant's directory groups map to roles chosen by name, not by id.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, openPage, startServerAndBrowser } from './harness';
import { bodyRows, openFromMenu, Seeder, signIn, until } from './admin-support';

const { server, browser } = await startServerAndBrowser();
const api = await Seeder.as(server.url);
const root = await api.rootTenant();
const linkedTenant = await api.tenant(root.id, 'Linked_Tenant');
const person = await api.user({ username: 'linked-person', tenantId: linkedTenant.id });
await api.user({ username: 'linked-person2', tenantId: linkedTenant.id });
const gone = await api.user({ username: 'gone-person', tenantId: linkedTenant.id });
await api.call('DELETE', `/user/${gone.id}`);
const app = await api.call<{ id: string }>('POST', '/apps', { name: 'Ledger_Links' });
const auditor = await api.call<{ id: string }>('POST', `/apps/${app.id}/roles`, { name: 'Auditor' });
await api.call('POST', `/apps/${app.id}/roles`, { name: 'Clerk' });

const auditTable = (page: Page) => page.getByRole('table', { name: 'Audit log' });
/** The audit log filtered to one target's events. */
const filterByTarget = async (page: Page, target: string) => {
  await page.getByLabel('Target', { exact: true }).fill(target);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await bodyRows(auditTable(page)).filter({ hasText: target }).first().waitFor();
};

test('an audit row links to the person and to the tenant it names, Back returns to the log, a deleted person is named as deleted', async () => {
  const { page, errors } = await openPage(browser);
  await signIn(page, server.url, ADMIN.username, ADMIN.password);
  await openFromMenu(page, 'Audit log');

  await filterByTarget(page, 'linked-person');
  await auditTable(page).getByRole('link', { name: 'linked-person', exact: true }).first().click();
  await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
  assert.match(new URL(page.url()).search, new RegExp(`^\\?user=${person.id}$`));
  await page.getByText('Showing one person, from a link: linked-person.').waitFor();
  const people = page.getByRole('table', { name: 'Users' });
  await bodyRows(people).filter({ hasText: 'linked-person' }).first().waitFor();
  await until(async () => (await bodyRows(people).count()) === 1).catch(async () =>
    assert.equal(await bodyRows(people).count(), 1, 'only the linked person, not every username starting with theirs'),
  );
  await page.goBack();
  await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();

  await filterByTarget(page, 'Linked_Tenant');
  await auditTable(page).getByRole('link', { name: 'Linked_Tenant', exact: true }).first().click();
  await page.getByRole('heading', { name: 'Linked_Tenant', level: 2, exact: true }).waitFor();
  assert.equal(
    await page
      .getByRole('tree', { name: 'Tenant tree' })
      .getByRole('treeitem', { name: /^Linked_Tenant\b/ })
      .getAttribute('aria-selected'),
    'true',
  );
  await page.goBack();
  await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();

  await filterByTarget(page, 'gone-person');
  await bodyRows(auditTable(page)).getByText('gone-person (deleted)').first().waitFor();
  assert.equal(
    await auditTable(page)
      .getByRole('link', { name: /gone-person/ })
      .count(),
    0,
    'a deleted person is not a link',
  );
  assert.deepEqual(errors, []);
});

test('a directory group maps to a role found and chosen by its name', async () => {
  const { page } = await openPage(browser);
  await signIn(page, server.url, ADMIN.username, ADMIN.password);
  await page.goto(`${server.url}/operate/tenant/list?tenant=${linkedTenant.id}`);
  await page.getByRole('heading', { name: 'Linked_Tenant', level: 2, exact: true }).waitFor();
  await page.getByRole('tab', { name: 'Administrators' }).focus();
  await page.keyboard.press('End');
  assert.equal(await page.getByRole('tab', { name: 'Directory' }).getAttribute('aria-selected'), 'true');
  const form = page.getByRole('form', { name: 'Directory (LDAP / Active Directory)' });
  await form.getByLabel('Directory URL').fill('ldap://directory.example.org');
  await form.getByLabel('Bind DN').fill('cn=reader,dc=example,dc=org');
  await form.getByLabel('Bind secret', { exact: true }).fill('reader-secret');
  await form.getByLabel('Base DN').fill('dc=example,dc=org');
  await form.getByRole('button', { name: 'Add a group mapping' }).click();
  await form.getByLabel('Group DN 1').fill('cn=auditors,dc=example,dc=org');
  const role = form.getByLabel('Role for group 1');
  await form.getByLabel('Find a role').fill('audit');
  // Narrowed by name: the auditor's role is offered, the clerk's is not (the roles come from a
  // request of their own: wait for them).
  const offered = async () => (await role.locator('option').allTextContents()).filter((label) => label.includes('Ledger_Links'));
  await until(async () => JSON.stringify(await offered()) === '["Auditor (Ledger_Links)"]').catch(async () =>
    assert.deepEqual(await offered(), ['Auditor (Ledger_Links)']),
  );
  await role.focus();
  await role.selectOption({ label: 'Auditor (Ledger_Links)' });
  await form.getByRole('button', { name: 'Save connection' }).click();
  await page.getByText('Directory connection saved').waitFor();
  const stored = await api.call<{ settings: { groupRoles: { groupDn: string; roleId: string }[] } }>('GET', `/tenants/${linkedTenant.id}/ldap`);
  assert.deepEqual(stored.settings.groupRoles, [{ groupDn: 'cn=auditors,dc=example,dc=org', roleId: auditor.id }]);
});
