// The authenticator app (TOTP), as a person sees it: set up in the personal center (QR code and the
// key shown once, confirmed with a code the test computes from that key like a phone app would),
// then the sign-in form asks for a code, and the app is turned off again with a current code.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { ADMIN, ApiClient, openPage, startServerAndBrowser, type WatchedPage } from './harness';

const MEMBER = { username: 'otto', realName: 'Otto', password: 'Member-totp-1' };
const PERIOD_MS = 30_000;

const { server, browser } = await startServerAndBrowser();
let watched: WatchedPage;
let page: Page;
let secret = '';

before(async () => {
  const admin = new ApiClient(server.url);
  await admin.signIn(ADMIN.username, ADMIN.password);
  await admin.createUser(MEMBER);
  watched = await openPage(browser, { expectedFailures: [/\/api\/user\/totp\/confirm$/] });
  page = watched.page;
});

/** The server accepts a time step once: each code is for a later step than the one before, and at
 *  most one step ahead of now (the server's window), so wait for the clock when it must. */
let lastStep = 0;
async function nextCode(): Promise<string> {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: PERIOD_MS / 1000, secret: Secret.fromBase32(secret) });
  for (let attempt = 0; attempt < 40; attempt += 1) {
    const current = Math.floor(Date.now() / PERIOD_MS);
    const step = Math.max(lastStep + 1, current);
    if (step <= current + 1) {
      lastStep = step;
      return totp.generate({ timestamp: step * PERIOD_MS });
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error('no usable time step');
}

async function signIn(): Promise<void> {
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Username').fill(MEMBER.username);
  await page.getByLabel('Password', { exact: true }).fill(MEMBER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Every attribute of every element, through the console's shadow roots. */
function allAttributes(): Promise<string> {
  // No named functions inside: the test's compiler would wrap them in a helper the page lacks.
  return page.evaluate(() => {
    const values: string[] = [];
    const roots: (Document | ShadowRoot)[] = [document];
    for (let root = roots.pop(); root; root = roots.pop()) {
      for (const element of root.querySelectorAll('*')) {
        for (const attribute of element.attributes) values.push(attribute.value);
        if (element.shadowRoot) roots.push(element.shadowRoot);
      }
    }
    return values.join('\n');
  });
}

const card = () => page.getByRole('region', { name: 'Authenticator app' });

test('set up in the personal center: QR code, the key once, confirmed with a code', async () => {
  await signIn();
  await page.getByRole('heading', { name: 'Welcome back, Otto' }).waitFor();
  await page.goto(`${server.url}/profile/userInfo`);
  await card().getByText('Off', { exact: true }).waitFor();
  await card().getByRole('button', { name: 'Set up' }).click();

  const qr = card().getByRole('img', { name: 'QR code for your authenticator app' });
  await qr.waitFor();
  // A drawn code: square, with both dark and light modules.
  const drawn = await qr.evaluate((canvas: HTMLCanvasElement) => {
    const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let dark = 0;
    for (let i = 0; i < pixels.length; i += 4) if (pixels[i] === 0) dark += 1;
    return { width: canvas.width, height: canvas.height, darkShare: dark / (pixels.length / 4) };
  });
  assert.equal(drawn.width, drawn.height);
  assert.ok(drawn.width >= 100, `canvas ${drawn.width} px`);
  assert.ok(drawn.darkShare > 0.2 && drawn.darkShare < 0.6, `dark share ${drawn.darkShare}`);

  const key = card().getByRole('group', { name: 'Setup key' });
  secret = (await key.locator('code').textContent())?.trim() ?? '';
  assert.match(secret, /^[A-Z2-7]{32}$/);
  await key.getByText('The setup key is shown only now. Keep it secret.').waitFor();
  assert.equal(await key.getByRole('button', { name: 'Copy Setup key' }).count(), 1);
  assert.ok(!(await allAttributes()).includes(secret), 'the key is never in an attribute');

  // A code of the wrong shape is refused under the field, before anything is sent.
  const code = card().getByLabel('Code from the app');
  await code.fill('12345');
  await card().getByRole('button', { name: 'Turn on' }).click();
  await card().getByText('Enter the 6-digit code from your authenticator app').waitFor();

  await code.fill(await nextCode());
  await card().getByRole('button', { name: 'Turn on' }).click();
  await card().getByText('On', { exact: true }).waitFor();
  assert.equal(await card().getByRole('group', { name: 'Setup key' }).count(), 0, 'the key is gone once confirmed');
  assert.equal(await card().getByRole('button', { name: 'Turn off' }).count(), 1);

  // After a reload the card says it is on and shows no key.
  await page.reload();
  await card().getByText('On', { exact: true }).waitFor();
  assert.ok(!(await card().textContent())?.includes(secret));
});

test('signing in asks for a code from the app, then lands on home', async () => {
  await page.getByRole('button', { name: /^Account menu of / }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await page.getByRole('dialog', { name: 'Logout' }).getByRole('button', { name: 'OK' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();

  await signIn();
  const code = page.getByLabel('Verification code');
  await code.waitFor();
  assert.equal(new URL(page.url()).pathname, '/login', 'not signed in before the code');
  await code.fill(await nextCode());
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('heading', { name: 'Welcome back, Otto' }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/home/index');
});

test('turned off with a current code; the next sign-in asks for none', async () => {
  await page.goto(`${server.url}/profile/userInfo`);
  await card().getByRole('button', { name: 'Turn off' }).click();
  await card().getByText('Enter a current code from your authenticator app to turn it off.').waitFor();
  await card().getByLabel('Code from the app').fill(await nextCode());
  await card().getByRole('button', { name: 'Turn off' }).click();
  await card().getByText('Off', { exact: true }).waitFor();

  const other = await openPage(browser);
  await other.page.goto(`${server.url}/login`);
  await other.page.getByLabel('Username').fill(MEMBER.username);
  await other.page.getByLabel('Password', { exact: true }).fill(MEMBER.password);
  await other.page.getByRole('button', { name: 'Sign in' }).click();
  await other.page.getByRole('heading', { name: 'Welcome back, Otto' }).waitFor();
  await other.context.close();
  assert.deepEqual(watched.errors, []);
  assert.deepEqual(other.errors, []);
});
