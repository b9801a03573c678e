// The first thing a person does: open the console page, sign in as the administrator by the
// form's labels, and land on the portal home with its menu.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { transformPassword } from '../../src/core/password';
import { ADMIN, ApiClient, openPage, startServerAndBrowser } from './harness';
import { tinyPng } from './images';

const { server, browser } = await startServerAndBrowser();

test('the administrator signs in by labels and sees the home page', async () => {
  const { page, errors } = await openPage(browser);
  await page.goto(`${server.url}/`);

  // Not signed in: the guard sends the person to the sign-in page, remembering where they were.
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  assert.match(new URL(page.url()).pathname, /^\/login$/);
  // The console sets the document title in an effect, after the screen has drawn.
  await page.waitForFunction(() => document.title === 'Sign in – IAM Console');

  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();

  await page.getByRole('heading', { name: `Welcome back, ${ADMIN.username}` }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/home/index');
  await page.waitForFunction(() => document.title === 'Home – IAM Console');
  // The badge names the person's role, not a kind of tenant.
  await page.getByText('Platform administrator', { exact: true }).waitFor();
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await menu.getByRole('link', { name: 'Home' }).waitFor();
  assert.equal(await menu.getByRole('link', { name: 'Home' }).getAttribute('aria-current'), 'page');
  // The administrator's areas are on the home page.
  for (const area of ['Apps', 'Users', 'Tenants', 'Login settings', 'Channels', 'Menu plans']) {
    await page
      .getByRole('region', { name: 'Administration' })
      .getByRole('link', { name: new RegExp(`^${area}`) })
      .waitFor();
  }
  assert.deepEqual(errors, []);
});

test('/onlySignIn prompts, /auth-redirect finishes a sign-in made elsewhere (or goes to sign in)', async () => {
  const { page, errors } = await openPage(browser);
  await page.goto(`${server.url}/onlySignIn?redirect=%2Fprofile%2FuserInfo`);
  await page.getByRole('heading', { name: 'Please sign in' }).waitFor();
  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('redirect') === '/profile/userInfo');

  // Not signed in: /auth-redirect sends the person to the sign-in page the server names.
  await page.goto(`${server.url}/auth-redirect?redirect=%2Fprofile%2FuserInfo`);
  await page.waitForURL((url) => url.pathname === '/login');

  // Signed in elsewhere (here: through the API with this browser's cookies), /auth-redirect
  // reads the session and goes on to the permitted redirect.
  const answer = await page.request.post(`${server.url}/api/authc/login`, {
    headers: { origin: server.url },
    data: { username: ADMIN.username, password: await transformPassword(ADMIN.password) },
  });
  assert.equal(answer.ok(), true);
  await page.goto(`${server.url}/auth-redirect?redirect=%2Fprofile%2FuserInfo`);
  await page.getByRole('heading', { name: 'Personal center', level: 1 }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/profile/userInfo');
  assert.deepEqual(errors, []);
});

test('the sign-in page shows the background chosen in the login settings', async () => {
  const admin = new ApiClient(server.url);
  await admin.signIn(ADMIN.username, ADMIN.password);
  const setBackground = async (backgroundType: string, background: string) => {
    const { version } = await admin.call<{ version: number }>('GET', '/settings/login');
    await admin.call('PUT', '/settings/login', { backgroundType, background, version });
  };
  const { page, errors } = await openPage(browser);
  const loginPage = () => page.locator('iam-console').locator('[part="login-page"]');
  const pageStyle = (property: string) => loginPage().evaluate((element, name) => getComputedStyle(element).getPropertyValue(name), property);

  await setBackground('SolidColorBackground', '#224466');
  await page.goto(`${server.url}/login`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.waitForFunction(() =>
    document.querySelector('iam-console')?.shadowRoot?.querySelector('[part="login-page"]')?.getAttribute('style')?.includes('background'),
  );
  assert.equal(await pageStyle('background-color'), 'rgb(34, 68, 102)');

  // The picture is uploaded through the API as the administrator (the settings screen does it there).
  await setBackground('PictureBackground', await admin.upload('image', 'background.png', tinyPng(64), 'image/png'));
  await page.reload();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.waitForFunction(() =>
    document.querySelector('iam-console')?.shadowRoot?.querySelector('[part="login-page"]')?.getAttribute('style')?.includes('url('),
  );
  assert.match(await pageStyle('background-image'), /\/api\/file\/get\/[0-9a-f]+\.png/);

  await setBackground('CustomCss', 'background: linear-gradient(rgb(1, 2, 3), rgb(4, 5, 6))');
  await page.reload();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.waitForFunction(() => {
    const element = document.querySelector('iam-console')?.shadowRoot?.querySelector('[part="login-page"]');
    return element && getComputedStyle(element).backgroundImage.includes('linear-gradient');
  });
  assert.match(await pageStyle('background-image'), /linear-gradient\(rgb\(1, 2, 3\), rgb\(4, 5, 6\)\)/);
  await setBackground('InitialVersion', '');
  assert.deepEqual(errors, []);
});
