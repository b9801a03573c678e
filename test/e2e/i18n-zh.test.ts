// The console in Chinese, through its lazily loaded namespaces: a visitor whose saved locale
// is zh signs in by the Chinese labels, the home page and the users screen speak Chinese, and each
// page fetched only the locale files it shows (the sign-in page no administration texts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, openPage, startServerAndBrowser } from './harness';

const { server, browser } = await startServerAndBrowser();

test('a visitor with the zh locale signs in and administers in Chinese; namespaces load when shown', async () => {
  const { page, context, errors } = await openPage(browser);
  await context.addInitScript(() => localStorage.setItem('iam-locale', 'zh'));
  const localeFiles: string[] = [];
  page.on('request', (request) => {
    const file = /chunks\/(locale-\w+-\w+)-/.exec(request.url())?.[1];
    if (file) localeFiles.push(file);
  });

  await page.goto(`${server.url}/`);
  await page.getByRole('heading', { name: '登录' }).waitFor();
  // The console sets the document title in an effect, after the screen has drawn.
  await page.waitForFunction((title) => document.title === title, '登录 – IAM Console');
  assert.ok(localeFiles.includes('locale-zh-common') && localeFiles.includes('locale-zh-login'), localeFiles.join(', '));
  assert.deepEqual(
    localeFiles.filter((file) => /admin|settings/.test(file)),
    [],
    'the sign-in page loads no administration texts',
  );

  await page.getByLabel('用户名').fill(ADMIN.username);
  await page.getByLabel('密码', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: '登录' }).click();
  await page.getByRole('heading', { name: `欢迎回来，${ADMIN.username}` }).waitFor();
  await page.getByRole('navigation', { name: '主菜单' }).getByRole('link', { name: '门户首页' }).waitFor();

  await page.goto(`${server.url}/operate/user`);
  await page.getByRole('heading', { name: '用户管理' }).waitFor();
  await page.getByRole('button', { name: '新建用户' }).waitFor();
  assert.ok(localeFiles.includes('locale-zh-admin'), 'the users screen loaded its own namespace');
  assert.deepEqual(errors, []);
});
