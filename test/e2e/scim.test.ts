// Provisioning (SCIM) in Chromium: the platform administrator creates a tenant's SCIM token (it
// takes their current password: a wrong one is refused on its field; seen once, with the tenant URL), a provisioning client uses it with fetch to create a user, the user
// appears in the user list, the token shows its last use, and once revoked it is refused. The
// screen in Chinese; axe finds nothing serious.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, openPage, startServerAndBrowser } from './harness';
import { bodyRows, openFromMenu, Seeder, signIn } from './admin-support';
import { choose, seriousViolations, text } from './a11y-support';
import { transform } from '../server/harness';

const { server, browser } = await startServerAndBrowser();
const api = await Seeder.as(server.url);
const acme = await api.tenant((await api.rootTenant()).id, 'Acme_Scim');

const tokens = (page: Page, name = 'Provisioning (SCIM)') => page.getByRole('table', { name });

/** What a provisioning client sends to create a user. */
const createUser = (secret: string, userName: string) =>
  fetch(`${server.url}/scim/v2/Users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/scim+json' },
    body: JSON.stringify({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName,
      name: { formatted: 'Scim_Person' },
      emails: [{ value: `${userName}@acme.example`, primary: true }],
    }),
  });

test('create a token (seen once), provision a user with it, see the user, revoke the token', async () => {
  const { page, errors } = await openPage(browser, { expectedFailures: [/\/api\/scim-tokens$/] });
  await signIn(page, server.url, ADMIN.username, ADMIN.password);
  await openFromMenu(page, 'Provisioning (SCIM)');
  await tokens(page).getByText('No SCIM tokens yet.').waitFor();

  await page.getByRole('button', { name: 'Create token' }).click();
  const form = page.getByRole('dialog', { name: 'New SCIM token' });
  await form.getByLabel('Tenant').selectOption({ label: 'Acme_Scim' });
  await form.getByLabel('Token name').fill('Microsoft Entra ID');
  await form.getByLabel('Your password', { exact: true }).fill('Not-my-password-1');
  await form.getByRole('button', { name: 'Save' }).click();
  await form.getByText('The password is wrong').waitFor();
  await form.getByLabel('Your password', { exact: true }).fill(ADMIN.password);
  await form.getByRole('button', { name: 'Save' }).click();

  const shown = page.getByRole('dialog', { name: 'SCIM token created' });
  await shown.getByText(`${server.url}/scim/v2`, { exact: true }).waitFor();
  await shown.getByText('Copy the token now: it is not shown again. Only its digest is kept.').waitFor();
  const secret = ((await shown.getByRole('group', { name: 'Secret token' }).locator('code').textContent()) ?? '').trim();
  assert.match(secret, /^scim_[\w-]{43}$/);
  assert.deepEqual(await seriousViolations(page, 'SCIM token created'), []);
  await shown.getByRole('button', { name: 'Done' }).click();
  await shown.waitFor({ state: 'detached' });
  const row = bodyRows(tokens(page)).filter({ hasText: 'Microsoft Entra ID' });
  await row.getByText('Acme_Scim').waitFor();
  await row.getByText('Never').waitFor();
  await row.getByText('Active').waitFor();
  assert.ok(!(await page.locator('body').innerText()).includes(secret), 'the secret is gone once the dialog is closed');

  const created = await createUser(secret, 'scim-e2e-person');
  assert.equal(created.status, 201, await created.text());

  await openFromMenu(page, 'Users');
  await page.getByRole('table').getByText('scim-e2e-person', { exact: true }).waitFor();

  await openFromMenu(page, 'Provisioning (SCIM)');
  await row
    .getByText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
    .nth(1)
    .waitFor();
  await row.getByRole('button', { name: 'Revoke Microsoft Entra ID' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke Microsoft Entra ID' });
  await confirm.getByText("Revoke Microsoft Entra ID? Its provisioning client's next call is refused.").waitFor();
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await row.getByText('Revoked').waitFor();
  assert.equal(await row.getByRole('button', { name: 'Revoke Microsoft Entra ID' }).count(), 0);
  assert.equal((await createUser(secret, 'scim-e2e-late')).status, 401);
  assert.deepEqual(await seriousViolations(page, 'Provisioning (SCIM)'), []);
  assert.deepEqual(errors, []);
});

test('the Provisioning (SCIM) screen in Chinese', async () => {
  await api.call('POST', '/scim-tokens', { tenantId: acme.id, name: 'Okta', currentPassword: transform(ADMIN.password) });
  const { page, errors } = await openPage(browser);
  await signIn(page, server.url, ADMIN.username, ADMIN.password);
  await page.evaluate(choose, { locale: 'zh' as const, theme: 'dark' as const });
  await page.goto(`${server.url}/operate/scim`);
  await page.getByRole('heading', { name: text('zh', 'route.scim'), level: 1 }).waitFor();
  await page.getByText(text('zh', 'admin:scim.intro')).waitFor();
  const row = bodyRows(tokens(page, text('zh', 'route.scim'))).filter({ hasText: 'Okta' });
  await row.getByText(text('zh', 'admin:scim.active')).waitFor();
  await row.getByRole('button', { name: text('zh', 'admin:scim.revokeOf', { name: 'Okta' }) }).waitFor();
  await page.getByRole('button', { name: text('zh', 'admin:scim.create') }).click();
  const form = page.getByRole('dialog', { name: text('zh', 'admin:scim.createTitle') });
  await form.getByLabel(text('zh', 'admin:scim.name')).fill(' ');
  await form.getByRole('button', { name: text('zh', 'console:action.save') }).click();
  await form.getByText(text('zh', 'rule.scimTokenName')).waitFor();
  await form.getByLabel(text('zh', 'admin:scim.yourPassword'), { exact: true }).waitFor();
  assert.deepEqual(await seriousViolations(page, 'Provisioning (SCIM) (zh, dark)'), []);
  assert.deepEqual(errors, []);
});
