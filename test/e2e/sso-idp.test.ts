// Third-party sign-in in Chromium against a real local OpenID Connect provider: the sign-in page's
// provider button, the provider (which approves at once), our callback, /infoComplete with the
// provider's details filled in, the new account signed in; the second time straight in.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { ADMIN, ApiClient, launchBrowser, openPage, startServer, type RunningServer } from './harness';
import { startIdentityProvider, type IdentityProvider } from '../server/identity-provider';

let server: RunningServer;
let browser: Browser;
let idp: IdentityProvider;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  idp = await startIdentityProvider(`${server.url}/api/interaction/idp/corp/authorize/callback`, { sub: 'corp-alice', preferred_username: 'alice', name: 'Alice', email: 'alice@corp.example' });
  const api = new ApiClient(server.url);
  await api.signIn(ADMIN.username, ADMIN.password);
  await api.call('POST', '/idps', { code: 'corp', name: 'Corp SSO', type: 'OIDC', config: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret } });
  const { version } = await api.call<{ version: number }>('GET', '/config');
  await api.call('PUT', '/config', { system: { supportThirdLogin: 'Y' }, version });
});

after(async () => {
  await browser?.close();
  await idp?.stop();
  await server?.stop();
});

test('a first-time person completes their details after the provider, then comes straight in', async () => {
  const { page, errors } = await openPage(browser);
  await page.goto(`${server.url}/login`);
  await page.getByRole('link', { name: 'Sign in with Corp SSO' }).click();

  await page.getByText('Your account needs a few details before you can continue.').waitFor();
  assert.equal(new URL(page.url()).pathname, '/infoComplete');
  assert.equal(await page.getByLabel('Username').inputValue(), 'alice');
  assert.equal(await page.getByLabel('Email').inputValue(), 'alice@corp.example');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Welcome back, alice' }).waitFor();
  assert.equal(idp.approvals, 1);

  // Signed out and back: the linked account needs no details any more.
  const { page: again } = await openPage(browser);
  await again.goto(`${server.url}/login`);
  await again.getByRole('link', { name: 'Sign in with Corp SSO' }).click();
  await again.getByRole('heading', { name: 'Welcome back, alice' }).waitFor();
  assert.equal(idp.approvals, 2);
  assert.deepEqual(errors, []);
});
