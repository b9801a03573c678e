// The password policy and the TOTP second auth on the sign-in page and in the settings screen.
// Expiry needs time to pass, so this file runs the server in process (the same server code and
// bundle, on a real SQLite database) with a clock the test moves forward: an expired password
// signs in only into the forced change, whose new password must not be a recent one. Saving TOTP
// as the second auth in the settings screen is refused under the field until the administrator
// has an authenticator of their own; then the administrator signs in with the app's code.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { TOTP, URI } from 'otpauth';
import { launchBrowser, openPage } from './harness';
import { ADMIN, startServer, transform, type Client, type TestServer } from '../server/harness';
import type { LoginSettings } from '../../src/core/schemas/settings';

const PERSON = { username: 'aging-person', realName: 'Aging_Person', password: 'Spring-2024' };
const DAY = 24 * 60 * 60_000;
/** The administrator's password after the forced change. */
const ADMIN_PASSWORD = 'Renewed-2024';

let server: TestServer;
let browser: Browser;
let admin: Client;

before(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  admin = await server.admin();
  const created = await admin.post('/api/user', { username: PERSON.username, realName: PERSON.realName, password: transform(PERSON.password) });
  assert.equal(created.status, 200, JSON.stringify(created.body));
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

async function changeSettings(changes: Partial<LoginSettings>): Promise<void> {
  const current = await admin.get<{ version: number }>('/api/settings/login');
  const saved = await admin.put('/api/settings/login', { ...changes, version: current.body.data.version });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
}

async function signInByForm(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('an expired password signs in only into the change, which refuses a recent password', async () => {
  const current = await admin.get<{ value: LoginSettings }>('/api/settings/login');
  await changeSettings({ passwordPolicy: { ...current.body.data.value.passwordPolicy, history: 2, expiryDays: 30 } });
  server.clock.advance(31 * DAY);
  // The administrator's password is as old: their next session comes through the change too.
  admin = server.client();
  const expired = await admin.login(ADMIN.username, ADMIN.password);
  assert.equal(expired.body.data.nextStep, 'PASSWORD_EXPIRED');
  const renewed = await admin.put<{ loginSuccess: boolean }>('/api/authc/password/expired', {
    stepTicket: (expired.body.data as { stepTicket?: string }).stepTicket,
    username: ADMIN.username,
    password: transform(ADMIN.password),
    newPassword: transform(ADMIN_PASSWORD),
  });
  assert.equal(renewed.body.data.loginSuccess, true, JSON.stringify(renewed.body));

  const { page, errors } = await openPage(browser, { expectedFailures: [/\/api\/authc\/password\/expired$/] });
  await page.goto(`${server.base}/login`);
  await signInByForm(page, PERSON.username, PERSON.password);
  await page.getByRole('heading', { name: 'Your password has expired' }).waitFor();
  await page.getByText(`Choose a new password for ${PERSON.username} to continue.`).waitFor();

  await page.getByLabel('New password', { exact: true }).fill(PERSON.password);
  await page.getByLabel('Confirm new password').fill(PERSON.password);
  await page.getByRole('button', { name: 'Change password and sign in' }).click();
  await page.getByText('This password was used recently: the last 2 passwords cannot be used again').waitFor();

  await page.getByLabel('New password', { exact: true }).fill('Summer-2024');
  await page.getByLabel('Confirm new password').fill('Summer-2024');
  await page.getByRole('button', { name: 'Change password and sign in' }).click();
  await page.getByRole('heading', { name: `Welcome back, ${PERSON.realName}` }).waitFor();
  assert.deepEqual(errors, []);
  await page.context().close();

  // The new password is fresh: the next sign-in goes straight in.
  const next = await openPage(browser);
  await next.page.goto(`${server.base}/login`);
  await signInByForm(next.page, PERSON.username, 'Summer-2024');
  await next.page.getByRole('heading', { name: `Welcome back, ${PERSON.realName}` }).waitFor();
  await next.page.context().close();
  // Passwords never expire again here.
  await changeSettings({ passwordPolicy: { ...current.body.data.value.passwordPolicy, history: 2, expiryDays: 0 } });
});

test('TOTP as the second auth: refused under the field until the administrator has an authenticator', async () => {
  const { page } = await openPage(browser, { expectedFailures: [/\/api\/settings\/login$/] });
  await page.goto(`${server.base}/operate/setting`);
  await signInByForm(page, ADMIN.username, ADMIN_PASSWORD);
  const secondAuth = page.getByLabel('Second authentication');
  await secondAuth.waitFor();
  const labels = await secondAuth.locator('option').allTextContents();
  assert.deepEqual(labels, [
    'Password only',
    'Password, then a code by SMS',
    'Password, then an authenticator app (SMS code for people without one)',
    'Password, then a passkey (authenticator app or SMS code for people without one)',
  ]);

  await secondAuth.selectOption({ label: 'Password, then an authenticator app (SMS code for people without one)' });
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Set up an authenticator app for yourself first (personal center), so that you can still sign in').waitFor();

  // With an authenticator of their own, the same save goes through.
  const enrolment = await admin.post<{ uri: string }>('/api/user/totp', { password: transform(ADMIN_PASSWORD) });
  const app = URI.parse(enrolment.body.data.uri) as TOTP;
  assert.equal((await admin.post('/api/user/totp/confirm', { code: app.generate({ timestamp: server.clock.now() }) })).status, 200);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Settings saved').waitFor();
  const saved = await admin.get<{ value: LoginSettings }>('/api/settings/login');
  assert.equal(saved.body.data.value.secondAuth, 'TOTP');
  await page.context().close();

  // The administrator now signs in with the app's code (a later time step than the confirmation's).
  server.clock.advance(30_000);
  const next = await openPage(browser);
  await next.page.goto(`${server.base}/login`);
  await signInByForm(next.page, ADMIN.username, ADMIN_PASSWORD);
  await next.page.getByText('Enter the 6-digit code from your authenticator app, or one of your recovery codes.').waitFor();
  await next.page.getByLabel('Verification code').fill(app.generate({ timestamp: server.clock.now() }));
  await next.page.getByRole('button', { name: 'Verify' }).click();
  await next.page.getByRole('heading', { name: /^Welcome back/ }).waitFor();
  assert.deepEqual(next.errors, []);
  await next.page.context().close();
  await changeSettings({ secondAuth: null });
});
