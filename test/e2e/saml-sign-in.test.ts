// SAML 2.0 in Chromium against a service provider the server does not use itself
// (@node-saml/node-saml), listening on a loopback port: SP-initiated sign-in (HTTP-Redirect) through
// the real sign-in page and the consent page, landing on the SP with the NameID and attributes; then
// by the HTTP-POST binding and IdP-initiated from the portal's "Your apps", the consent remembered; and the app's SAML tab configured by an administrator
// by its labels (metadata fetched by URL, ACS rows, per-field refusals, removal), with one look in
// Chinese.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { SAML, generateServiceProviderMetadata } from '@node-saml/node-saml';
import { ADMIN, ApiClient, freePort, openPage, startServerAndBrowser, submitSignIn } from './harness';
import { until } from './admin-support';

// The SP's metadata is fetched by the server from a loopback address: allowed for this run only.
const { server, browser } = await startServerAndBrowser({ IAM_OUTBOUND_ALLOW: '127.0.0.1' });
const admin = new ApiClient(server.url);
await admin.signIn(ADMIN.username, ADMIN.password);
const person = { username: 'saml-reader', realName: 'Rita_Reader', email: 'rita.reader@example.test', password: 'Reader-2024-pw' };
const personId = await admin.createUser(person);

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const idpCerts = [...(await (await fetch(`${server.url}/api/saml/metadata`)).text()).matchAll(/<ds:X509Certificate>([^<]+)</g)].map((m) => m[1]!);

/** A small SAML app: /login starts an SP-initiated sign-in, /acs shows who came back, /metadata
 *  describes it. Each has its own entity ID and ACS URL. */
async function startSp(name: string): Promise<{ url: string; entityId: string; acsUrl: string; metadataXml: string; server: Server }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const entityId = `${url}/${name}`;
  const acsUrl = `${url}/acs`;
  const saml = new SAML({
    issuer: entityId,
    callbackUrl: acsUrl,
    entryPoint: `${server.url}/api/saml/sso`,
    idpIssuer: `${server.url}/api/saml/metadata`,
    idpCert: idpCerts,
    audience: entityId,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: true,
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    disableRequestedAuthnContext: true,
    // SP-initiated answers name the request (checked against node-saml's cache); IdP-initiated have none.
    validateInResponseTo: 'ifPresent' as never,
  });
  const metadataXml = generateServiceProviderMetadata({
    issuer: entityId,
    callbackUrl: acsUrl,
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    wantAssertionsSigned: true,
  });
  const sp = createServer((request, response) => {
    void (async () => {
      // node-saml's form page (HTTP-POST) names no icon: the browser may ask for one before it posts.
      if (request.url === '/favicon.ico') return response.writeHead(204).end();
      if (request.url === '/metadata') return response.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(metadataXml);
      if (request.url === '/login') return response.writeHead(302, { location: await saml.getAuthorizeUrlAsync('sp-relay', undefined, {}) }).end();
      // The HTTP-POST binding: a page whose form posts the AuthnRequest to the identity provider.
      if (request.url === '/login-post')
        return response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(await saml.getAuthorizeFormAsync('sp-post-relay', undefined, {}));
      if (request.url === '/acs' && request.method === 'POST') {
        let body = '';
        for await (const chunk of request) body += chunk;
        const form = new URLSearchParams(body);
        try {
          const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: form.get('SAMLResponse') ?? '' });
          const rows = ['nameID', 'email', 'name', 'username', 'roles'].map(
            (key) => `<dt>${key}</dt><dd data-testid="${key}">${escapeHtml(String(profile?.[key] ?? ''))}</dd>`,
          );
          return response
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end(
              `<!doctype html><title>${name}</title><link rel="icon" href="data:,"><h1>Signed in to ${name}</h1><p data-testid="relay">${escapeHtml(form.get('RelayState') ?? '')}</p><dl>${rows.join('')}</dl>`,
            );
        } catch (error) {
          return response.writeHead(400, { 'content-type': 'text/plain' }).end(`refused: ${(error as Error).message}`);
        }
      }
      response.writeHead(404).end();
    })();
  });
  await new Promise<void>((resolve) => sp.listen(port, '127.0.0.1', resolve));
  return { url, entityId, acsUrl, metadataXml, server: sp };
}

const expense = await startSp('expense');
const wiki = await startSp('wiki');
test.after(() => Promise.all([expense, wiki].map((sp) => new Promise((resolve) => sp.server.close(resolve)))));

const expenseApp = await admin.call<{ id: string }>('POST', '/apps', { name: 'Expense_SAML', entrypoint: `${expense.url}/`, callbackUrl: `${expense.url}/cb` });
await admin.call('PUT', `/apps/${expenseApp.id}/saml-provider`, { metadataXml: expense.metadataXml });
const approver = await admin.call<{ id: string }>('POST', `/apps/${expenseApp.id}/roles`, { name: 'Approver', description: 'Approves expenses' });
await admin.call('PUT', `/apps/${expenseApp.id}/roles/${approver.id}/members`, { userIds: [personId] });
// A visible item in the app's menu puts it in the person's "Your apps".
await admin.call('POST', '/menu-plans', { appId: expenseApp.id, name: 'Expense menu', items: [{ name: 'Claims', path: '/claims' }] });

async function allowOnConsentPage(page: Page) {
  await page.getByText('Expense_SAML asks to sign you in with your account').waitFor();
  await page.getByRole('button', { name: 'Allow' }).click();
}

async function assertLandedOnExpense(page: Page, relay: string) {
  await page.getByRole('heading', { name: 'Signed in to expense' }).waitFor();
  assert.equal(new URL(page.url()).origin, expense.url);
  assert.equal(await page.getByTestId('nameID').textContent(), 'rita.reader@example.test');
  assert.equal(await page.getByTestId('email').textContent(), 'rita.reader@example.test');
  assert.equal(await page.getByTestId('name').textContent(), person.realName);
  assert.equal(await page.getByTestId('username').textContent(), person.username);
  assert.equal(await page.getByTestId('roles').textContent(), 'Approver');
  assert.equal(await page.getByTestId('relay').textContent(), relay);
}

test('SP-initiated (HTTP-Redirect): the person signs in on the sign-in page, allows the app and lands on it with NameID and attributes', async () => {
  const { page, context, errors } = await openPage(browser);
  await page.goto(`${expense.url}/login`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('Username').fill(person.username);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await allowOnConsentPage(page);
  await assertLandedOnExpense(page, 'sp-relay');
  assert.deepEqual(errors, []);
  await context.close();
});

test('SP-initiated (HTTP-POST), after a consent: the posted request signs the person in and the consent is not asked again', async () => {
  const { page, context, errors } = await openPage(browser);
  await page.goto(`${expense.url}/login-post`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('Username').fill(person.username);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // The person allowed the app in the test above: remembered, so no consent page this time.
  await assertLandedOnExpense(page, 'sp-post-relay');
  assert.deepEqual(errors, []);
  await context.close();
});

test('IdP-initiated from "Your apps": the SAML app opens by a sign-in button and lands in the app (its consent remembered)', async () => {
  const { page, context, errors } = await openPage(browser);
  await submitSignIn(page, server.url, person.username, person.password);
  await page.waitForURL(/\/home\/index$/);
  const apps = page.getByRole('region', { name: 'Your apps' });
  const tile = apps.getByRole('button', { name: /Expense_SAML/ });
  await tile.waitFor();
  assert.equal(await tile.getAttribute('aria-describedby').then((id) => page.locator(`[id="${id}"]`).textContent()), 'Sign in with SAML');
  await tile.focus();
  await page.keyboard.press('Enter');
  await assertLandedOnExpense(page, '');
  assert.deepEqual(errors, []);
  await context.close();
});

/** One administrator's page for the SAML tab tests (one sign-in for the file), opened on first use; the
 *  browser closes it with the file. */
let adminPage: Promise<{ page: Page; errors: string[] }> | undefined;
function signedInAdmin() {
  adminPage ??= (async () => {
    const { page, context, errors } = await openPage(browser, { expectedFailures: [/\/saml-provider$/] });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await submitSignIn(page, server.url, ADMIN.username, ADMIN.password);
    await page.waitForURL(/\/home\/index$/);
    return { page, errors };
  })();
  return adminPage;
}

async function adminAtSamlTab(appId: string): Promise<{ page: Page; errors: string[] }> {
  const opened = await signedInAdmin();
  await opened.page.goto(`${server.url}/app/detail/${appId}`);
  return opened;
}

test('the SAML tab: an administrator reads the metadata by URL, edits ACS rows and signing by labels, sees refusals per field, and removes the settings', async () => {
  const app = await admin.call<{ id: string }>('POST', '/apps', { name: 'Wiki_SAML', entrypoint: `${wiki.url}/`, callbackUrl: `${wiki.url}/cb` });
  const { page, errors } = await adminAtSamlTab(app.id);
  await page.getByRole('tab', { name: 'SAML' }).click();
  const tab = page.getByRole('region', { name: 'Single sign-on (SAML 2.0)' });
  await tab.getByText('This app is not a SAML service provider yet').waitFor();

  // What to give the app: the metadata URL to copy, and the signing certificate.
  const metadataUrl = `${server.url}/api/saml/metadata`;
  await tab.getByText(metadataUrl, { exact: true }).waitFor();
  await tab.getByRole('button', { name: 'Copy Metadata URL of this identity provider (its entity ID)' }).click();
  // The clipboard's write is asynchronous.
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
  await until(async () => (await clipboard()) === metadataUrl).catch(async () => assert.equal(await clipboard(), metadataUrl));
  assert.match((await tab.getByLabel('Signing certificate 1').textContent()) ?? '', /^-----BEGIN CERTIFICATE-----\n[\s\S]+-----END CERTIFICATE-----$/);

  // The app's metadata, fetched by the server from its URL, fills in the settings.
  await tab.getByLabel("App's metadata URL").fill(`${wiki.url}/metadata`);
  await tab.getByRole('button', { name: 'Read metadata' }).click();
  await tab.getByText('This app is registered as a SAML service provider.').waitFor();
  assert.equal(await tab.getByLabel('Service provider entity ID').inputValue(), wiki.entityId);
  assert.equal(await tab.getByLabel('ACS URL 1', { exact: true }).inputValue(), wiki.acsUrl);
  assert.equal(await tab.getByLabel('Binding of ACS URL 1').inputValue(), 'HTTP-POST');

  // A second ACS row, checked before sending: a bad URL is named under its own field.
  await tab.getByRole('button', { name: 'Add an ACS URL' }).click();
  await tab.getByLabel('ACS URL 2', { exact: true }).fill('not a url');
  await tab.getByLabel('Binding of ACS URL 2').selectOption('HTTP-Redirect');
  await tab.getByRole('button', { name: 'Save' }).click();
  const acs2 = tab.getByLabel('ACS URL 2', { exact: true });
  // The form's check runs asynchronously: its message first, then the field it marks.
  await tab.getByText('Please enter a valid URL starting with http:// or https://').waitFor();
  assert.equal(await acs2.getAttribute('aria-invalid'), 'true');

  // The server's refusal: an entity ID another app has, shown under Entity ID.
  await acs2.fill(`${wiki.url}/acs-redirect`);
  await tab.getByLabel('Service provider entity ID').fill(expense.entityId);
  await tab.getByRole('button', { name: 'Save' }).click();
  await tab.getByText('Another app already uses this entity ID').waitFor();
  assert.equal(await tab.getByLabel('Service provider entity ID').getAttribute('aria-invalid'), 'true');
  assert.equal(await acs2.getAttribute('aria-invalid'), null);

  // Encryption is off until asked for; asked for without the app's encryption certificate, it is
  // refused under that field, and left off.
  const encrypt = tab.getByLabel('Encrypt assertions');
  assert.equal(await encrypt.isChecked(), false);
  await encrypt.check();
  await tab.getByLabel('Assertion encryption').waitFor();
  await tab.getByRole('button', { name: 'Save' }).click();
  await tab.getByText('This field is required').waitFor();
  assert.equal(await tab.getByLabel('Service provider encryption certificate').getAttribute('aria-invalid'), 'true');
  await encrypt.uncheck();

  // Fixed: NameID persistent, the assertion signed but not the response, saved.
  await tab.getByLabel('Service provider entity ID').fill(wiki.entityId);
  await tab.getByLabel('NameID format').selectOption({ label: 'Persistent (an opaque id for this app)' });
  await tab.getByText('The app knows each person by an opaque id').waitFor();
  await tab.getByLabel('Sign the response').uncheck();
  await tab.getByLabel("App's single logout URL").fill(`${wiki.url}/slo`);
  await tab.getByRole('button', { name: 'Save' }).click();
  await page.getByText('SAML settings saved').waitFor();
  const saved = await admin.call<{
    provider: { acsUrls: unknown[]; nameIdFormat: string; signResponse: boolean; signAssertion: boolean; sloUrl: string; encryptAssertions: boolean };
  }>('GET', `/apps/${app.id}/saml-provider`);
  assert.deepEqual(saved.provider.acsUrls, [
    { url: wiki.acsUrl, binding: 'HTTP-POST' },
    { url: `${wiki.url}/acs-redirect`, binding: 'HTTP-Redirect' },
  ]);
  assert.equal(saved.provider.nameIdFormat, 'persistent');
  assert.equal(saved.provider.signResponse, false);
  assert.equal(saved.provider.signAssertion, true);
  assert.equal(saved.provider.sloUrl, `${wiki.url}/slo`);
  assert.equal(saved.provider.encryptAssertions, false);

  await page.screenshot({ path: process.env.IAM_SAML_SHOT ?? '/tmp/saml-tab.png', fullPage: true });

  // Removing a row by keyboard, then the settings themselves.
  await tab.getByRole('button', { name: 'Remove ACS URL 2' }).focus();
  await page.keyboard.press('Enter');
  assert.equal(await tab.getByLabel('ACS URL 2', { exact: true }).count(), 0);
  await tab.getByRole('button', { name: 'Remove SAML settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove the SAML settings?' });
  await dialog.getByRole('button', { name: 'Remove SAML settings' }).click();
  await dialog.waitFor({ state: 'detached' });
  await tab.getByText('This app is not a SAML service provider yet').waitFor();
  assert.equal((await admin.call<{ provider: unknown }>('GET', `/apps/${app.id}/saml-provider`)).provider, null);
  assert.deepEqual(errors, []);
});

test('the SAML tab in Chinese: its labels and a refusal speak Chinese', async () => {
  const app = await admin.call<{ id: string }>('POST', '/apps', { name: 'Wiki_ZH', entrypoint: `${wiki.url}/`, callbackUrl: `${wiki.url}/cb` });
  const { page, errors } = await adminAtSamlTab(app.id);
  await page.getByRole('button', { name: '中文' }).click();
  await page.getByRole('tab', { name: 'SAML' }).click();
  const tab = page.getByRole('region', { name: '单点登录（SAML 2.0）' });
  await tab.getByLabel('服务提供方实体 ID').fill('has a space');
  await tab.getByLabel('ACS URL 1', { exact: true }).fill(`${wiki.url}/acs`);
  await tab.getByRole('button', { name: '保存' }).click();
  // The form's check runs asynchronously after the click.
  const entityId = tab.getByLabel('服务提供方实体 ID');
  await until(async () => (await entityId.getAttribute('aria-invalid')) === 'true').catch(async () =>
    assert.equal(await entityId.getAttribute('aria-invalid'), 'true'),
  );
  assert.ok(await tab.getByLabel('NameID 格式').isVisible());
  assert.ok(await tab.getByRole('button', { name: '读取元数据' }).isVisible());
  assert.deepEqual(errors, []);
});
