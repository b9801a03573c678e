// The sign-in flows as people use them, with codes delivered for real (a local SMTP server and SMS
// vendor): the PHONE_CAPTCHA login method chosen in the login settings screen (Send code with a
// cool-down, the code from the SMS signs in; a person with an authenticator app then gives its
// code), the captcha on the first paint when the settings
// always ask, "Forgot password?" with the code from the mail (the old password stops working),
// and the email verification link opened from the mail (/verified/{code}, once).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, ApiClient, openPage, startServerAndBrowser } from './harness';
import { smsChannel, startHttpReceiver, startSmtp, until } from '../server/receivers';
import { turnOnAuthenticator } from './totp-support';

const SMTP = { user: 'relay-user', password: 'relay-secret-77' };
const PERSON = { username: 'flow-person', realName: 'Flow_Person', email: 'flow.person@example.com', mobilePhone: '13600000001', password: 'Before-2024' };

// Its SMS channel posts to a receiver on this machine: the operator allows private addresses.
const { server, browser } = await startServerAndBrowser({ IAM_OUTBOUND_ALLOW_PRIVATE: '1' });
const smtp = await startSmtp(SMTP.user, SMTP.password);
const sms = await startHttpReceiver({ robotToken: 'e2e-robot-token', dingTalkSecret: 'SEC-e2e' });
const admin = new ApiClient(server.url);

before(async () => {
  await admin.signIn(ADMIN.username, ADMIN.password);
  await admin.call('POST', '/channels', {
    name: 'Mail relay',
    serviceType: 'EMAIL',
    vendor: 'smtp',
    config: { host: '127.0.0.1', port: String(smtp.port), security: 'none', username: SMTP.user, password: SMTP.password, from: 'iam@example.com' },
  });
  await admin.call('POST', '/channels', smsChannel(sms));
  const { password, ...fields } = PERSON;
  await admin.createUser({ ...fields, password });
});
test.after(async () => {
  await Promise.all([smtp.stop(), sms.stop()]);
});

async function changeSettings(changes: Record<string, unknown>): Promise<void> {
  const { version } = await admin.call<{ version: number }>('GET', '/settings/login');
  await admin.call('PUT', '/settings/login', { ...changes, version });
}

async function signInByForm(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const smsTo = (phone: string) => sms.calls.filter((call) => call.path === '/sms' && call.body.phone === phone);
const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.to.includes(address));
/** A mail's text without quoted-printable soft line breaks. */
const mailText = (raw: string) => raw.replace(/=\r?\n/g, '');

test('PHONE_CAPTCHA chosen in the settings screen: Send code (with a cool-down), the SMS code signs in', async () => {
  const settings = await openPage(browser);
  await settings.page.goto(`${server.url}/operate/setting`);
  await signInByForm(settings.page, ADMIN.username, ADMIN.password);
  await settings.page.getByLabel('Users sign in with').selectOption({ label: 'Mobile phone and code' });
  await settings.page.getByRole('button', { name: 'Save' }).click();
  await settings.page.getByText('Settings saved').waitFor();

  try {
    const { page, errors } = await openPage(browser);
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Mobile phone').waitFor();
    assert.equal(await page.getByLabel('Password', { exact: true }).count(), 0, 'no password with this method');

    // An unknown number gets the same answer as a known one.
    await page.getByLabel('Mobile phone').fill('13600000009');
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByText('If this number belongs to an account, a code is on its way by SMS.').waitFor();
    await page.getByRole('button', { name: /^Resend in \d+ s$/ }).waitFor();
    assert.equal(await page.getByRole('button', { name: /^Resend in/ }).isDisabled(), true, 'the cool-down');
    assert.equal(smsTo('13600000009').length, 0);

    // A fresh page for the person's own number (the cool-down is per page).
    await page.reload();
    await page.getByLabel('Mobile phone').fill(PERSON.mobilePhone);
    await page.getByRole('button', { name: 'Send code' }).click();
    const message = await until(() => smsTo(PERSON.mobilePhone)[0], 'the sign-in code by SMS');
    const code = /\b(\d{6})\b/.exec(JSON.stringify(message.body))![1]!;
    await page.getByLabel('Verification code').fill(code);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: `Welcome back, ${PERSON.realName}` }).waitFor();
    assert.deepEqual(errors, []);
    await page.context().close();
  } finally {
    await changeSettings({ loginMethod: 'USERNAME_PASSWORD' });
    await settings.context.close();
  }
});

test('PHONE_CAPTCHA: after the SMS code, a person with an authenticator app gives its code', async () => {
  const holder = { username: 'flow-totp', realName: 'Flow_Totp', mobilePhone: '13600000002', password: 'Totp-flow-2024' };
  await admin.createUser(holder);
  const { nextCode } = await turnOnAuthenticator(server.url, holder.username, holder.password);
  await changeSettings({ loginMethod: 'PHONE_CAPTCHA' });
  try {
    const { page, errors } = await openPage(browser);
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Mobile phone').fill(holder.mobilePhone);
    await page.getByRole('button', { name: 'Send code' }).click();
    const message = await until(() => smsTo(holder.mobilePhone)[0], 'the sign-in code by SMS');
    await page.getByLabel('Verification code').fill(/\b(\d{6})\b/.exec(JSON.stringify(message.body))![1]!);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Enter the 6-digit code from your authenticator app, or one of your recovery codes.').waitFor();
    assert.equal(new URL(page.url()).pathname, '/login', 'not signed in with the SMS code alone');
    // The field says what it takes: not the "4-8 digits" of a sent code.
    assert.equal(await page.getByLabel('Verification code').getAttribute('placeholder'), '6 digits, or a recovery code');
    await page.getByLabel('Verification code').fill(await nextCode());
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: `Welcome back, ${holder.realName}` }).waitFor();
    assert.equal(smsTo(holder.mobilePhone).length, 1, 'no second SMS code');
    assert.deepEqual(errors, []);
    await page.context().close();
  } finally {
    await changeSettings({ loginMethod: 'USERNAME_PASSWORD' });
  }
});

test('the captcha is on the first paint when the settings always ask for it', async () => {
  await changeSettings({ captchaEnabled: true });
  try {
    const { page, errors } = await openPage(browser);
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Username').waitFor();
    assert.equal(await page.getByRole('img', { name: 'Captcha image' }).isVisible(), true, 'before any attempt');
    assert.equal(await page.getByLabel('Captcha', { exact: true }).isVisible(), true);
    assert.deepEqual(errors, []);
    await page.context().close();
  } finally {
    await changeSettings({ captchaEnabled: false });
  }
  const { page } = await openPage(browser);
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Username').waitFor();
  assert.equal(await page.getByLabel('Captcha', { exact: true }).count(), 0, 'the next page load follows the change');
  await page.context().close();
});

test('Forgot password: the code from the mail and a new password; the old password stops working', async () => {
  const { page, errors } = await openPage(browser, { expectedFailures: [/\/api\/authc\/login$/] });
  await page.goto(`${server.url}/login`);
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
  await page.getByLabel('Email or mobile phone').fill('not-an-address');
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByText('Enter your email address or mobile phone number').waitFor();

  await page.getByLabel('Email or mobile phone').fill(PERSON.email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByText(`If an account has ${PERSON.email}, a code was sent to it by email.`).waitFor();
  const mail = await until(() => mailsTo(PERSON.email).find((entry) => entry.raw.includes('reset code')), 'the reset code by email');
  const code = /reset code is (\d{6})/.exec(mailText(mail.raw))![1]!;

  await page.getByLabel('Verification code').fill(code);
  await page.getByLabel('New password', { exact: true }).fill('After-2024');
  await page.getByLabel('Confirm new password').fill('After-2025');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await page.getByText('The two passwords do not match').waitFor();
  await page.getByLabel('Confirm new password').fill('After-2024');
  await page.getByRole('button', { name: 'Set new password' }).click();

  await page.getByText('Your password was changed. Sign in with the new password.').waitFor();
  await signInByForm(page, PERSON.username, PERSON.password);
  await page.getByRole('alert').filter({ hasText: 'Invalid username or password' }).first().waitFor();
  // The refused password is marked invalid for assistive technology and described by the failure.
  const password = page.getByLabel('Password', { exact: true });
  assert.equal(await password.getAttribute('aria-invalid'), 'true');
  // (The form is in the element's shadow root: look the description up there, not in the document.)
  const describedBy = await password.evaluate(
    (input) => (input.getRootNode() as Document | ShadowRoot).getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent,
  );
  assert.match(describedBy ?? '', /Invalid username or password/);
  await signInByForm(page, PERSON.username, 'After-2024');
  await page.getByRole('heading', { name: `Welcome back, ${PERSON.realName}` }).waitFor();
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('the verification link from the mail verifies the address once, then offers the sign-in', async () => {
  const person = new ApiClient(server.url);
  await person.signIn(PERSON.username, 'After-2024');
  await person.call('POST', '/user/email/verification');
  const mail = await until(() => mailsTo(PERSON.email).find((entry) => entry.raw.includes('/verified/')), 'the verification mail');
  const link = /(http:\/\/127\.0\.0\.1:\d+\/verified\/[\w-]+)/.exec(mailText(mail.raw))![1]!;

  const { page, errors } = await openPage(browser, { expectedFailures: [/\/api\/verified\/[\w-]+$/] });
  await page.goto(link);
  await page.getByText(`${PERSON.email} is now verified for the account ${PERSON.username}.`).waitFor();
  await page.reload();
  await page.getByText('This verification link was already used.').waitFor();
  await page.goto(`${server.url}/verified/${'x'.repeat(40)}`);
  await page.getByText('This verification link is not valid.', { exact: false }).waitFor();
  await page.getByRole('link', { name: 'Go to sign in' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/login');
  assert.deepEqual(errors, []);
  await page.context().close();
});
