// Passkeys in Chromium with its virtual authenticator (DevTools WebAuthn domain: CTAP2, internal
// transport, resident keys, user verification): a member adds a passkey in the personal center,
// renames it, signs out and signs in with it on the console's page, then with <iam-login> in token
// mode on the third-party demo page of another origin (listed in IAM_WEBAUTHN_ORIGINS, same host as
// the RP ID); a passkey as the sign-in's second step, in Chinese, and a recovery code instead of it
// (asked at once on a page whose origin may not use passkeys); axe clean on each form.
import { after, test } from 'node:test';
import { mkdirSync } from 'node:fs';
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { ADMIN, ApiClient, freePort, launchBrowser, openPage, startServer } from './harness';
import { signIn } from './admin-support';
import { choose, seriousViolations, text } from './a11y-support';
import { addPasskeyByApi, virtualAuthenticator } from './passkey-support';
import { transformPassword } from '../../src/core/password';
// @ts-expect-error -- a plain ES module of the demo (no typings)
import { startThirdPartyServer } from '../../demo/third-party-server.mjs';

const PASSWORD = 'Member-passkey-1';
const SHOTS = '/tmp/shots';
mkdirSync(SHOTS, { recursive: true });
// The RP ID is the host both origins share (browsers refuse an IP address as an RP ID).
const RP_ID = 'localhost';
const hostPort = await freePort();
const host = `http://localhost:${hostPort}`;
/** The same third-party host by its address: a token-mode origin that may not use passkeys. */
const unlistedHost = `http://127.0.0.1:${hostPort}`;
const running = await startServer((port) => ({
  IAM_PUBLIC_URL: `http://localhost:${port}`,
  IAM_CORS_ORIGINS: `${host},${unlistedHost}`,
  IAM_WEBAUTHN_ORIGINS: `http://localhost:${port},${host}`,
}));
const iam = running.url.replace('127.0.0.1', 'localhost');
const thirdParty = (await startThirdPartyServer({ port: hostPort, apiOrigin: iam })) as { stop: () => Promise<void> };
const browser = await launchBrowser();
after(async () => {
  await browser.close();
  await thirdParty.stop();
  await running.stop();
});

const admin = new ApiClient(iam);
await admin.signIn(ADMIN.username, ADMIN.password);
let members = 0;

/** A new member and a fresh page with a virtual platform authenticator (passkey-support.ts). */
async function member(locale: 'en' | 'zh' = 'en') {
  members += 1;
  const username = `pia-${members}`;
  await admin.createUser({ username, realName: `Pia_${members}`, password: PASSWORD });
  // Expected refusals: the wrong password at "Add a passkey" and at removing one, a removed passkey at sign-in.
  const watched = await openPage(browser, {
    expectedFailures: [/\/api\/user\/passkeys\/options$/, /\/api\/user\/passkeys\/[\w-]+$/, /\/api\/authc\/passkey\/login$/],
  });
  await watched.context.addInitScript(choose, { locale, theme: 'light' as const });
  const authenticator = await virtualAuthenticator(watched.context, watched.page);
  return { username, realName: `Pia_${members}`, ...watched, ...authenticator };
}

async function signInWithPassword(page: Page, username: string, locale: 'en' | 'zh' = 'en', base = iam) {
  await page.goto(`${base}/login`);
  await page.getByLabel(text(locale, 'login:identifier.USERNAME_PASSWORD')).fill(username);
  await page.getByLabel(text(locale, 'login:password'), { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: text(locale, 'login:submit'), exact: true }).click();
}

async function assertAxeClean(page: Page, where: string, selector?: string) {
  assert.deepEqual(await seriousViolations(page, where, selector), []);
}

/** The member, on the personal center, adds a passkey named `name` (through the dialog). */
async function addPasskey(page: Page, name: string) {
  const card = page.getByRole('region', { name: 'Passkeys' });
  await card.getByText('You have no passkeys yet.').waitFor();
  await card.getByRole('button', { name: 'Add a passkey' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Current password', { exact: true }).fill('wrong-password-9');
  await dialog.getByRole('button', { name: 'Add a passkey' }).click();
  await dialog.getByText('The password is wrong').waitFor();
  await assertAxeClean(page, 'add passkey dialog');
  await dialog.getByLabel('Current password', { exact: true }).fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Add a passkey' }).click();
  await dialog.waitFor({ state: 'detached' });
  await card.getByText(name, { exact: true }).waitFor();
}

async function signOut(page: Page, realName: string, locale: 'en' | 'zh' = 'en') {
  await page.getByRole('button', { name: text(locale, 'console:user.menu', { name: realName }) }).click();
  const signOutText = text(locale, 'console:user.logout');
  await page.getByRole('menuitem', { name: signOutText }).click();
  await page.getByRole('dialog', { name: signOutText }).getByRole('button', { name: signOutText }).click();
  // Only the navigation: with a passkey in the authenticator, the form's autofill may sign in again at once.
  await page.waitForURL(/\/login(\?|$)/);
}

async function closeContext(context: BrowserContext, errors: string[]) {
  assert.deepEqual(errors, []);
  await context.close();
}

test('add, rename and use a passkey: autofill and the button on the console page, <iam-login> in token mode on another origin', async () => {
  const { username, realName, page, context, errors, credentials, take, give } = await member();
  // Signed in through the API: this test is about passkeys, not the password form.
  await signIn(page, iam, username, PASSWORD, '/profile/userInfo');
  await addPasskey(page, 'Laptop');
  const [credential] = await credentials();
  assert.equal(credential?.rpId, RP_ID);
  assert.ok(credential.isResidentCredential, 'a discoverable credential (a passkey)');

  const card = page.getByRole('region', { name: 'Passkeys' });
  await card.getByText(/Added \d{4}-\d{2}-\d{2} · not used yet/).waitFor();
  await card.getByRole('button', { name: 'Rename Laptop' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename passkey' });
  await rename.getByLabel('Name').fill('Work laptop');
  await rename.getByRole('button', { name: 'Save' }).click();
  await card.getByText('Work laptop', { exact: true }).waitFor();
  await assertAxeClean(page, 'personal center with a passkey');
  await card.screenshot({ path: `${SHOTS}/passkeys-personal-center.png` });

  // Autofill: signed out, the sign-in page's username field offers the passkey; the virtual
  // authenticator picks it at once, so the sign-in happens without a click.
  await signOut(page, realName);
  await page.waitForURL(/\/home\/index$/);
  await page.getByRole('link', { name: text('en', 'common:route.userInfo') }).click();
  await card.getByText(/ · last used /).waitFor();

  // The button: the autofill request finds nothing (the credential is held back), the button then signs in.
  let held = await take();
  await signOut(page, realName);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  assert.equal(await page.getByLabel('Username').getAttribute('autocomplete'), 'username webauthn');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
  await page.waitForLoadState('networkidle');
  assert.equal(await page.getByRole('alert').count(), 0, await page.getByRole('alert').allTextContents().then(String));
  await page.screenshot({ path: `${SHOTS}/passkeys-sign-in.png` });
  await give(held);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await page.waitForURL(/\/home\/index$/);
  await page.getByRole('button', { name: text('en', 'console:user.menu', { name: realName }) }).waitFor();

  // <iam-login auth-mode="token"> on the third-party page (another origin under the RP ID).
  held = await take();
  await signOut(page, realName);
  await page.goto(`${host}/demo/third-party.html?api=${encodeURIComponent(`${iam}/api`)}`);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
  await page.waitForLoadState('networkidle');
  await give(held);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `Signed in as ${username}.` })
    .waitFor();
  // The demo page's own badge is not ours: the element alone.
  await assertAxeClean(page, 'third-party sign-in with passkeys', 'iam-login');
  await page.screenshot({ path: `${SHOTS}/passkeys-third-party.png` });

  // Removed with the current password (the session alone is not enough: a wrong one is refused at
  // its field), the authenticator's copy no longer signs in: the form says why.
  await page.goto(`${iam}/profile/userInfo`);
  await card.getByRole('button', { name: 'Remove Work laptop' }).click();
  const removal = page.getByRole('dialog', { name: 'Remove this passkey?' });
  await removal.getByText('Removing a passkey takes your current password, as adding one does.').waitFor();
  await removal.getByLabel('Current password', { exact: true }).fill('Not-the-password-1');
  await removal.getByRole('button', { name: 'Remove' }).click();
  await removal.getByText('The password is wrong').waitFor();
  await assertAxeClean(page, 'removing a passkey: a wrong password');
  await removal.screenshot({ path: `${SHOTS}/passkeys-remove.png` });
  // The open dialog is modal: the page behind it (the card) is out of the accessibility tree, so the
  // passkey's name is found by its text.
  assert.equal(await page.getByText('Work laptop', { exact: true }).count(), 1, 'a wrong password removes nothing');
  await removal.getByLabel('Current password', { exact: true }).fill(PASSWORD);
  await removal.getByRole('button', { name: 'Remove' }).click();
  await card.getByText('You have no passkeys yet.').waitFor();
  await signOut(page, realName);
  await page.getByRole('alert').filter({ hasText: 'This passkey is not registered here' }).waitFor();
  await closeContext(context, errors);
});

test('a passkey as the second step, in Chinese, or a recovery code instead; the page of an unlisted origin shows no passkey button', async () => {
  const { username, realName, page, context, errors, give } = await member('zh');
  // Added through the API with a software authenticator; the browser's authenticator gets it at the
  // second step (earlier, the form's autofill would sign in with it before the password).
  const own = new ApiClient(iam);
  await own.signIn(username, PASSWORD);
  const phone = await addPasskeyByApi(own, iam, RP_ID, PASSWORD, 'Phone');
  const { codes } = await own.call<{ codes: string[] }>('POST', '/user/recovery-codes', { password: await transformPassword(PASSWORD) });

  // The administrator asks for a passkey as the second step (they need one of their own first).
  await addPasskeyByApi(admin, iam, RP_ID, ADMIN.password, 'Admin');
  const policy = await admin.call<{ version: number }>('GET', '/settings/login');
  await admin.call('PUT', '/settings/login', { secondAuth: 'PASSKEY', version: policy.version });
  try {
    // No passkey at hand: a recovery code answers the step instead.
    await signInWithPassword(page, username, 'zh');
    await page.getByText(text('zh', 'account:passkeySignIn.stepHint')).waitFor();
    await page.getByRole('button', { name: text('zh', 'login:recoveryInstead') }).click();
    await page.getByText(text('zh', 'login:codeHintRecovery')).waitFor();
    await assertAxeClean(page, 'recovery code at the passkey step (zh)');
    await page.getByLabel(text('zh', 'login:code')).fill(codes[0]!);
    await page.getByRole('button', { name: text('zh', 'login:verify') }).click();
    await page.waitForURL(/\/home\/index$/);
    assert.equal((await own.call<{ remaining: number }>('GET', '/user/recovery-codes')).remaining, 9, 'the code is used up');
    await signOut(page, realName, 'zh');

    // <iam-login> on a page whose origin may not use passkeys (a token-mode origin the passkey list
    // leaves out): the step asks for a recovery code at once.
    const elsewhere = await openPage(browser);
    await elsewhere.page.goto(`${unlistedHost}/demo/third-party.html?api=${encodeURIComponent(`${iam}/api`)}`);
    await elsewhere.page.getByLabel(text('en', 'login:identifier.USERNAME_PASSWORD')).fill(username);
    await elsewhere.page.getByLabel(text('en', 'login:password'), { exact: true }).fill(PASSWORD);
    await elsewhere.page.getByRole('button', { name: text('en', 'login:submit'), exact: true }).click();
    await elsewhere.page.getByText(text('en', 'login:codeHintRecovery')).waitFor();
    assert.equal(await elsewhere.page.getByRole('button', { name: text('en', 'account:passkeySignIn.useStep') }).count(), 0);
    await assertAxeClean(elsewhere.page, 'recovery code where passkeys are hidden', 'iam-login');
    await elsewhere.page.getByLabel(text('en', 'login:code')).fill(codes[1]!);
    await elsewhere.page.getByRole('button', { name: text('en', 'login:verify') }).click();
    await elsewhere.page
      .getByRole('status')
      .filter({ hasText: `Signed in as ${username}.` })
      .waitFor();
    await closeContext(elsewhere.context, elsewhere.errors);

    await signInWithPassword(page, username, 'zh');
    await page.getByText(text('zh', 'account:passkeySignIn.stepHint')).waitFor();
    // The passkey button appears where the pointer clicked "Sign in": away from it, it shows settled.
    await page.getByRole('button', { name: text('zh', 'account:passkeySignIn.useStep') }).waitFor();
    await page.mouse.move(0, 0);
    await assertAxeClean(page, 'passkey second step (zh)');
    await page.screenshot({ path: `${SHOTS}/passkeys-second-step-zh.png` });
    await give([phone]);
    await page.getByRole('button', { name: text('zh', 'account:passkeySignIn.useStep') }).click();
    await page.waitForURL(/\/home\/index$/);
    await page.getByRole('link', { name: text('zh', 'common:route.userInfo') }).click();
    await page
      .getByRole('region', { name: text('zh', 'account:passkeys.title') })
      .getByText('Phone', { exact: true })
      .waitFor();
  } finally {
    const latest = await admin.call<{ version: number }>('GET', '/settings/login');
    await admin.call('PUT', '/settings/login', { secondAuth: null, version: latest.version });
  }

  // The same page served from an origin the server does not list: no passkey button.
  const unlisted = await openPage(browser);
  await unlisted.page.goto(`${running.url}/login`);
  await unlisted.page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
  await unlisted.page.waitForLoadState('networkidle');
  assert.equal(await unlisted.page.getByRole('button', { name: 'Sign in with a passkey' }).count(), 0);
  await closeContext(unlisted.context, unlisted.errors);
  await closeContext(context, errors);
});

test('the personal center at an IP address says why passkeys cannot be added there and what to configure, in English and Chinese', async () => {
  // A server as `npm start` runs it (no IAM_PUBLIC_URL), opened by its address: the browser would
  // refuse 127.0.0.1 as the RP ID with its raw "invalid domain" error.
  const byAddress = await startServer();
  try {
    for (const locale of ['en', 'zh'] as const) {
      const { page, context } = await openPage(browser);
      await context.addInitScript(choose, { locale, theme: 'light' as const });
      try {
        await signIn(page, byAddress.url, ADMIN.username, ADMIN.password, '/profile/userInfo');
        const card = page.getByRole('region', { name: text(locale, 'account:passkeys.title') });
        const host = new URL(byAddress.url).host;
        await card
          .getByRole('note')
          .filter({ hasText: text(locale, 'account:passkeys.notHereIpAddress', { host }) })
          .waitFor();
        assert.equal(await card.getByRole('button', { name: text(locale, 'account:passkeys.add') }).count(), 0, 'no button that can only fail');
        await assertAxeClean(page, `personal center at an IP address (${locale})`);
      } finally {
        await context.close();
      }
    }
  } finally {
    await byAddress.stop();
  }
});

test('after npm start (HOST localhost, nothing configured), a passkey is added in the personal center at http://localhost:<port>, as README says', async () => {
  const asStarted = await startServer({ HOST: 'localhost' });
  const { page, context, errors } = await openPage(browser);
  try {
    const authenticator = await virtualAuthenticator(context, page);
    const readmeAddress = asStarted.url.replace('127.0.0.1', 'localhost');
    await signIn(page, readmeAddress, ADMIN.username, ADMIN.password, '/profile/userInfo');
    const card = page.getByRole('region', { name: 'Passkeys' });
    await card.getByRole('button', { name: 'Add a passkey' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
    await dialog.getByLabel('Name').fill('Laptop');
    await dialog.getByLabel('Current password', { exact: true }).fill(ADMIN.password);
    await dialog.getByRole('button', { name: 'Add a passkey' }).click();
    await dialog.waitFor({ state: 'detached' });
    await card.getByText('Laptop', { exact: true }).waitFor();
    assert.deepEqual(
      (await authenticator.credentials()).map((credential) => credential.rpId),
      ['localhost'],
    );
  } finally {
    await closeContext(context, errors);
    await asStarted.stop();
  }
});
