// Every screen of the settings work with data, in the dark and the light theme, at 1280×800:
// login management, branding, license (with the expiry banner), channels with the delivery log and
// the channel and test dialogs, the inbox with the send dialog, and the message history. Each
// must render without a console error, page error or CSP violation; the pictures go to
// $IAM_SHOTS_DIR (default /tmp/shots) as settings-<screen>-<theme>.png for people to look at.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, ApiClient, launchBrowser, openPage, startServer, type RunningServer } from './harness';
import { startHttpReceiver, startSmtp, until, type HttpReceiver, type SmtpReceiver } from '../server/receivers';
import { transform } from '../server/harness';
import { navigateInApp } from './a11y-support';

const root = fileURLToPath(new URL('../..', import.meta.url));
const outDir = process.env.IAM_SHOTS_DIR ?? '/tmp/shots';
const keys = mkdtempSync(join(tmpdir(), 'iam-shot-keys-'));
const viewport = { width: 1280, height: 800 };
let server: RunningServer;
let browser: Browser;
let smtp: SmtpReceiver;
let http: HttpReceiver;

const licenseTool = (...args: string[]) => execFileSync('npm', ['run', '--silent', 'license', '--', ...args], { cwd: root, encoding: 'utf8' }).trim();

/** Channels, deliveries (sent and failed), messages and a license that expires in 12 days. */
async function seed(): Promise<void> {
  const admin = new ApiClient(server.url);
  await admin.signIn(ADMIN.username, ADMIN.password);
  const reader = await admin.createUser({ username: 'li-na', realName: '李娜', password: 'Reader-2024' });
  await admin.call('PUT', `/user/${reader}/basic_info`, {
    realName: '李娜',
    email: 'li.na@example.com',
    mobilePhone: '13800138000',
    // An administrator's change of someone's address takes the administrator's password.
    currentPassword: transform(ADMIN.password),
  });
  const mail = await admin.call<{ id: string }>('POST', '/channels', {
    name: 'Company mail',
    serviceType: 'EMAIL',
    vendor: 'smtp',
    config: { host: '127.0.0.1', port: String(smtp.port), security: 'none', username: 'relay', password: 'relay-pass', from: 'iam@example.com' },
  });
  const robot = await admin.call<{ id: string }>('POST', '/channels', {
    name: 'Ops group',
    serviceType: 'DING_TALK',
    vendor: 'dingtalk',
    config: { webhook: `${http.base}/dingtalk/send?access_token=shot-token`, secret: 'SEC-shot' },
  });
  const sms = await admin.call<{ id: string }>('POST', '/channels', {
    name: 'SMS gateway',
    serviceType: 'SMS',
    vendor: 'acme-sms',
    config: { url: `${http.base}/sms`, templateId: 'SMS_0042', signName: 'ACME' },
  });
  await admin.call('POST', '/channels', { name: 'Inbox', serviceType: 'SITE_MESSAGE', vendor: 'site', config: {} });
  await admin.call('POST', `/channels/${mail.id}/test`, { address: 'ops@example.com' });
  await admin.call('POST', `/channels/${robot.id}/test`, {});
  http.smsStatus = 503;
  await admin.call('POST', `/channels/${sms.id}/test`, { address: '13800138000' });
  const me = await admin.call<{ user: { id: string } }>('GET', '/cas/session');
  await admin.call('PUT', `/user/${me.user.id}/basic_info`, {
    realName: 'Administrator',
    email: 'admin@example.com',
    currentPassword: transform(ADMIN.password),
  });
  // One's own new address applies once the code mailed to it is confirmed.
  const mailed = await until(() => smtp.mails.find((entry) => entry.to.includes('admin@example.com')), 'the code mailed to admin@example.com');
  await admin.call('POST', '/user/profile/contact/confirm', { channel: 'email', code: /\b(\d{6})\b/.exec(mailed.raw)![1] });
  await admin.call('POST', '/messages', {
    title: 'Quarterly access review',
    content: 'Please review the administrators of your apps before Friday.',
    userIds: [me.user.id, reader],
  });
  await admin.call('POST', '/messages', { title: '系统维护通知', content: '周日 02:00-03:00 控制台只读。', userIds: [me.user.id, reader] });
  await admin.call('POST', '/messages', {
    title: 'Password policy updated',
    content: 'New passwords need at least 10 characters.',
    userIds: [me.user.id],
    channelId: mail.id,
  });

  const code = await admin.call<string>('GET', '/license/auth');
  const expires = new Date(Date.now() + 12 * 86_400_000).toISOString().slice(0, 10);
  const license = licenseTool(
    'issue',
    '--key',
    join(keys, 'vendor-private.pem'),
    '--request',
    code,
    '--licensee',
    'ACME Corp',
    '--expires',
    expires,
    '--users',
    '200',
  );
  await admin.call('POST', '/license/auth', { newLicense: license });
}

before(async () => {
  mkdirSync(outDir, { recursive: true });
  licenseTool('keygen', '--out', keys);
  [server, smtp, http, browser] = await Promise.all([
    startServer({ IAM_OUTBOUND_ALLOW_PRIVATE: '1', IAM_LICENSE_PUBLIC_KEY: join(keys, 'vendor-public.pem') }),
    startSmtp('relay', 'relay-pass'),
    startHttpReceiver({ robotToken: 'shot-token', dingTalkSecret: 'SEC-shot' }),
    launchBrowser(),
  ]);
  await seed();
});

after(async () => {
  await browser?.close();
  await Promise.all([server?.stop(), smtp?.stop(), http?.stop()]);
  rmSync(keys, { recursive: true, force: true });
});

/** Fonts loaded and animations (dialogs fade in) finished. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready;
    const shadow = document.querySelector('iam-console')?.shadowRoot;
    await Promise.all([...document.getAnimations(), ...(shadow?.getAnimations() ?? [])].map((animation) => animation.finished.catch(() => undefined))); // a cancelled animation is settled too
  });
}

for (const theme of ['dark', 'light'] as const) {
  test(`the settings screens with data render cleanly in the ${theme} theme`, async () => {
    const { page, context, errors } = await openPage(browser, { viewport });
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await context.addInitScript((chosen) => localStorage.setItem('iam-theme', chosen), theme);
    const shot = async (name: string) => {
      await page.mouse.move(viewport.width - 1, viewport.height - 1);
      await settled(page);
      await page.screenshot({ path: join(outDir, `settings-${name}-${theme}.png`) });
    };

    await page.goto(`${server.url}/operate/setting`);
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Failed sign-ins before lockout').waitFor();
    await page.getByRole('status').filter({ hasText: 'The license expires on' }).waitFor();
    await shot('login');
    await page.getByRole('group', { name: 'Password policy' }).scrollIntoViewIfNeeded();
    await shot('login-policy');
    await page.getByRole('tab', { name: 'Branding' }).click();
    await page.getByLabel('Application name').waitFor();
    await shot('branding');
    await page.getByRole('tab', { name: 'License' }).click();
    await page.getByRole('region', { name: 'License' }).getByText('ACME Corp').waitFor();
    await shot('license');

    await navigateInApp(page, '/operate/tunnel');
    await page.getByRole('row').filter({ hasText: 'Company mail' }).first().waitFor();
    await page.getByRole('region', { name: 'Delivery log' }).getByRole('row').filter({ hasText: 'SMS gateway' }).getByText('Failed').waitFor();
    await shot('channels');
    await page.getByRole('button', { name: 'Edit Company mail' }).click();
    await page.getByRole('dialog', { name: 'Edit channel' }).getByText('Stored. Leave empty to keep it').waitFor();
    await shot('channel-dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Send a test through Ops group' }).click();
    const testDialog = page.getByRole('dialog', { name: 'Send a test through Ops group' });
    await testDialog.getByRole('button', { name: 'Send test' }).click();
    await testDialog.getByText('The test message was delivered.').waitFor();
    await shot('test-dialog');
    await page.keyboard.press('Escape');

    await navigateInApp(page, '/profile/message');
    await page.getByRole('listitem').filter({ hasText: 'Quarterly access review' }).waitFor();
    await shot('messages');
    await page.getByRole('button', { name: 'Send a message' }).click();
    await page.getByRole('dialog', { name: 'Send a message' }).getByLabel('Title').fill('Audit reminder');
    await shot('send-dialog');
    await page.keyboard.press('Escape');

    await navigateInApp(page, '/profile/messageHis');
    await page.getByRole('row').filter({ hasText: 'Password policy updated' }).waitFor();
    await shot('history');

    assert.deepEqual([...errors, ...violations], []);
    await context.close();
  });
}
