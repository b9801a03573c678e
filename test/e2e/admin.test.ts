// The administrator's day, as a person does it in Chromium against the real server: sign in by
// labels, open every route from the menu, the 404 and 403 pages, both dialogs (profile with
// an avatar upload and a new email and phone confirmed by the codes sent to them; own password),
// Chinese and the light theme, and sign out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, ApiClient, openPage, type WatchedPage, startServerAndBrowser } from './harness';
import { tinyPng } from './images';
import { startHttpReceiver, startSmtp, until } from '../server/receivers';

const SMTP = { user: 'relay-user', password: 'relay-secret-77' };
// Its SMS channel posts to a receiver on this machine: the operator allows private addresses.
const { server, browser } = await startServerAndBrowser({ IAM_OUTBOUND_ALLOW_PRIVATE: '1' });
const smtp = await startSmtp(SMTP.user, SMTP.password);
const sms = await startHttpReceiver({ robotToken: 'e2e-robot-token', dingTalkSecret: 'SEC-e2e' });
let watched: WatchedPage;
let page: Page;
let password: string = ADMIN.password;
/** An app, for the hidden detail routes (/app/detail/:id, /menu/detail/:id take an app id). */
let appId: string;

test.after(async () => {
  await Promise.all([smtp.stop(), sms.stop()]);
});

const mainMenu = () => page.getByRole('navigation', { name: 'Main menu' });
const pathname = () => new URL(page.url()).pathname;
/** Waits for the document title: the console sets it in an effect, after the screen has drawn. */
const titled = (title: string) => page.waitForFunction((wanted) => document.title === wanted, title);

async function signIn(secret: string): Promise<void> {
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: /^Welcome back, / }).waitFor();
}

async function openUserMenu(): Promise<void> {
  await page.getByRole('button', { name: /^Account menu of / }).click();
  await page.getByRole('menu').waitFor();
}

// The steps build on each other (one person's page, the data made before): they are subtests of
// one test, run in order by definition.
test("the administrator's console, step by step", async (t) => {
  const admin = new ApiClient(server.url);
  await admin.signIn(ADMIN.username, ADMIN.password);
  appId = (await admin.call<{ id: string }>('POST', '/apps', { name: 'Ledger', entrypoint: 'https://ledger.example.com/' })).id;
  await admin.call('POST', '/channels', {
    name: 'Mail relay',
    serviceType: 'EMAIL',
    vendor: 'smtp',
    config: { host: '127.0.0.1', port: String(smtp.port), security: 'none', username: SMTP.user, password: SMTP.password, from: 'iam@example.com' },
  });
  await admin.call('POST', '/channels', {
    name: 'SMS vendor',
    serviceType: 'SMS',
    vendor: 'acme-sms',
    config: { url: `${sms.base}/sms`, templateId: 'TPL_001', signName: 'ACME', accessKeyId: 'key-1', accessSecret: 'sms-secret' },
  });
  // A password policy on top: an uppercase letter (checked by the dialogs before hashing).
  const { value, version } = await admin.call<{ value: { passwordPolicy: Record<string, unknown> }; version: number }>('GET', '/settings/login');
  await admin.call('PUT', '/settings/login', { passwordPolicy: { ...value.passwordPolicy, requireUppercase: true }, version });
  // The wrong old password and the wrong contact code below are answered 400 on purpose.
  watched = await openPage(browser, {
    expectedFailures: [/\/api\/user\/[^/]+\/password$/, /\/api\/user\/profile\/contact\/confirm$/, /\/api\/user\/profile$/],
  });
  page = watched.page;

  await t.test('signs in and lands on the page it was sent away from', async () => {
    await page.goto(`${server.url}/profile/userInfo`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    assert.equal(new URL(page.url()).searchParams.get('redirect'), '/profile/userInfo');
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Personal center', level: 1 }).waitFor();
    assert.equal(pathname(), '/profile/userInfo');
    await titled('Personal center – IAM Console');
  });

  await t.test('reaches every screen from the menu, with titles and breadcrumbs', async () => {
    await mainMenu().getByRole('link', { name: 'Home' }).click();
    await page.getByRole('heading', { name: /^Welcome back, / }).waitFor();

    const sections: [string, [string, string][]][] = [
      [
        'Operations',
        [
          ['Apps', '/operate/app'],
          ['Users', '/operate/user'],
          ['Tenants', '/operate/tenant/list'],
          ['Login settings', '/operate/setting'],
          ['Channels', '/operate/tunnel'],
          ['Menu plans', '/operate/menu'],
        ],
      ],
      [
        'Personal',
        [
          ['Messages', '/profile/message'],
          ['Message history', '/profile/messageHis'],
          ['Personal center', '/profile/userInfo'],
        ],
      ],
    ];
    for (const [parent, children] of sections) {
      const toggle = mainMenu().getByRole('button', { name: parent });
      if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
      for (const [name, path] of children) {
        const link = mainMenu().getByRole('link', { name, exact: true });
        await link.click();
        await page.waitForURL((url) => url.pathname === path);
        await page.getByRole('heading', { name, level: 1 }).waitFor();
        await titled(`${name} – IAM Console`);
        assert.equal(await link.getAttribute('aria-current'), 'page');
        const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
        assert.equal((await crumbs.innerText()).replace(/\s+/g, ' ').trim(), `${parent} ${name}`);
      }
    }

    // Unique-open: opening one parent closes the other.
    await mainMenu().getByRole('button', { name: 'Operations' }).click();
    assert.equal(await mainMenu().getByRole('button', { name: 'Personal' }).getAttribute('aria-expanded'), 'false');

    // The breadcrumb's back button returns to the previous page.
    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL((url) => url.pathname === '/profile/messageHis');

    // Hidden routes open by address (their lists link to them), titled from the route table, under
    // their list in the breadcrumb.
    for (const [path, name, list] of [
      [`/app/detail/${appId}`, 'App details', 'Apps'],
      [`/menu/detail/${appId}`, 'Menu plan details', 'Menu plans'],
    ] as const) {
      await page.goto(`${server.url}${path}`);
      await titled(`${name} – IAM Console`);
      const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
      await crumbs.getByText(name, { exact: true }).waitFor();
      assert.equal((await crumbs.innerText()).replace(/\s+/g, ' ').trim(), `Operations ${list} ${name}`);
    }
    // A parent route opens its first permitted child.
    await page.goto(`${server.url}/operate`);
    await page.waitForURL((url) => url.pathname === '/operate/app');
  });

  await t.test('shows the 404 page for an unknown path and the 403 texts', async () => {
    await page.goto(`${server.url}/no/such/page`);
    await page.getByRole('heading', { name: 'Error: Page Not Found!' }).waitFor();
    // The console replaces the unknown address with /404 in an effect.
    await page.waitForURL((url) => url.pathname === '/404');
    await page.getByRole('link', { name: 'Back to home' }).click();
    await page.getByRole('heading', { name: /^Welcome back, / }).waitFor();

    await page.goto(`${server.url}/403?redirect=%2Foperate%2Fuser`);
    await page.getByRole('heading', { name: 'You do not have permissions to access this page' }).waitFor();
    await page.getByText('Please contact your administrator').waitFor();
    await page.getByRole('link', { name: 'Try again' }).click();
    await page.waitForURL((url) => url.pathname === '/operate/user');
  });

  await t.test('edits the profile in its dialog, with an avatar upload', async () => {
    await openUserMenu();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit personal information' });
    await dialog.waitFor();
    const username = dialog.getByLabel('Username');
    await dialog.getByLabel('Real name').waitFor();
    // The form opens at once and is filled when the person's details arrive.
    await page.waitForFunction((input) => (input as HTMLInputElement | null)?.value !== '', await username.elementHandle());
    assert.equal(await username.inputValue(), ADMIN.username);
    assert.equal(await username.getAttribute('readonly'), '');

    // messages under the fields.
    await dialog.getByLabel('Real name').fill('x');
    await dialog.getByLabel('Mobile phone').fill('123');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Use 2-20 letters, digits, underscores, hyphens or Chinese characters').waitFor();
    await dialog.getByText('Please enter a valid mobile phone number').waitFor();

    await dialog.getByLabel('Real name').fill('Ada-Admin');
    await dialog.getByLabel('Mobile phone').fill('13800138000');
    await dialog.getByLabel('Email').fill('ada@example.com');
    await dialog.getByLabel('Avatar').setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: tinyPng() });
    await dialog.getByRole('img', { name: 'Avatar preview' }).waitFor();
    // A new phone or email (where a password reset goes) takes the current password: a wrong one is refused at its field.
    const current = dialog.getByLabel('Current password', { exact: true });
    await dialog.getByText('Changing your phone or email takes your current password.').waitFor();
    await current.fill('Wrong-password-1');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('The password is wrong').waitFor();
    await current.fill(ADMIN.password);
    await dialog.getByRole('button', { name: 'Save' }).click();

    // The new email and phone wait for the codes sent to them; a wrong code is refused.
    await dialog.getByText('A code was sent to ada@example.com. The new address applies once you enter it here.').waitFor();
    await dialog.getByText('A code was sent to 13800138000. The new address applies once you enter it here.').waitFor();
    const mail = await until(() => smtp.mails.find((entry) => entry.to.includes('ada@example.com')), 'the code mailed to the new address');
    const texted = await until(
      () => sms.calls.find((call) => call.path === '/sms' && (call.body as { phone?: string }).phone === '13800138000'),
      'the code texted to the new phone',
    );
    const mailed = /\b(\d{6})\b/.exec(mail.raw)![1]!;
    await dialog.getByLabel('Code sent to ada@example.com', { exact: true }).fill(mailed === '000000' ? '111111' : '000000');
    await dialog.getByRole('button', { name: 'Confirm the code sent to ada@example.com' }).click();
    await dialog.getByText('Please enter the verification code (4-8 digits)').waitFor();
    await dialog.getByLabel('Code sent to ada@example.com', { exact: true }).fill(mailed);
    await dialog.getByRole('button', { name: 'Confirm the code sent to ada@example.com' }).click();
    await dialog.getByLabel('Code sent to ada@example.com', { exact: true }).waitFor({ state: 'detached' });
    await dialog.getByLabel('Code sent to 13800138000', { exact: true }).fill(/\b(\d{6})\b/.exec(JSON.stringify(texted.body))![1]!);
    await dialog.getByLabel('Code sent to 13800138000', { exact: true }).press('Enter');
    await page.getByText('Personal information saved').waitFor();
    await dialog.waitFor({ state: 'detached' });

    // The session was reloaded: the top bar shows the new name and the avatar.
    const trigger = page.getByRole('button', { name: 'Account menu of Ada-Admin' });
    await trigger.waitFor();
    assert.match((await trigger.locator('img').getAttribute('src')) ?? '', /^\/api\/file\/get\//);

    // Esc closes a dialog; the dialog loaded the saved values.
    await openUserMenu();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await dialog.waitFor();
    // The form fills once the saved values arrive: wait for them, then hold them to the saved ones.
    const email = dialog.getByLabel('Email');
    await email.waitFor();
    await page.waitForFunction((field) => (field as HTMLInputElement).value !== '', await email.elementHandle(), { timeout: 10_000 }).catch(() => undefined);
    assert.equal(await email.inputValue(), 'ada@example.com');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  await t.test('switches to Chinese and to the light theme, and keeps both', async () => {
    const host = page.locator('iam-console');
    const background = () => page.evaluate(() => getComputedStyle(document.querySelector('iam-console')!.shadowRoot!.querySelector('header')!).backgroundColor);
    const dark = await background();
    await page.getByRole('button', { name: 'Switch to the light theme' }).click();
    assert.equal(await host.getAttribute('theme'), 'light');
    assert.notEqual(await background(), dark);

    await page.getByRole('button', { name: '中文' }).click();
    await page.getByRole('navigation', { name: '主菜单' }).getByRole('link', { name: '门户首页' }).waitFor();
    await page.getByRole('button', { name: 'English' }).waitFor();

    await page.reload();
    await page.getByRole('navigation', { name: '主菜单' }).getByRole('link', { name: '门户首页' }).waitFor();
    assert.equal(await host.getAttribute('theme'), 'light');

    // The profile dialog's title in Chinese.
    await page.getByRole('button', { name: 'Ada-Admin 的账号菜单' }).click();
    await page.getByRole('menuitem', { name: '个人信息' }).click();
    await page.getByRole('dialog', { name: '编辑个人信息' }).waitFor();
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('button', { name: 'Switch to the dark theme' }).click();
    await mainMenu().getByRole('link', { name: 'Home' }).waitFor();
    assert.equal(await host.getAttribute('theme'), 'dark');
  });

  await t.test('changes its own password in the dialog, is signed out, and signs in with the new one', async () => {
    await openUserMenu();
    await page.getByRole('menuitem', { name: 'Reset password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset password' });
    await dialog.waitFor();

    const newPassword = 'Changed-e2e-7';
    await dialog.getByLabel('Old password', { exact: true }).fill(password);
    await dialog.getByLabel('New password', { exact: true }).fill('short');
    await dialog.getByRole('button', { name: 'OK' }).click();
    // messages under the fields (the policy text is also the field's hint).
    await dialog.getByText('The password must be 6-20 characters with at least one digit and one non-digit').nth(1).waitFor();
    await dialog.getByText('Please enter the password again').waitFor();

    // The login settings' policy (an uppercase letter) applies after the validation rules
    await dialog.getByLabel('New password', { exact: true }).fill('lower-case-1');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await dialog.getByText('The password must contain an uppercase letter').waitFor();

    // A wrong old password is refused by the server, under its field.
    await dialog.getByLabel('Old password', { exact: true }).fill('Not-my-password-1');
    await dialog.getByLabel('New password', { exact: true }).fill(newPassword);
    await dialog.getByLabel('Confirm the new password', { exact: true }).fill(newPassword);
    await dialog.getByRole('button', { name: 'OK' }).click();
    await dialog.getByText('The password is wrong').waitFor();
    await dialog.getByLabel('Old password', { exact: true }).fill(password);

    await dialog.getByLabel('New password', { exact: true }).fill(newPassword);
    await dialog.getByLabel('Confirm the new password', { exact: true }).fill('Other-pass-1');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await dialog.getByText('The two passwords do not match').waitFor();

    await dialog.getByRole('button', { name: 'Show New password' }).click();
    assert.equal(await dialog.getByLabel('New password', { exact: true }).getAttribute('type'), 'text');
    await dialog.getByLabel('Confirm the new password', { exact: true }).fill(newPassword);
    await dialog.getByRole('button', { name: 'OK' }).click();

    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    assert.equal(pathname(), '/login');
    password = newPassword;
    await signIn(password);
  });

  await t.test('signs out after confirming', async () => {
    await openUserMenu();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign out' });
    await dialog.getByText('Sign out of the console? You will need to sign in again to continue.').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(pathname(), '/home/index');

    await openUserMenu();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await dialog.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    assert.equal(pathname(), '/login');

    // Signed out for real: a console page sends the person back to sign in.
    await page.goto(`${server.url}/home/index`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    assert.deepEqual(watched.errors, []);
  });
});
