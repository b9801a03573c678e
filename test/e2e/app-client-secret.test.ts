// An app's OpenID Connect client in the app detail: client id, issuer and redirect URIs (the
// callback URLs); its secret generated and rotated there and shown once in a dialog. The secrets
// are checked against our provider's token endpoint: the current one authenticates the app, a
// rotated-out one is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, ApiClient, openPage, startServerAndBrowser, type WatchedPage } from './harness';
import { signIn, until } from './admin-support';

const CALLBACK = 'https://wiki.example.com/oauth/callback';

const { server, browser } = await startServerAndBrowser();
const admin = new ApiClient(server.url);
await admin.signIn(ADMIN.username, ADMIN.password);
const issuer = `${server.url}/api/oidc`;
let apps = 0;

/** Each test's own fixture: a new app (`withSecret`: whose client has a secret already, which the
 *  client's settings need), and the administrator signed in on a page of their own, at its detail. */
async function adminAtNewApp(withSecret: boolean): Promise<{ watched: WatchedPage; page: Page; appId: string }> {
  apps += 1;
  const appId = (await admin.call<{ id: string }>('POST', '/apps', { name: `Wiki_${apps}`, entrypoint: 'https://wiki.example.com/', callbackUrl: CALLBACK }))
    .id;
  if (withSecret) await admin.call('POST', `/apps/${appId}/oidc-client/secret`);
  const watched = await openPage(browser);
  const { page } = watched;
  await watched.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await signIn(page, server.url, ADMIN.username, ADMIN.password, `/app/detail/${appId}`);
  return { watched, page, appId };
}

const panel = (page: Page) => page.getByRole('region', { name: 'Single sign-on (OpenID Connect)' });

/** What the token endpoint says to the app authenticated with this secret (an unknown refresh
 *  token: a right secret gets as far as invalid_grant, a wrong one stops at invalid_client). */
async function tokenEndpointAnswer(appId: string, secret: string): Promise<string> {
  const response = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${appId}:${secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=refresh_token&refresh_token=unknown',
  });
  return ((await response.json()) as { error: string }).error;
}

/** Reads the secret from the dialog, copies it with the Copy button, closes with Done. */
async function takeSecretFromDialog(page: Page): Promise<string> {
  const dialog = page.getByRole('dialog', { name: 'New client secret' });
  const field = dialog.getByRole('group', { name: 'Client secret' });
  const secret = (await field.locator('code').textContent())?.trim() ?? '';
  assert.ok(secret.length >= 32, `a long secret (${secret.length})`);
  await dialog.getByText('This secret will not be shown again. Copy it now and keep it safe.').waitFor();
  await field.getByRole('button', { name: 'Copy Client secret' }).click();
  // The clipboard's write is asynchronous (after a rotation it still holds the previous secret a moment).
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
  await until(async () => (await clipboard()) === secret).catch(async () => assert.equal(await clipboard(), secret));
  await dialog.getByRole('button', { name: 'Done' }).click();
  await dialog.waitFor({ state: 'detached' });
  return secret;
}

test('the app detail shows the client; the secret is generated and shown once', async () => {
  const { watched, page, appId } = await adminAtNewApp(false);
  const details = panel(page).locator('dl');
  await details.getByText(appId, { exact: true }).waitFor();
  await details.getByText(issuer, { exact: true }).waitFor();
  await details.getByText(CALLBACK, { exact: true }).waitFor();
  await panel(page).getByText('No secret yet.').waitFor();

  await panel(page).getByRole('button', { name: 'Generate secret' }).click();
  const secret = await takeSecretFromDialog(page);
  await panel(page)
    .getByText(/^A secret is set \(created \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\)\.$/)
    .waitFor();
  assert.equal(await tokenEndpointAnswer(appId, secret), 'invalid_grant', 'the shown secret authenticates the app');

  // Shown once: not on the page any more, nor after a reload.
  assert.ok(!(await page.locator('body').innerText()).includes(secret));
  await page.reload();
  await panel(page).getByRole('button', { name: 'Rotate secret' }).waitFor();
  assert.ok(!(await page.locator('body').innerText()).includes(secret));
  const status = await page.evaluate(async (id) => (await fetch(`/api/apps/${id}/oidc-client`)).text(), appId);
  assert.ok(!status.includes(secret), 'the status answer never carries it');
  assert.match(status, /"redirectUris":\["https:\/\/wiki\.example\.com\/oauth\/callback"\]/);

  // Rotating asks first; Cancel keeps the secret.
  await panel(page).getByRole('button', { name: 'Rotate secret' }).click();
  const confirm = page.getByRole('dialog', { name: 'Rotate the client secret?' });
  await confirm.getByText('The current secret stops working at once; the app must be given the new one.').waitFor();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await confirm.waitFor({ state: 'detached' });
  assert.equal(await tokenEndpointAnswer(appId, secret), 'invalid_grant');

  await panel(page).getByRole('button', { name: 'Rotate secret' }).click();
  await confirm.getByRole('button', { name: 'Rotate secret' }).click();
  const rotated = await takeSecretFromDialog(page);
  assert.notEqual(rotated, secret);
  assert.equal(await tokenEndpointAnswer(appId, rotated), 'invalid_grant', 'the new secret works');
  assert.equal(await tokenEndpointAnswer(appId, secret), 'invalid_client', 'the old secret is refused');
  assert.deepEqual(watched.errors, []);
});

test('post-logout redirect URIs are edited in the SSO section, checked like redirect URIs', async () => {
  const { watched, page, appId } = await adminAtNewApp(true);
  const field = panel(page).getByRole('textbox', { name: 'Post-logout redirect URIs' });
  await field.waitFor();
  await field.fill('javascript:alert(1)');
  await panel(page).getByRole('button', { name: 'Save post-logout URIs' }).click();
  await panel(page).getByRole('alert').getByText('Enter at most 10 URLs starting with http:// or https://, one a line, without # or commas.').waitFor();
  assert.equal(await field.getAttribute('aria-invalid'), 'true');

  await field.fill('https://wiki.example.com/signed-out\nhttps://wiki.example.com/bye');
  await panel(page).getByRole('button', { name: 'Save post-logout URIs' }).click();
  await panel(page).getByRole('alert').waitFor({ state: 'detached' });
  // The error goes when the save starts; the reload waits for its answer.
  await page.getByRole('status').filter({ hasText: 'Post-logout redirect URIs saved' }).waitFor();
  await page.reload();
  assert.equal(
    await panel(page).getByRole('textbox', { name: 'Post-logout redirect URIs' }).inputValue(),
    'https://wiki.example.com/signed-out\nhttps://wiki.example.com/bye',
  );
  const status = await page.evaluate(async (id) => (await fetch(`/api/apps/${id}/oidc-client`)).text(), appId);
  assert.match(status, /"postLogoutRedirectUris":\["https:\/\/wiki\.example\.com\/signed-out","https:\/\/wiki\.example\.com\/bye"\]/);
  assert.deepEqual(watched.errors, []);
});

test('machine access (client_credentials) and, for the platform administrator, trusted are labelled checkboxes in the SSO section, saved at once', async () => {
  const { watched, page, appId } = await adminAtNewApp(true);
  const box = panel(page).getByRole('checkbox', { name: 'Allow machine access (client_credentials grant)' });
  await box.waitFor();
  assert.equal(await box.isChecked(), false);
  await box.click();
  await page.waitForFunction(async (id) => (await (await fetch(`/api/apps/${id}/oidc-client`)).json()).data.clientCredentials === true, appId);
  await panel(page).getByRole('checkbox', { name: 'Allow machine access (client_credentials grant)', checked: true }).waitFor();
  await page.reload();
  await panel(page).getByRole('checkbox', { name: 'Allow machine access (client_credentials grant)', checked: true }).waitFor();
  const trusted = panel(page).getByRole('checkbox', { name: 'Trusted app (no consent page)' });
  assert.equal(await trusted.isChecked(), false);
  await trusted.click();
  await panel(page).getByRole('checkbox', { name: 'Trusted app (no consent page)', checked: true }).waitFor();
  await page.waitForFunction(async (id) => (await (await fetch(`/api/apps/${id}/oidc-client`)).json()).data.trusted === true, appId);
  assert.deepEqual(watched.errors, []);
});
