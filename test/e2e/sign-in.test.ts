// The first thing a person does: open the console page, sign in as the administrator by the
// form's labels, and land on the portal home with its menu.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { ADMIN, launchBrowser, openPage, startServer, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('the administrator signs in by labels and sees the home page', async () => {
  const { page, errors } = await openPage(browser);
  await page.goto(`${server.url}/`);

  // Not signed in: the guard sends the person to the sign-in page, remembering where they were.
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  assert.match(new URL(page.url()).pathname, /^\/login$/);
  assert.equal(await page.title(), 'Sign in – IAM Console');

  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();

  await page.getByRole('heading', { name: `Welcome back, ${ADMIN.username}` }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/home/index');
  assert.equal(await page.title(), 'Home – IAM Console');
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await menu.getByRole('link', { name: 'Home' }).waitFor();
  assert.equal(await menu.getByRole('link', { name: 'Home' }).getAttribute('aria-current'), 'page');
  // The administrator's areas are on the home page.
  for (const area of ['Apps', 'Users', 'Tenants', 'Login settings', 'Channels', 'Menu plans']) {
    await page.getByRole('region', { name: 'Administration' }).getByRole('link', { name: new RegExp(`^${area}`) }).waitFor();
  }
  assert.deepEqual(errors, []);
});
