// Third-party sign-in in Chromium against real local OpenID Connect providers: the sign-in page's
// provider buttons (with their icons), the provider (which approves at once), our callback,
// /infoComplete with the provider's details filled in, the new account signed in; the second time
// straight in. A provider that vouches for an email that is an existing account's is linked only
// with its password. A linked person with an authenticator app gives its code on /infoComplete
// after the provider. Over a live session the page asks before switching accounts, and a sign-in
// link made in another browser (login CSRF) is refused.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, ApiClient, openPage, startServerAndBrowser } from './harness';
import { startIdentityProvider, type IdentityProvider } from '../server/identity-provider';
import { turnOnAuthenticator } from './totp-support';
import { signIn, until } from './admin-support';
import { seriousViolations } from './a11y-support';

const { server, browser } = await startServerAndBrowser({ IAM_OUTBOUND_ALLOW: '127.0.0.1' });
let idp: IdentityProvider;
/** A second provider whose person has the email of an existing local account (bob). */
let partner: IdentityProvider;
const BOB = { username: 'bob', realName: 'Bob', password: 'Bob-e2e-2024', email: 'bob@partner.example' };
const ICON = '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><circle cx="8" cy="8" r="7" fill="#2a7"/></svg>';

before(async () => {
  idp = await startIdentityProvider(`${server.url}/api/interaction/idp/corp/authorize/callback`, {
    sub: 'corp-alice',
    preferred_username: 'alice',
    name: 'Alice',
    email: 'alice@corp.example',
  });
  const api = new ApiClient(server.url);
  await api.signIn(ADMIN.username, ADMIN.password);
  const icon = await api.upload('icon', 'corp.svg', new TextEncoder().encode(ICON), 'image/svg+xml');
  await api.call('POST', '/idps', {
    code: 'corp',
    name: 'Corp SSO',
    type: 'OIDC',
    icon,
    config: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret },
  });
  partner = await startIdentityProvider(`${server.url}/api/interaction/idp/partner/authorize/callback`, {
    sub: 'partner-bob',
    preferred_username: 'bobby',
    name: 'Bobby',
    email: BOB.email,
    email_verified: true,
  });
  await api.call('POST', '/idps', {
    code: 'partner',
    name: 'Partner SSO',
    type: 'OIDC',
    config: { issuer: partner.issuer, clientId: partner.clientId, clientSecret: partner.clientSecret },
  });
  await api.createUser(BOB);
  const { version } = await api.call<{ version: number }>('GET', '/config');
  await api.call('PUT', '/config', { system: { supportThirdLogin: 'Y' }, version });
});

/** Bob on the home screen, signed in through the API (the tests that start so are about what follows). */
async function signInAsBob(page: Page): Promise<void> {
  await signIn(page, server.url, BOB.username, BOB.password);
  await page.getByRole('heading', { name: 'Welcome back, Bob' }).waitFor();
}

after(async () => {
  await idp?.stop();
  await partner?.stop();
});

test('a first-time person completes their details after the provider, then comes straight in', async () => {
  const { page, errors } = await openPage(browser);
  await page.goto(`${server.url}/login`);
  // The configured icon is drawn beside the label (decoration: empty alt; the label names the link).
  const icon = page.getByRole('link', { name: 'Sign in with Corp SSO' }).locator('img');
  await icon.waitFor();
  assert.equal(await icon.getAttribute('alt'), '');
  // (An image shows before its file has loaded.)
  await until(() => icon.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).catch(() => assert.fail('the icon loaded'));
  assert.equal(await page.getByRole('link', { name: 'Sign in with Partner SSO' }).locator('img').count(), 0, 'no icon: none drawn');
  await page.getByRole('link', { name: 'Sign in with Corp SSO' }).click();

  await page.getByText('Your account needs a few details before you can continue.').waitFor();
  assert.equal(new URL(page.url()).pathname, '/infoComplete');
  assert.equal(await page.getByLabel('Username').inputValue(), 'alice');
  assert.equal(await page.getByLabel('Email').inputValue(), 'alice@corp.example');
  await page.getByRole('button', { name: 'Continue' }).click();
  // The provider did not vouch for the email: the person is told a code went there, and asked for it.
  await page.getByText('A code was sent to alice@corp.example. The new address applies once you enter it here.').waitFor();
  await page.getByRole('textbox', { name: 'Code sent to alice@corp.example' }).waitFor();
  assert.deepEqual(await seriousViolations(page, 'the code for a typed email on /infoComplete'), []);
  await page.getByRole('button', { name: 'Skip for now' }).click();
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

test("the provider's email is an existing account's: linked only with its password, then straight in", async () => {
  const { page, errors } = await openPage(browser, { expectedFailures: [/\/after\/user\/link\?/] });
  await page.goto(`${server.url}/login`);
  await page.getByRole('link', { name: 'Sign in with Partner SSO' }).click();
  await page.getByText('An account with your email address already exists: bob. Is it yours?').waitFor();

  // "Create a new account" is the complement form; Back returns to the choice.
  await page.getByRole('button', { name: 'Create a new account' }).click();
  assert.equal(await page.getByLabel('Username').inputValue(), 'bobby');
  await page.getByRole('button', { name: 'Back' }).click();

  await page.getByRole('button', { name: 'Link to my existing account' }).click();
  await page.getByText('Enter the password of bob to link this sign-in to it. Next time you come straight in.').waitFor();
  await page.getByLabel('Password', { exact: true }).fill('Not-bobs-1');
  await page.getByRole('button', { name: 'Link and sign in' }).click();
  await page.getByText('The password is wrong').waitFor();
  assert.equal(new URL(page.url()).pathname, '/infoComplete', 'not signed in');

  await page.getByLabel('Password', { exact: true }).fill(BOB.password);
  await page.getByRole('button', { name: 'Link and sign in' }).click();
  await page.getByRole('heading', { name: 'Welcome back, Bob' }).waitFor();
  assert.equal(partner.approvals, 1);

  // The link is remembered: next time the provider signs bob in directly.
  const { page: again, errors: againErrors } = await openPage(browser);
  await again.goto(`${server.url}/login`);
  await again.getByRole('link', { name: 'Sign in with Partner SSO' }).click();
  await again.getByRole('heading', { name: 'Welcome back, Bob' }).waitFor();
  assert.equal(partner.approvals, 2);
  assert.deepEqual(errors, []);
  assert.deepEqual(againErrors, []);
});

test('a linked person with an authenticator app gives its code after the provider, on the same page', async () => {
  const carol = { username: 'carol', realName: 'Carol', password: 'Carol-e2e-2024', email: 'carol@vault.example' };
  const vault = await startIdentityProvider(`${server.url}/api/interaction/idp/vault/authorize/callback`, {
    sub: 'vault-carol',
    preferred_username: 'carol',
    name: 'Carol',
    email: carol.email,
    email_verified: true,
  });
  try {
    const api = new ApiClient(server.url);
    await api.signIn(ADMIN.username, ADMIN.password);
    await api.call('POST', '/idps', {
      code: 'vault',
      name: 'Vault SSO',
      type: 'OIDC',
      config: { issuer: vault.issuer, clientId: vault.clientId, clientSecret: vault.clientSecret },
    });
    await api.createUser(carol);
    // Linked once with her password, then she turns her authenticator app on.
    const { page: first } = await openPage(browser);
    await first.goto(`${server.url}/login`);
    await first.getByRole('link', { name: 'Sign in with Vault SSO' }).click();
    await first.getByRole('button', { name: 'Link to my existing account' }).click();
    await first.getByLabel('Password', { exact: true }).fill(carol.password);
    await first.getByRole('button', { name: 'Link and sign in' }).click();
    await first.getByRole('heading', { name: 'Welcome back, Carol' }).waitFor();
    const { nextCode } = await turnOnAuthenticator(server.url, carol.username, carol.password);

    const { page, errors } = await openPage(browser, { expectedFailures: [/\/authc\/login\/step$/] });
    await page.goto(`${server.url}/login`);
    const answered = page.waitForResponse((response) => response.url().includes('/after/user/complement'));
    await page.getByRole('link', { name: 'Sign in with Vault SSO' }).click();
    const { data } = (await (await answered).json()) as { data: { stepTicket?: string } };
    await page.getByText('Enter the 6-digit code from your authenticator app, or one of your recovery codes.').waitFor();
    assert.equal(new URL(page.url()).pathname, '/infoComplete', 'not signed in before the code');
    assert.ok(data.stepTicket && !page.url().includes(data.stepTicket), 'the step ticket is in the answer, never in the address');
    await page.getByLabel('Verification code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').getByText('Invalid verification code').waitFor();
    assert.deepEqual(await seriousViolations(page, 'the code step on /infoComplete'), []);
    await page.getByLabel('Verification code').fill(await nextCode());
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Welcome back, Carol' }).waitFor();
    assert.deepEqual(errors, []);
  } finally {
    await vault.stop();
  }
});

test('signed in already: the page names who is signed in and switches accounts only when asked', async () => {
  const { page, errors } = await openPage(browser);
  await signInAsBob(page);

  // The Corp SSO person (alice, linked by the first test) signs in at the provider in this browser.
  await page.goto(`${server.url}/api/interaction/idp/corp/authorize`);
  await page.getByText('You are signed in as bob. Going on switches this browser to the account of this sign-in.').waitFor();
  await page.getByRole('button', { name: 'Stay signed in as bob' }).click();
  await page.getByRole('heading', { name: 'Welcome back, Bob' }).waitFor();

  await page.goto(`${server.url}/api/interaction/idp/corp/authorize`);
  await page.getByRole('button', { name: 'Continue as alice@corp.example' }).click();
  await page.getByRole('heading', { name: 'Welcome back, alice' }).waitFor();
  assert.deepEqual(errors, []);
});

test("a sign-in link made in someone else's browser is refused: the victim stays signed in as themselves", async () => {
  // The attacker stops his own sign-in at /infoComplete (following the redirects without a page).
  const attacker = await browser.newContext();
  const trip = await attacker.request.get(`${server.url}/api/interaction/idp/corp/authorize`);
  const link = trip.url();
  await attacker.close();
  assert.match(link, /\/infoComplete\?.*access_ticket=/);

  const { page, errors } = await openPage(browser, { expectedFailures: [/\/user\/access\/info\//] });
  await signInAsBob(page);
  await page.goto(link);
  await page.getByText('This sign-in was started in another browser; start again.').waitFor();
  await page.goto(`${server.url}/`);
  await page.getByRole('heading', { name: 'Welcome back, Bob' }).waitFor();
  assert.deepEqual(errors, []);
});
