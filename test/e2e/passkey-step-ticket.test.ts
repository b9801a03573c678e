// A passkey as the second step after a first factor that cannot be sent again (the step ticket of
// server/auth/login-step.ts), in Chromium with its virtual authenticator: administrators under
// adminStrongFactor whose only strong factor is a passkey sign in with a phone code (codes by a
// real SMS receiver) on the console's sign-in page and with <iam-login> on another origin (in
// Chinese), and after a third-party provider on /infoComplete. A cancelled prompt and a passkey that
// fails verification say why; a recovery code still answers; the ticket never shows in the address;
// axe clean on each step.
import { after, before, test } from 'node:test';
import { mkdirSync } from 'node:fs';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import type { Page, Response } from 'playwright-core';
import { ADMIN, ApiClient, freePort, launchBrowser, openPage, startServer } from './harness';
import { seriousViolations, text } from './a11y-support';
import { addPasskeyByApi, virtualAuthenticator } from './passkey-support';
import { smsChannel, startHttpReceiver, until } from '../server/receivers';
import { startIdentityProvider } from '../server/identity-provider';
import { transformPassword } from '../../src/core/password';
// @ts-expect-error -- a plain ES module of the demo (no typings)
import { startThirdPartyServer } from '../../demo/third-party-server.mjs';

const PASSWORD = 'Step-passkey-1';
mkdirSync('/tmp/shots', { recursive: true });
const RP_ID = 'localhost';
const hostPort = await freePort();
const host = `http://localhost:${hostPort}`;
const running = await startServer((port) => ({
  IAM_PUBLIC_URL: `http://localhost:${port}`,
  IAM_CORS_ORIGINS: host,
  IAM_WEBAUTHN_ORIGINS: `http://localhost:${port},${host}`,
  // The SMS channel posts to a receiver on this machine.
  IAM_OUTBOUND_ALLOW_PRIVATE: '1',
}));
const iam = running.url.replace('127.0.0.1', 'localhost');
const thirdParty = (await startThirdPartyServer({ port: hostPort, apiOrigin: iam })) as { stop: () => Promise<void> };
const sms = await startHttpReceiver({ robotToken: 'e2e-robot-token', dingTalkSecret: 'SEC-e2e' });
const idp = await startIdentityProvider(`${iam}/api/interaction/idp/corp/authorize/callback`, {
  sub: 'corp-step-3',
  preferred_username: 'step-boss-3',
  name: 'Boss 3',
  email: 'step-boss-3@corp.example',
  email_verified: true,
});
const browser = await launchBrowser();
const admin = new ApiClient(iam);
const bosses: Awaited<ReturnType<typeof boss>>[] = [];

const loginSettings = async (changes: Record<string, unknown>) => {
  const { version } = await admin.call<{ version: number }>('GET', '/settings/login');
  await admin.call('PUT', '/settings/login', { ...changes, version });
};

before(async () => {
  await admin.signIn(ADMIN.username, ADMIN.password);
  await admin.call('POST', '/channels', smsChannel(sms));
  await admin.call('POST', '/idps', {
    code: 'corp',
    name: 'Corp SSO',
    type: 'OIDC',
    config: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret },
  });
  const { version } = await admin.call<{ version: number }>('GET', '/config');
  await admin.call('PUT', '/config', { system: { supportThirdLogin: 'Y' }, version });
  // Set up with their passwords first: the phone code then becomes the only way in.
  bosses.push(...(await Promise.all([1, 2, 3].map(boss))));
  await loginSettings({ loginMethod: 'PHONE_CAPTCHA', adminStrongFactor: true });
});
after(async () => {
  await browser.close();
  await Promise.all([thirdParty.stop(), sms.stop(), idp.stop()]);
  await running.stop();
});

/** Administrator number `n` with a passkey (their only strong factor) and recovery codes; the
 *  passkey as a credential for the browser's authenticator. */
async function boss(n: number) {
  const person = { username: `step-boss-${n}`, realName: `Boss_${n}`, mobilePhone: `1370000000${n}`, email: `step-boss-${n}@corp.example` };
  await admin.call('POST', '/user', { ...person, isAdmin: true, password: await transformPassword(PASSWORD), extraProp: {} });
  const own = new ApiClient(iam);
  await own.signIn(person.username, PASSWORD);
  const passkey = await addPasskeyByApi(own, iam, RP_ID, PASSWORD, 'Phone');
  const { codes } = await own.call<{ codes: string[] }>('POST', '/user/recovery-codes', { password: await transformPassword(PASSWORD) });
  return { ...person, own, passkey, codes };
}

/** A page with a virtual authenticator holding nothing yet; refused steps are expected. */
async function stepPage() {
  const watched = await openPage(browser, { expectedFailures: [/\/api\/authc\/login\/step$/] });
  return { ...watched, ...(await virtualAuthenticator(watched.context, watched.page)) };
}

/** The first factor by phone on `page` (the console's form or <iam-login>): the answer that carried the step ticket. */
async function phoneCode(page: Page, locale: 'en' | 'zh', phone: string): Promise<string> {
  await page.getByLabel(text(locale, 'login:phone')).fill(phone);
  await page.getByRole('button', { name: text(locale, 'login:sendCode') }).click();
  const message = await until(() => sms.calls.find((call) => call.path === '/sms' && call.body.phone === phone), 'the sign-in code by SMS');
  await page.getByLabel(text(locale, 'login:code')).fill(/\b(\d{6})\b/.exec(JSON.stringify(message.body))![1]!);
  const answered = page.waitForResponse((response) => response.url().endsWith('/api/authc/login'));
  await page.getByRole('button', { name: text(locale, 'login:submit'), exact: true }).click();
  return ticketOf(await answered);
}

const ticketOf = async (response: Response) => {
  const { data } = (await response.json()) as { data: { stepTicket?: string } };
  assert.ok(data.stepTicket, 'the answer carries a step ticket');
  return data.stepTicket;
};

/** The passkey step is shown (its hint and button), and the ticket is nowhere in the address. */
async function atPasskeyStep(page: Page, locale: 'en' | 'zh', ticket: string, where: string, selector?: string) {
  await page.getByText(text(locale, 'account:passkeySignIn.stepHint')).waitFor();
  await page.getByRole('button', { name: text(locale, 'account:passkeySignIn.useStep') }).waitFor();
  assert.ok(!page.url().includes(ticket), 'the step ticket is never in the address');
  await page.mouse.move(0, 0);
  assert.deepEqual(await seriousViolations(page, where, selector), []);
}

test('console sign-in page: a phone code, then a cancelled prompt and a failing passkey say why; a recovery code still signs in', async () => {
  const who = bosses[0]!;
  const { page, context, errors, give } = await stepPage();
  await page.goto(`${iam}/login`);
  const ticket = await phoneCode(page, 'en', who.mobilePhone);
  await atPasskeyStep(page, 'en', ticket, 'passkey step after a phone code');
  assert.equal(new URL(page.url()).pathname, '/login', 'not signed in with the phone code alone');
  assert.equal(await page.getByLabel(text('en', 'login:code')).count(), 0, 'no code field at the passkey step');

  // No passkey in the authenticator: the browser's prompt fails, the form says so.
  await page.getByRole('button', { name: 'Use your passkey' }).click();
  await page.getByRole('alert').getByText(text('en', 'account:passkeySignIn.cancelled')).waitFor();

  // Its credential with another key: the signature fails the server's check.
  const forged = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64');
  await give([{ ...who.passkey, privateKey: forged }]);
  await page.getByRole('button', { name: 'Use your passkey' }).click();
  await page.getByRole('alert').getByText('The passkey could not be verified').waitFor();
  assert.deepEqual(await seriousViolations(page, 'failed passkey step'), []);

  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByText('Enter one of your recovery codes.').waitFor();
  // A recovery code is four groups of four letters and digits, not "4-8 digits".
  assert.equal(await page.getByLabel('Verification code').getAttribute('placeholder'), 'xxxx-xxxx-xxxx-xxxx (letters and digits)');
  await page.getByLabel('Verification code').fill(who.codes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('heading', { name: `Welcome back, ${who.realName}` }).waitFor();
  assert.equal((await who.own.call<{ remaining: number }>('GET', '/user/recovery-codes')).remaining, 9, 'the recovery code is used up');
  assert.deepEqual(errors, []);
  await context.close();
});

test('<iam-login> on another origin, in Chinese: a phone code, then the passkey signs in', async () => {
  const who = bosses[1]!;
  const { page, context, errors, give } = await stepPage();
  await page.goto(`${host}/demo/third-party.html?api=${encodeURIComponent(`${iam}/api`)}`);
  // The element's own language (the page around it stays English).
  await page.locator('iam-login').evaluate((element) => element.setAttribute('locale', 'zh'));
  const ticket = await phoneCode(page, 'zh', who.mobilePhone);
  await atPasskeyStep(page, 'zh', ticket, 'passkey step in <iam-login> (zh)', 'iam-login');
  await page.locator('iam-login').screenshot({ path: '/tmp/shots/passkey-step-ticket-zh.png' });
  await give([who.passkey]);
  await page.getByRole('button', { name: text('zh', 'account:passkeySignIn.useStep') }).click();
  await page
    .getByRole('status')
    // The phone sign-in reports the number it was given.
    .filter({ hasText: `Signed in as ${who.mobilePhone}.` })
    .waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('/infoComplete: after the provider and the link to the account, the passkey signs in', async () => {
  const who = bosses[2]!;
  const { page, context, errors, give } = await stepPage();
  await page.goto(`${iam}/login`);
  await page.getByRole('link', { name: 'Sign in with Corp SSO' }).click();
  await page.getByRole('button', { name: 'Link to my existing account' }).click();
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  const answered = page.waitForResponse((response) => response.url().includes('/after/user/link'));
  await page.getByRole('button', { name: 'Link and sign in' }).click();
  const ticket = await ticketOf(await answered);
  await atPasskeyStep(page, 'en', ticket, 'passkey step on /infoComplete');
  await page.screenshot({ path: '/tmp/shots/passkey-step-ticket-info-complete.png' });
  assert.equal(new URL(page.url()).pathname, '/infoComplete', 'not signed in before the passkey');
  await give([who.passkey]);
  await page.getByRole('button', { name: 'Use your passkey' }).click();
  await page.getByRole('heading', { name: `Welcome back, ${who.realName}` }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});
