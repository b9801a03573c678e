// Login management (operate/setting) as an administrator would use it: a saved captcha setting is
// followed by the sign-in page of a new visitor at once; a save that lost a race (409) says so,
// keeps what was typed, and saves after loading the latest version; the screen in Chinese.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, openPage, startServerAndBrowser } from './harness';
import { signIn } from './admin-support';

const { server, browser } = await startServerAndBrowser();

/** Opens the screen signed in through the API (sign-in-flows types into the form on its way there). */
async function openSettings(page: Page): Promise<void> {
  await signIn(page, server.url, ADMIN.username, ADMIN.password, '/operate/setting');
  await page.getByRole('heading', { name: 'Login settings' }).waitFor();
  await page.getByRole('tab', { name: 'Login management', selected: true }).waitFor();
  await page.getByLabel('Failed sign-ins before lockout').waitFor();
}

test('a saved captcha setting: the next visitor of the sign-in page must solve a captcha', async () => {
  const { page, errors } = await openPage(browser);
  await openSettings(page);
  assert.equal(await page.getByLabel('Always ask for a captcha').isChecked(), false);
  await page.getByLabel('Always ask for a captcha').check();
  await page.getByLabel('Captcha length').fill('6');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Settings saved').waitFor();

  const visitor = await openPage(browser, { expectedFailures: [/\/api\/authc\/login$/] });
  await visitor.page.goto(`${server.url}/login`);
  await visitor.page.getByLabel('Username').fill(ADMIN.username);
  await visitor.page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await visitor.page.getByRole('button', { name: 'Sign in' }).click();
  await visitor.page.getByRole('img', { name: 'Captcha image' }).waitFor();
  await visitor.page.getByLabel('Captcha', { exact: true }).waitFor();
  assert.equal(new URL(visitor.page.url()).pathname, '/login', 'not signed in without the captcha');
  await visitor.context.close();

  // The setting is shown as saved after a reload.
  await page.reload();
  await page.getByLabel('Captcha length').waitFor();
  assert.equal(await page.getByLabel('Captcha length').inputValue(), '6');
  await page.getByLabel('Always ask for a captcha').uncheck();
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Settings saved').waitFor();
  assert.deepEqual(errors, []);
  await page.context().close();
});

/** Waits (at most 10 s) until the field labelled `label` shows `value`; fails with what it shows. */
async function untilValue(page: Page, label: string, value: string): Promise<void> {
  const field = page.getByLabel(label);
  const deadline = Date.now() + 10_000;
  while ((await field.inputValue()) !== value) {
    if (Date.now() > deadline) assert.equal(await field.inputValue(), value, `${label} shows the other save`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('a save that lost a race keeps what was typed and saves after loading the latest version', async () => {
  const first = await openPage(browser);
  const second = await openPage(browser, { expectedFailures: [/\/api\/settings\/login$/] });
  await openSettings(first.page);
  await openSettings(second.page);

  await first.page.getByLabel('Lockout duration (minutes)').fill('45');
  await first.page.getByRole('button', { name: 'Save' }).click();
  await first.page.getByText('Settings saved').waitFor();

  await second.page.getByLabel('Failed sign-ins before lockout').fill('9');
  await second.page.getByRole('button', { name: 'Save' }).click();
  await second.page.getByRole('alert').filter({ hasText: 'Someone else saved these settings' }).waitFor();
  assert.equal(await second.page.getByLabel('Failed sign-ins before lockout').inputValue(), '9', 'nothing typed is lost');

  await second.page.getByRole('button', { name: 'Load the latest version' }).click();
  // The latest version arrives after the click: wait for it, then check what was typed is kept.
  await untilValue(second.page, 'Lockout duration (minutes)', '45');
  assert.equal(await second.page.getByLabel('Failed sign-ins before lockout').inputValue(), '9', 'still the typed value');
  await second.page.getByRole('button', { name: 'Save' }).click();
  await second.page.getByText('Settings saved').waitFor();

  await first.page.reload();
  await first.page.getByLabel('Failed sign-ins before lockout').waitFor();
  assert.equal(await first.page.getByLabel('Failed sign-ins before lockout').inputValue(), '9');
  assert.equal(await first.page.getByLabel('Lockout duration (minutes)').inputValue(), '45');
  assert.deepEqual([...first.errors, ...second.errors], []);
  await first.context.close();
  await second.context.close();
});

test('the screen in Chinese: tabs, fields and validation messages', async () => {
  const { page, errors } = await openPage(browser);
  await openSettings(page);
  await page.getByRole('button', { name: '中文' }).click();
  await page.getByRole('tab', { name: '登录管理', selected: true }).waitFor();
  await page.getByRole('tab', { name: '品牌设置' }).waitFor();
  await page.getByLabel('锁定前允许的登录失败次数').fill('0');
  await page.getByRole('button', { name: '保存' }).click();
  await page.getByText('请输入1~100之间的整数').waitFor();
  await page.getByRole('tab', { name: '许可证' }).click();
  await page.getByRole('heading', { name: '申请码' }).waitFor();
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('the sign-in method names the first field of the sign-in page (email, then back to username)', async () => {
  const { page, errors } = await openPage(browser);
  await openSettings(page);
  await page.getByLabel('Users sign in with').selectOption({ label: 'Email and password' });
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Settings saved').waitFor();

  const visitor = await openPage(browser);
  await visitor.page.goto(`${server.url}/login`);
  await visitor.page.getByLabel('Email', { exact: true }).waitFor();
  assert.equal(await visitor.page.getByLabel('Username').count(), 0, 'no Username field with the email method');
  assert.equal(await visitor.page.getByLabel('Email', { exact: true }).getAttribute('placeholder'), 'Enter your email address');
  await visitor.context.close();

  await page.getByLabel('Users sign in with').selectOption({ label: 'Username and password' });
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Settings saved').last().waitFor();
  const next = await openPage(browser);
  await next.page.goto(`${server.url}/login`);
  await next.page.getByLabel('Username').waitFor();
  await next.context.close();
  assert.deepEqual(errors, []);
  await page.context().close();
});
