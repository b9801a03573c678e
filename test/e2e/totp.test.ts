// The authenticator app (TOTP), as a person sees it: set up in the personal center (the current
// password first, then the QR code and the key shown once, confirmed with a code the test computes from that key like a phone app would),
// then the sign-in form asks for a code, and the app is turned off again with a current code. Each
// test has a member of its own (the later ones turn the app on through the API first).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, ApiClient, openPage, startServerAndBrowser, submitSignIn, type WatchedPage } from './harness';
import { authenticator, turnOnAuthenticator } from './totp-support';
import { seriousViolations } from './a11y-support';

const PASSWORD = 'Member-totp-1';

const { server, browser } = await startServerAndBrowser();
const admin = new ApiClient(server.url);
await admin.signIn(ADMIN.username, ADMIN.password);
let members = 0;

interface Member {
  username: string;
  realName: string;
  watched: WatchedPage;
  page: Page;
  /** The next code of the member's app, once the authenticator is on. */
  nextCode: () => Promise<string>;
}

/** Each test's own fixture: a new member on a page of their own, not signed in; with
 *  `withAuthenticator`, the member has already turned the authenticator app on (through the API). */
async function member(withAuthenticator: boolean): Promise<Member> {
  members += 1;
  const username = `otto-${members}`;
  const realName = `Otto_${members}`;
  await admin.createUser({ username, realName, password: PASSWORD });
  let nextCode = (): Promise<string> => Promise.reject(new Error('the authenticator is not on'));
  if (withAuthenticator) ({ nextCode } = await turnOnAuthenticator(server.url, username, PASSWORD));
  const watched = await openPage(browser, { expectedFailures: [/\/api\/user\/totp(\/confirm)?$/] });
  return { username, realName, watched, page: watched.page, nextCode };
}

const signIn = ({ page, username }: Pick<Member, 'page' | 'username'>) => submitSignIn(page, server.url, username, PASSWORD);

/** Every attribute of every element, through the console's shadow roots. */
function allAttributes(page: Page): Promise<string> {
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

const card = (page: Page) => page.getByRole('region', { name: 'Authenticator app' });

test('set up in the personal center: QR code, the key once, confirmed with a code', async () => {
  const person = await member(false);
  const { page } = person;
  await signIn(person);
  await page.getByRole('heading', { name: `Welcome back, ${person.realName}` }).waitFor();
  await page.goto(`${server.url}/profile/userInfo`);
  await card(page).getByText('Off', { exact: true }).waitFor();
  await card(page).getByRole('button', { name: 'Set up' }).click();
  // The current password first (a borrowed session sets up no app of its own): a wrong one is
  // refused under its field, and no key is shown.
  await card(page).getByText('Enter your current password to set up an authenticator app.').waitFor();
  const password = card(page).getByLabel('Current password', { exact: true });
  await password.fill('Not-the-password-1');
  await card(page).getByRole('button', { name: 'Continue' }).click();
  await card(page).getByText('The password is wrong').waitFor();
  assert.deepEqual(await seriousViolations(page, 'authenticator app: the password step'), []);
  assert.equal(await card(page).getByRole('group', { name: 'Setup key' }).count(), 0);
  await password.fill(PASSWORD);
  await card(page).getByRole('button', { name: 'Continue' }).click();

  const qr = card(page).getByRole('img', { name: 'QR code for your authenticator app' });
  await qr.waitFor();
  // Drawn in an effect after the canvas shows, which sizes it square (a fresh canvas is 300 × 150).
  await page.waitForFunction((canvas) => (canvas as HTMLCanvasElement).width === (canvas as HTMLCanvasElement).height, await qr.elementHandle());
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

  const key = card(page).getByRole('group', { name: 'Setup key' });
  const secret = (await key.locator('code').textContent())?.trim() ?? '';
  const nextCode = authenticator(secret);
  assert.match(secret, /^[A-Z2-7]{32}$/);
  await key.getByText('The setup key is shown only now. Keep it secret.').waitFor();
  assert.equal(await key.getByRole('button', { name: 'Copy Setup key' }).count(), 1);
  assert.ok(!(await allAttributes(page)).includes(secret), 'the key is never in an attribute');

  // A code of the wrong shape is refused under the field, before anything is sent.
  const code = card(page).getByLabel('Code from the app');
  await code.fill('12345');
  await card(page).getByRole('button', { name: 'Turn on' }).click();
  await card(page).getByText('Enter the 6-digit code from your authenticator app').waitFor();

  await code.fill(await nextCode());
  await card(page).getByRole('button', { name: 'Turn on' }).click();
  await card(page).getByText('On', { exact: true }).waitFor();
  assert.equal(await card(page).getByRole('group', { name: 'Setup key' }).count(), 0, 'the key is gone once confirmed');
  assert.equal(await card(page).getByRole('button', { name: 'Turn off' }).count(), 1);

  // After a reload the card says it is on and shows no key.
  await page.reload();
  await card(page).getByText('On', { exact: true }).waitFor();
  assert.ok(!(await card(page).textContent())?.includes(secret));
  assert.deepEqual(person.watched.errors, []);
});

test('signing in asks for a code from the app, then lands on home', async () => {
  const person = await member(true);
  const { page, nextCode } = person;
  await signIn(person);
  const code = page.getByLabel('Verification code');
  await code.waitFor();
  assert.equal(new URL(page.url()).pathname, '/login', 'not signed in before the code');
  await code.fill(await nextCode());
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('heading', { name: `Welcome back, ${person.realName}` }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/home/index');
  assert.deepEqual(person.watched.errors, []);
});

test('turned off with a current code; the next sign-in asks for none', async () => {
  const person = await member(true);
  const { page, nextCode } = person;
  await signIn(person);
  await page.getByLabel('Verification code').fill(await nextCode());
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL(/\/home\/index$/);
  await page.goto(`${server.url}/profile/userInfo`);
  await card(page).getByRole('button', { name: 'Turn off' }).click();
  await card(page).getByText('Enter a current code from your authenticator app to turn it off.').waitFor();
  await card(page)
    .getByLabel('Code from the app')
    .fill(await nextCode());
  await card(page).getByRole('button', { name: 'Turn off' }).click();
  await card(page).getByText('Off', { exact: true }).waitFor();

  const other = await openPage(browser);
  await signIn({ page: other.page, username: person.username });
  await other.page.getByRole('heading', { name: `Welcome back, ${person.realName}` }).waitFor();
  await other.context.close();
  assert.deepEqual(person.watched.errors, []);
  assert.deepEqual(other.errors, []);
});
