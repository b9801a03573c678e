// Account security as a person sees it, in Chromium: recovery codes generated in the personal
// center (shown once, downloaded as a text file), signing out, signing in with the password and a
// recovery code, "Sign out everywhere" (another session of the person ends too); then, in Chinese,
// the login setting "administrators must use a strong second factor" ticked on the settings screen
// and an app administrator led through setting up the authenticator app at sign-in. Axe-clean.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { ADMIN, ApiClient, openPage, startServerAndBrowser, submitSignIn } from './harness';
import { choose, seriousViolations, text } from './a11y-support';
import { authenticator, turnOnAuthenticator } from './totp-support';
import { signIn as signInAs } from './admin-support';

const PASSWORD = 'Member-acct-1';

const { server, browser } = await startServerAndBrowser();
const admin = new ApiClient(server.url);
await admin.signIn(ADMIN.username, ADMIN.password);

const signIn = (page: Page, username: string, labels?: { username: string; password: string; submit: string }) =>
  submitSignIn(page, server.url, username, PASSWORD, labels);

async function axeClean(page: Page, where: string): Promise<void> {
  assert.deepEqual(await seriousViolations(page, where), []);
}

test('recovery codes in the personal center, a sign-in with one, and signing out everywhere', async () => {
  await admin.createUser({ username: 'rita', realName: 'Rita_Recovery', password: PASSWORD });
  const { own, nextCode } = await turnOnAuthenticator(server.url, 'rita', PASSWORD);

  const { page, context, errors } = await openPage(browser, { expectedFailures: [/\/api\/user\/recovery-codes$/] });
  await signIn(page, 'rita');
  await page.getByLabel('Verification code').fill(await nextCode());
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('heading', { name: 'Welcome back, Rita_Recovery' }).waitFor();

  await page.getByRole('link', { name: 'Personal center' }).click();
  const card = page.getByRole('region', { name: 'Recovery codes' });
  await card.getByText('No recovery codes yet.').waitFor();
  await card.getByRole('button', { name: 'Generate codes' }).click();
  await card.getByLabel('Current password', { exact: true }).fill('Wrong-pass-9');
  await card.getByRole('button', { name: 'Generate', exact: true }).click();
  await card.getByText('The password is wrong').waitFor();
  await card.getByLabel('Current password', { exact: true }).fill(PASSWORD);
  await card.getByRole('button', { name: 'Generate', exact: true }).click();

  const list = card.getByRole('list', { name: 'Your recovery codes' });
  await list.waitFor();
  const codes = (await list.getByRole('listitem').allTextContents()).map((code) => code.trim());
  assert.equal(codes.length, 10);
  await card.getByText('These codes are shown only now. Keep them somewhere safe.').waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Download' }).click()]);
  assert.equal(download.suggestedFilename(), 'recovery-codes-rita.txt');
  const file = await readFile(await download.path(), 'utf8');
  for (const code of codes) assert.ok(file.includes(code), 'every code is in the file');
  await axeClean(page, 'recovery codes shown');
  await card.getByRole('button', { name: 'I have saved them' }).click();
  await card.getByText('Unused codes left: 10').waitFor();
  assert.equal(await card.getByRole('list', { name: 'Your recovery codes' }).count(), 0, 'shown once');

  // Sign out, then in with the password and a recovery code instead of the app's code.
  await page.getByRole('button', { name: 'Account menu of rita' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.getByRole('dialog', { name: 'Sign out' }).getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await signIn(page, 'rita');
  await page.getByText('Enter the 6-digit code from your authenticator app, or one of your recovery codes.').waitFor();
  await page.getByLabel('Verification code').fill(codes[3]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('heading', { name: 'Welcome back, Rita_Recovery' }).waitFor();
  await page.getByRole('link', { name: 'Personal center' }).click();
  await card.getByText('Unused codes left: 9').waitFor();

  // Sign out everywhere, this device included: the other session (the API client) ends too.
  const sessions = page.getByRole('region', { name: 'Active sessions' });
  await sessions.getByRole('button', { name: 'Sign out everywhere' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign out everywhere?' });
  await dialog.getByText('Every console session and every app you signed in to with this account ends.').waitFor();
  await axeClean(page, 'sign out everywhere dialog');
  await dialog.getByLabel('Keep me signed in on this device').uncheck();
  await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await assert.rejects(own.call('GET', '/cas/session'), /401/, "the person's other session ended");
  await page.goto(`${server.url}/home/index`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('in Chinese: the administrator policy is ticked on the settings screen; an app administrator sets up the authenticator app at sign-in', async () => {
  const zh = (key: string, values?: Record<string, string>) => text('zh', key, values);
  const appAdminId = await admin.createUser({ username: 'alma', realName: 'Alma_Admin', password: PASSWORD });
  const app = await admin.call<{ id: string }>('POST', '/apps', { name: 'Strong_App' });
  await admin.call('PUT', `/apps/${app.id}/admins`, { userIds: [appAdminId] });
  const labels = { username: zh('login:identifier.USERNAME_PASSWORD'), password: zh('login:password'), submit: zh('login:submit') };

  const settings = await openPage(browser);
  await settings.context.addInitScript(choose, { locale: 'zh' as const, theme: 'dark' as const });
  // Signed in through the API: the form in Chinese is the next part's (alma's) subject.
  await signInAs(settings.page, server.url, ADMIN.username, ADMIN.password, '/operate/setting');
  const policy = settings.page.getByLabel(zh('settings:signIn.adminStrongFactor'));
  await policy.check();
  await settings.page.getByText(zh('settings:signIn.adminStrongFactorHint')).waitFor();
  await axeClean(settings.page, 'login settings (zh)');
  await settings.page.getByRole('button', { name: zh('console:action.save') }).click();
  await settings.page.getByText(zh('settings:done.settingsSaved')).waitFor();
  await settings.context.close();

  const { page, context, errors } = await openPage(browser);
  await context.addInitScript(choose, { locale: 'zh' as const, theme: 'light' as const });
  await signIn(page, 'alma', labels);
  const step = page.getByRole('region', { name: zh('account:totpSetup.title') });
  await step.getByText(zh('account:totpSetup.intro')).waitFor();
  await step.getByRole('img', { name: zh('account:totpSetup.qrCode') }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/login', 'no session before the app is set up');
  const secret = (
    (await step
      .getByRole('group', { name: zh('account:totpSetup.key') })
      .locator('code')
      .textContent()) ?? ''
  ).trim();
  assert.match(secret, /^[A-Z2-7]{32}$/);
  await axeClean(page, 'authenticator set-up at sign-in (zh)');
  const nextCode = authenticator(secret);
  await step.getByLabel(zh('account:totpSetup.code')).fill(await nextCode());
  await step.getByRole('button', { name: zh('account:totpSetup.submit') }).click();
  await page.getByRole('button', { name: zh('console:user.menu', { name: 'Alma_Admin' }) }).waitFor();
  await page.waitForURL((url) => url.pathname === '/home/index');
  assert.deepEqual(errors, []);
  await context.close();
  await admin.call('PUT', '/settings/login', { adminStrongFactor: false, version: (await admin.call<{ version: number }>('GET', '/settings/login')).version });
});
