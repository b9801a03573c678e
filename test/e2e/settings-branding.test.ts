// Branding (operate/setting, Branding tab): a new app name shows at once in the document title and
// the logo block, without a reload; an uploaded favicon becomes the tab's icon; a new visitor's
// sign-in page shows the name and the slogan.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, openPage, startServerAndBrowser } from './harness';
import { signIn } from './admin-support';

const { server, browser } = await startServerAndBrowser();

const favicon = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#3ccf8a"/></svg>',
);

test('the app name, favicon and sign-in slogan apply at once', async () => {
  const { page, errors } = await openPage(browser);
  await signIn(page, server.url, ADMIN.username, ADMIN.password, '/operate/setting');
  await page.getByRole('tab', { name: 'Branding' }).click();
  await page.getByLabel('Application name').waitFor();
  assert.equal(await page.title(), 'Login settings – IAM Console');
  const header = page.locator('header');
  await header.getByText('IAM Console', { exact: true }).waitFor();

  await page.getByLabel('Application name').fill('ACME Identity');
  await page.getByLabel('Sign-in page slogan').fill('Welcome to ACME');
  await page.getByLabel('Browser tab icon (favicon)', { exact: true }).setInputFiles({ name: 'favicon.svg', mimeType: 'image/svg+xml', buffer: favicon });
  await page.getByRole('img', { name: 'Browser tab icon (favicon) preview' }).waitFor();
  const navigations: string[] = [];
  page.on('framenavigated', (frame) => navigations.push(frame.url()));
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Settings saved').waitFor();

  await header.getByText('ACME Identity', { exact: true }).waitFor();
  await page.waitForFunction(() => document.title === 'Login settings – ACME Identity');
  const icon = await page.locator('link[rel~="icon"]').getAttribute('href');
  assert.match(icon ?? '', /^\/api\/file\/get\/.+\.svg$/);
  assert.deepEqual(navigations, [], 'applied without a reload');

  const visitor = await openPage(browser);
  await visitor.page.goto(`${server.url}/login`);
  await visitor.page.getByText('Welcome to ACME').waitFor();
  await visitor.page.getByText('ACME Identity', { exact: true }).first().waitFor();
  // The console sets the document title in an effect, after the screen has drawn.
  await visitor.page.waitForFunction(() => document.title === 'Sign in – ACME Identity');
  await visitor.context.close();
  assert.deepEqual(errors, []);
});
