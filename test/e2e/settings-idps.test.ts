// The "Third-party login" tab of operate/setting against a real local OpenID Connect provider: an
// administrator adds the provider in the dialog (the form's and the server's refusals first), its
// button appears on the sign-in page and signs a person in through the provider; an edit with the
// secret left blank keeps the stored secret working; disabled, the button disappears; deleted after
// confirming. One pass in Chinese for the tab and the dialog's labels.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, ApiClient, openPage, startServerAndBrowser } from './harness';
import { choose, seriousViolations, settled, text } from './a11y-support';
import { startIdentityProvider } from '../server/identity-provider';
import { signIn } from './admin-support';

const { server, browser } = await startServerAndBrowser({ IAM_OUTBOUND_ALLOW: '127.0.0.1' });
const idp = await startIdentityProvider(`${server.url}/api/interaction/idp/corp/authorize/callback`, {
  sub: 'corp-alice',
  preferred_username: 'alice',
  name: 'Alice',
  email: 'alice@corp.example',
});
after(() => idp.stop());
const api = new ApiClient(server.url);
await api.signIn(ADMIN.username, ADMIN.password);
const { version } = await api.call<{ version: number }>('GET', '/config');
await api.call('PUT', '/config', { system: { supportThirdLogin: 'Y' }, version });

/** The settings screen's third-party tab, signed in through the API (the sign-in form is not this file's subject). */
async function openTab(page: Page, locale: 'en' | 'zh'): Promise<void> {
  await signIn(page, server.url, ADMIN.username, ADMIN.password, '/operate/setting');
  await page.getByRole('tab', { name: text(locale, 'settings:tab.thirdParty') }).click();
}

/** The sign-in page in a fresh browser context, once it has asked for the enabled providers. */
async function signInPage(): Promise<Page> {
  const { page } = await openPage(browser);
  const providers = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/idps');
  await page.goto(`${server.url}/login`);
  await providers;
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  return page;
}

test('add a provider in the tab, sign in with its button, edit keeping the secret, disable, delete', async () => {
  const { page, errors } = await openPage(browser, { expectedFailures: [/\/api\/idps$/] });
  await openTab(page, 'en');
  await page.getByText('No identity providers yet.').waitFor();

  await page.getByRole('button', { name: 'Add provider' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add provider' });
  await dialog.getByLabel('Code').fill('corp');
  await dialog.getByLabel('Button label').fill('Corp SSO');
  await dialog.getByLabel('Issuer URL').fill('ftp://127.0.0.1/');
  await dialog.getByLabel('Client ID').fill(idp.clientId);
  await dialog.getByLabel('Client secret', { exact: true }).fill(idp.clientSecret);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.getByText('Please enter a valid URL starting with http:// or https://').waitFor();
  await dialog.getByLabel('Issuer URL').fill(idp.issuer);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'detached' });
  const row = page.getByRole('row').filter({ hasText: 'Corp SSO' });
  await row.getByText(idp.issuer).waitFor();
  await row.getByText('Enabled').waitFor();
  await settled(page);
  assert.deepEqual(await seriousViolations(page, 'en third-party login tab'), []);

  // The same code again: the server's refusal under the field.
  await page.getByRole('button', { name: 'Add provider' }).click();
  await dialog.getByLabel('Code').fill('corp');
  await dialog.getByLabel('Button label').fill('Corp again');
  await dialog.getByLabel('Issuer URL').fill(idp.issuer);
  await dialog.getByLabel('Client ID').fill(idp.clientId);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.getByText('This name is already used').waitFor();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Its button on the sign-in page signs a new person in through the provider.
  const person = await signInPage();
  await person.getByRole('link', { name: 'Sign in with Corp SSO' }).click();
  await person.getByText('Your account needs a few details before you can continue.').waitFor();
  await person.getByRole('button', { name: 'Continue' }).click();
  // The provider did not vouch for the email: a code went there; this walk leaves it for later.
  await person.getByRole('button', { name: 'Skip for now' }).click();
  await person.getByRole('heading', { name: 'Welcome back, alice' }).waitFor();
  assert.equal(idp.approvals, 1);

  // Edit: the stored secret is never shown; left blank it is kept (the next sign-in still works).
  await page.getByRole('button', { name: 'Edit Corp SSO' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit identity provider' });
  const secret = edit.getByLabel('Client secret', { exact: true });
  assert.equal(await secret.inputValue(), '');
  assert.equal(await secret.getAttribute('placeholder'), 'Unchanged');
  assert.equal(await edit.getByLabel('Code').getAttribute('readonly'), '', 'the code cannot change');
  assert.equal(await edit.getByLabel('Issuer URL').inputValue(), idp.issuer);
  await edit.getByLabel('Button label').fill('Corp login');
  await edit.getByRole('button', { name: 'Save' }).click();
  await edit.waitFor({ state: 'detached' });
  await page.getByRole('row').filter({ hasText: 'Corp login' }).waitFor();
  const again = await signInPage();
  await again.getByRole('link', { name: 'Sign in with Corp login' }).click();
  await again.getByRole('heading', { name: 'Welcome back, alice' }).waitFor();
  assert.equal(idp.approvals, 2);

  // Disabled: the button disappears from the sign-in page.
  await page.getByRole('button', { name: 'Disable Corp login' }).click();
  await page.getByRole('row').filter({ hasText: 'Corp login' }).getByText('Disabled').waitFor();
  const without = await signInPage();
  assert.equal(await without.getByRole('link', { name: /Corp/ }).count(), 0);
  await page.getByRole('button', { name: 'Enable Corp login' }).click();
  await page.getByRole('row').filter({ hasText: 'Corp login' }).getByText('Enabled').waitFor();

  await page.getByRole('button', { name: 'Delete Corp login' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete' });
  await confirm.getByText('Delete the identity provider Corp login?', { exact: false }).waitFor();
  await confirm.getByRole('button', { name: 'OK' }).click();
  await page.getByText('No identity providers yet.').waitFor();
  assert.deepEqual(await api.call('GET', '/idps'), []);
  assert.deepEqual(errors, []);
});

test('in Chinese: the tab and the dialog labels', async () => {
  const { page, context, errors } = await openPage(browser);
  await context.addInitScript(choose, { locale: 'zh' as const, theme: 'light' as const });
  await openTab(page, 'zh');
  await page.getByRole('heading', { name: '身份提供方' }).waitFor();
  await settled(page);
  assert.deepEqual(await seriousViolations(page, 'zh third-party login tab (empty)'), []);
  await page.getByRole('button', { name: '添加提供方' }).click();
  const dialog = page.getByRole('dialog', { name: '添加提供方' });
  for (const label of ['编码', '按钮文字', '签发者地址', '客户端 ID', '客户端密钥', '授权范围', '启用'])
    await dialog.getByLabel(label, { exact: true }).waitFor();
  await dialog.getByLabel('签发者地址').fill('ftp://127.0.0.1/');
  await dialog.getByRole('button', { name: '保存' }).click();
  await dialog.getByText('请输入以http://或https://开头的正确网址').waitFor();
  assert.deepEqual(errors, []);
});
