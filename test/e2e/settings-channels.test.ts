// Channels (operate/tunnel) and messages (profile/message, profile/messageHis) as people use them:
// an administrator creates an email channel against a local SMTP server and a signed DingTalk
// robot against a local receiver, edits without retyping the secret, sends tests that arrive,
// reads the delivery log; sends an in-site message to a user, who reads and deletes it and sees
// it in the history; the channel screen in Chinese.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, ApiClient, launchBrowser, openPage, startServer, type RunningServer } from './harness';
import { startHttpReceiver, startSmtp, type HttpReceiver, type SmtpReceiver } from '../server/receivers';
import { transform } from '../server/harness';
import { signIn as signInAs } from './admin-support';

const SMTP = { user: 'relay-user', password: 'relay-secret-77' };
const ROBOT = { token: 'e2e-robot-token', secret: 'SEC-e2e-signing' };
const READER = { username: 'msg-reader', realName: 'Message_Reader', password: 'Reader-2024' };

let server: RunningServer;
let browser: Browser;
let smtp: SmtpReceiver;
let http: HttpReceiver;

before(async () => {
  [server, smtp, http] = await Promise.all([
    startServer({ IAM_OUTBOUND_ALLOW_PRIVATE: '1' }),
    startSmtp(SMTP.user, SMTP.password),
    startHttpReceiver({ robotToken: ROBOT.token, dingTalkSecret: ROBOT.secret }),
  ]);
  browser = await launchBrowser();
  const admin = new ApiClient(server.url);
  await admin.signIn(ADMIN.username, ADMIN.password);
  await admin.createUser(READER);
});

after(async () => {
  await browser?.close();
  await Promise.all([server?.stop(), smtp?.stop(), http?.stop()]);
});

/** Opens `next` signed in as `user` through the API (no test here is about the sign-in form). */
function signIn(page: Page, next: string, user: { username: string; password: string } = ADMIN): Promise<void> {
  return signInAs(page, server.url, user.username, user.password, next);
}

test('channels: create, edit with a kept secret, send tests that arrive, the delivery log', async () => {
  const { page, errors } = await openPage(browser);
  await signIn(page, '/operate/tunnel');
  await page.getByRole('heading', { name: 'Channels' }).waitFor();
  await page.getByText('No channels yet').waitFor();

  await page.getByRole('button', { name: 'New channel' }).click();
  const dialog = page.getByRole('dialog', { name: 'New channel' });
  await dialog.getByLabel('Name', { exact: true }).fill('Mail relay');
  await dialog.getByLabel('Vendor', { exact: true }).fill('smtp');
  await dialog.getByLabel('SMTP host').fill('127.0.0.1');
  await dialog.getByLabel('Port', { exact: true }).fill(String(smtp.port));
  await dialog.getByLabel('Connection security').selectOption('none');
  await dialog.getByLabel('User name').fill(SMTP.user);
  await dialog.getByLabel('Password', { exact: true }).fill(SMTP.password);
  await dialog.getByLabel('Sender address').fill('iam@example.com');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'detached' });
  const row = page.getByRole('row').filter({ hasText: 'Mail relay' });
  await row.getByText('Email').waitFor();

  // Edit: the stored password is not shown and is kept when left empty.
  await page.getByRole('button', { name: 'Edit Mail relay' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit channel' });
  assert.equal(await edit.getByLabel('Password', { exact: true }).inputValue(), '');
  await edit.getByText('Stored. Leave empty to keep it').waitFor();
  await edit.getByLabel('Vendor', { exact: true }).fill('smtp-relay');
  await edit.getByRole('button', { name: 'Save' }).click();
  await edit.waitFor({ state: 'detached' });
  await row.getByText('smtp-relay').waitFor();

  await page.getByRole('button', { name: 'Send a test through Mail relay' }).click();
  const testDialog = page.getByRole('dialog', { name: 'Send a test through Mail relay' });
  await testDialog.getByRole('button', { name: 'Send test' }).click();
  await testDialog.getByText('This field is required').waitFor();
  await testDialog.getByLabel('Email address').fill('ops@example.com');
  await testDialog.getByRole('button', { name: 'Send test' }).click();
  await testDialog.getByRole('status').filter({ hasText: 'The test message was delivered.' }).waitFor();
  assert.ok(
    smtp.mails.some((mail) => mail.to.includes('ops@example.com') && mail.user === SMTP.user),
    'the SMTP server got the test, authenticated with the kept password',
  );
  await testDialog.getByRole('button', { name: 'Close' }).first().click();

  // A signed DingTalk robot.
  await page.getByRole('button', { name: 'New channel' }).click();
  const robot = page.getByRole('dialog', { name: 'New channel' });
  await robot.getByLabel('Name', { exact: true }).fill('Ops robot');
  await robot.getByLabel('Service type').selectOption('DING_TALK');
  await robot.getByLabel('Vendor', { exact: true }).fill('dingtalk');
  await robot.getByLabel('Webhook URL', { exact: true }).fill(`${http.base}/dingtalk/send?access_token=${ROBOT.token}`);
  await robot.getByLabel('Signing secret', { exact: true }).fill(ROBOT.secret);
  await robot.getByRole('button', { name: 'Save' }).click();
  await robot.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Send a test through Ops robot' }).click();
  const robotTest = page.getByRole('dialog', { name: 'Send a test through Ops robot' });
  await robotTest.getByRole('button', { name: 'Send test' }).click();
  await robotTest.getByRole('status').filter({ hasText: 'The test message was delivered.' }).waitFor();
  const call = http.calls.find((entry) => entry.path === '/dingtalk/send');
  assert.ok(call?.query.get('sign'), 'the robot got a signed request');
  await robotTest.getByRole('button', { name: 'Close' }).first().click();

  const log = page.getByRole('region', { name: 'Delivery log' });
  await log.getByRole('button', { name: 'Refresh' }).click();
  await log.getByRole('row').filter({ hasText: 'ops@example.com' }).getByText('Sent').waitFor();
  await log.getByRole('row').filter({ hasText: 'Ops robot' }).getByText('Sent').waitFor();
  // Filtered by channel, then by a status none has.
  await log.getByLabel('Channel', { exact: true }).selectOption({ label: 'Ops robot' });
  await log.getByRole('row').filter({ hasText: 'ops@example.com' }).waitFor({ state: 'detached' });
  await log.getByRole('row').filter({ hasText: 'Ops robot' }).waitFor();
  await log.getByLabel('Status', { exact: true }).selectOption({ label: 'Failed' });
  await log.getByText('Nothing was sent yet.').waitFor();
  await log.getByLabel('Channel', { exact: true }).selectOption({ label: 'All channels' });
  await log.getByLabel('Status', { exact: true }).selectOption({ label: 'All statuses' });
  await log.getByRole('row').filter({ hasText: 'ops@example.com' }).waitFor();
  assert.ok(!(await page.content()).includes(SMTP.password), 'no secret on the page');

  // Delete asks first; Cancel keeps the channel, OK deletes it.
  await page.getByRole('button', { name: 'Delete Ops robot' }).click();
  const question = page.getByRole('dialog', { name: 'Delete' });
  await question.getByText('Delete the channel Ops robot? Messages waiting for it will fail.').waitFor();
  await question.getByRole('button', { name: 'Cancel' }).click();
  await question.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Delete Ops robot' }).click();
  await question.getByRole('button', { name: 'OK' }).click();
  await page.getByText('Channel Ops robot deleted').waitFor();
  await page.getByRole('table', { name: 'Channels' }).getByRole('row').filter({ hasText: 'Ops robot' }).waitFor({ state: 'detached' });
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('messages: an administrator sends in-site; the user reads, deletes, and finds it in the history', async () => {
  const { page, errors } = await openPage(browser);
  await signIn(page, '/profile/message');
  const admin = new ApiClient(server.url);
  await admin.signIn(ADMIN.username, ADMIN.password);
  await admin.call('POST', '/channels', { name: 'Site notices', serviceType: 'SITE_MESSAGE', vendor: 'site', config: {} });
  await page.getByRole('button', { name: 'Send a message' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send a message' });
  // The in-site inbox is offered once, whatever in-site channels exist.
  // (allTextContents does not wait: the dialog's chunk and channel list load first.)
  await dialog.getByLabel('Send through').getByRole('option', { name: 'In-site inbox' }).waitFor({ state: 'attached' });
  const through = (await dialog.getByLabel('Send through').locator('option').allTextContents()).filter((label) => /in-site/i.test(label));
  assert.deepEqual(through, ['In-site inbox']);
  await dialog.getByLabel('Title').fill('Maintenance window');
  await dialog.getByLabel('Content').fill('The console is read-only on Sunday 02:00-03:00.');
  await dialog.getByLabel('Find a person by username or name').fill('msg-');
  await dialog.getByRole('button', { name: `Add ${READER.username}` }).click();
  await dialog.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByText('Sent to 1 recipient', { exact: true }).waitFor();
  await page.context().close();

  const reader = await openPage(browser);
  await signIn(reader.page, '/profile/message', READER);
  const item = reader.page.getByRole('listitem').filter({ hasText: 'Maintenance window' });
  await item.getByText('Unread').waitFor();
  await item.getByText(`From ${ADMIN.username}`).waitFor();
  // Opening the message shows its text and reads it.
  await item.getByRole('button', { name: 'Maintenance window', expanded: false }).click();
  await item.getByText('read-only on Sunday').waitFor();
  await item.getByText('Unread').waitFor({ state: 'detached' });
  await reader.page.getByRole('button', { name: 'Delete Maintenance window' }).click();
  await reader.page.getByText('No messages.').waitFor();

  await reader.page.goto(`${server.url}/profile/messageHis`);
  const history = reader.page.getByRole('row').filter({ hasText: 'Maintenance window' });
  await history.waitFor({ state: 'detached' }); // deleted from the inbox: gone from the history too
  await reader.page.getByText('No messages were sent to you yet.').waitFor();
  assert.deepEqual([...errors, ...reader.errors], []);
  await reader.context.close();
});

test('the history lists messages of every kind with service type, vendor, time and status; Chinese texts', async () => {
  const admin = new ApiClient(server.url);
  await admin.signIn(ADMIN.username, ADMIN.password);
  const options = await admin.call<{ id: string; name: string }[]>('GET', '/channels/options');
  const users = await admin.call<{ list: { id: string; username: string }[] }>('GET', `/user?searchProp=username&searchValue=${READER.username}`);
  await admin.call('PUT', `/user/${users.list[0]!.id}/basic_info`, {
    realName: READER.realName,
    email: 'reader@example.com',
    // An administrator's change of someone's address takes the administrator's password.
    currentPassword: transform(ADMIN.password),
  });
  await admin.call('POST', '/messages', {
    title: 'Password policy',
    content: 'Passwords now need 10 characters.',
    userIds: [users.list[0]!.id],
    channelId: options.find((option) => option.name === 'Mail relay')!.id,
  });
  await admin.call('POST', '/messages', { title: 'Welcome', content: 'Hello!', userIds: [users.list[0]!.id] });
  // The outbox sends within a second or two.
  for (let tries = 0; tries < 100 && !smtp.mails.some((mail) => mail.to.includes('reader@example.com')); tries++)
    await new Promise((resolve) => setTimeout(resolve, 100));

  const { page, errors } = await openPage(browser);
  await signIn(page, '/profile/messageHis', READER);
  const emailRow = page.getByRole('row').filter({ hasText: 'Password policy' });
  await emailRow.getByRole('cell', { name: 'Email', exact: true }).waitFor();
  await emailRow.getByRole('cell', { name: 'smtp-relay' }).waitFor();
  await emailRow.getByText('Sent').waitFor();
  await page.getByRole('row').filter({ hasText: 'Welcome' }).getByText('Unread').waitFor();
  assert.ok(smtp.mails.some((mail) => mail.to.includes('reader@example.com') && /Passwords now need 10 characters/.test(mail.raw)));

  await page.getByRole('button', { name: '中文' }).click();
  await page.getByRole('columnheader', { name: '推送时间' }).waitFor();
  await page.getByRole('row').filter({ hasText: 'Welcome' }).getByText('未读').waitFor();
  await page.goto(`${server.url}/profile/message`);
  await page.getByRole('button', { name: '全部标为已读' }).waitFor();
  assert.deepEqual(errors, []);
  await page.context().close();
});
