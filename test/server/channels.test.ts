// Channels deliver for real: EMAIL to a local SMTP server, SMS to a local HTTP vendor (signed),
// DingTalk (signed webhook) and WeCom robots to local receivers, SITE_MESSAGE to the inbox; secrets
// are write-only; the delivery log; the outbox delivers sign-in codes and retries failures.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { startServer, transform, type Client, type TestServer } from './harness';
import { outboxDb } from '../../server/channels/tables';
import { startHttpReceiver, startSmtp, until, type HttpReceiver, type SmtpReceiver } from './receivers';
import type { PagedList } from '../../src/core/types';
import type { Channel, Delivery, Message } from '../../src/core/schemas/messaging';

const SMTP = { user: 'mailer', password: 'smtp-pass-42' };
const ROBOT_TOKEN = 'robot-token-0123456789';
const DING_SECRET = 'SEC-ding-signing-secret';
const SMS_SECRET = 'sms-access-secret';

let server: TestServer;
let smtp: SmtpReceiver;
let http: HttpReceiver;
let admin: Client;

before(async () => {
  // Its channels post to receivers on this machine: the operator allows private addresses.
  [server, smtp, http] = await Promise.all([
    startServer({ outboundAllowPrivate: true }),
    startSmtp(SMTP.user, SMTP.password),
    startHttpReceiver({ robotToken: ROBOT_TOKEN, dingTalkSecret: DING_SECRET }),
  ]);
  admin = await server.admin();
});
after(async () => {
  await Promise.all([server.stop(), smtp.stop(), http.stop()]);
});

async function createChannel(body: Record<string, unknown>): Promise<Channel> {
  const answer = await admin.post<Channel>('/api/channels', body);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data;
}

const emailChannel = (password = SMTP.password) => ({
  name: 'Mail relay',
  serviceType: 'EMAIL',
  vendor: 'smtp',
  config: { host: '127.0.0.1', port: String(smtp.port), security: 'none', username: SMTP.user, password, from: 'iam@example.com' },
});
const smsChannel = () => ({
  name: 'SMS vendor',
  serviceType: 'SMS',
  vendor: 'acme-sms',
  config: { url: `${http.base}/sms`, templateId: 'TPL_001', signName: 'ACME', accessKeyId: 'key-1', accessSecret: SMS_SECRET },
});

async function sendTest(id: string, address?: string) {
  return admin.post<Delivery>(`/api/channels/${id}/test`, address === undefined ? {} : { address });
}

test('EMAIL: the send test arrives at the SMTP server, authenticated; a wrong password is a failed delivery with its reason', async () => {
  const channel = await createChannel(emailChannel());
  const sent = await sendTest(channel.id, 'someone@example.com');
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  assert.equal(sent.body.data.status, 'sent', sent.body.data.error ?? '');
  const mail = smtp.mails.at(-1)!;
  assert.deepEqual(mail.to, ['someone@example.com']);
  assert.equal(mail.from, 'iam@example.com');
  assert.equal(mail.user, SMTP.user);
  assert.match(mail.raw, /Subject: IAM Console: test message/);
  assert.match(mail.raw, /sent through the channel "Mail relay"/);

  const wrong = await createChannel({ ...emailChannel('not-the-password'), name: 'Mail wrong' });
  const failed = await sendTest(wrong.id, 'someone@example.com');
  assert.equal(failed.body.data.status, 'failed');
  assert.equal(failed.body.data.errorCode, 'mailRefused');
  assert.match(failed.body.data.error ?? '', /auth|535|Invalid/i);
  assert.ok(!(failed.body.data.error ?? '').includes('not-the-password'), 'the reason never repeats the secret');
  assert.equal((await sendTest(channel.id)).status, 400, 'an email test needs an address');
});

test('SMS: the vendor gets phone, template id, sign name and parameters, signed with the access secret', async () => {
  const channel = await createChannel({
    ...smsChannel(),
    config: { ...smsChannel().config, templateParams: JSON.stringify({ subject: '{{title}}', text: '{{content}}' }) },
  });
  const sent = await sendTest(channel.id, '13800138000');
  assert.equal(sent.body.data.status, 'sent', sent.body.data.error ?? '');
  const call = http.calls.filter((entry) => entry.path === '/sms').at(-1)!;
  assert.deepEqual(call.body, {
    phone: '13800138000',
    templateId: 'TPL_001',
    signName: 'ACME',
    params: { subject: 'IAM Console: test message', text: 'This test message was sent through the channel "SMS vendor" by admin.' },
  });
  assert.equal(call.headers['x-access-key'], 'key-1');
  const timestamp = String(call.headers['x-timestamp']);
  const expected = createHmac('sha256', SMS_SECRET)
    .update(`${timestamp}\n${JSON.stringify(call.body)}`)
    .digest('base64');
  assert.equal(call.headers['x-signature'], expected);
});

test('DING_TALK: the signed webhook is accepted by a receiver that checks the signature; a wrong secret is refused', async () => {
  const webhook = `${http.base}/dingtalk/send?access_token=${ROBOT_TOKEN}`;
  const channel = await createChannel({ name: 'Ops group', serviceType: 'DING_TALK', vendor: 'dingtalk', config: { webhook, secret: DING_SECRET } });
  const sent = await sendTest(channel.id, '13900139000');
  assert.equal(sent.body.data.status, 'sent', sent.body.data.error ?? '');
  const call = http.calls.filter((entry) => entry.path === '/dingtalk/send').at(-1)!;
  assert.equal(call.body.msgtype, 'markdown');
  assert.match((call.body.markdown as { text: string }).text, /test message[\s\S]*@13900139000/);
  assert.deepEqual((call.body.at as { atMobiles: string[] }).atMobiles, ['13900139000']);

  const unsigned = await createChannel({ name: 'Ops unsigned', serviceType: 'DING_TALK', vendor: 'dingtalk', config: { webhook, secret: 'SEC-wrong' } });
  const refused = await sendTest(unsigned.id);
  assert.equal(refused.body.data.status, 'failed');
  assert.equal(refused.body.data.errorCode, 'robotRefused');
  assert.match(refused.body.data.error ?? '', /310000: sign not match/);
  assert.ok(!(refused.body.data.error ?? '').includes(ROBOT_TOKEN), 'the reason never repeats the webhook URL');
});

test('QYWX_WEBHOOK: the WeCom robot gets a text message', async () => {
  const channel = await createChannel({
    name: 'WeCom group',
    serviceType: 'QYWX_WEBHOOK',
    vendor: 'wecom',
    config: { webhook: `${http.base}/wecom/send?key=${ROBOT_TOKEN}` },
  });
  const sent = await sendTest(channel.id);
  assert.equal(sent.body.data.status, 'sent', sent.body.data.error ?? '');
  const call = http.calls.filter((entry) => entry.path === '/wecom/send').at(-1)!;
  assert.equal(call.body.msgtype, 'text');
  assert.match((call.body.text as { content: string }).content, /^IAM Console: test message\n/);
});

test('a channel URL on this machine or a private network is refused unless the operator allows private addresses', async () => {
  const channel = await createChannel({
    name: 'Internal robot',
    serviceType: 'QYWX_WEBHOOK',
    vendor: 'wecom',
    config: { webhook: `${http.base}/wecom/send?key=${ROBOT_TOKEN}` },
  });
  const before = http.calls.length;
  server.app.ctx.config.outboundAllowPrivate = false;
  try {
    for (const webhook of [`${http.base}/wecom/send?key=${ROBOT_TOKEN}`, 'http://169.254.169.254/latest/meta-data/', 'http://[::ffff:127.0.0.1]:9/']) {
      const updated = await admin.put<Channel>(`/api/channels/${channel.id}`, { ...channel, config: { webhook } });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      channel.version = updated.body.data.version;
      const sent = await sendTest(channel.id);
      assert.equal(sent.body.data.status, 'failed', webhook);
      assert.equal(sent.body.data.errorCode, 'addressRefused', webhook);
      assert.ok(!(sent.body.data.error ?? '').includes(ROBOT_TOKEN), 'the detail never repeats the webhook URL');
    }
  } finally {
    server.app.ctx.config.outboundAllowPrivate = true;
  }
  assert.equal(http.calls.length, before, 'nothing reached the receiver on 127.0.0.1');
});

test('SITE_MESSAGE: the send test lands in my inbox', async () => {
  const channel = await createChannel({ name: 'Inbox', serviceType: 'SITE_MESSAGE', vendor: 'site', config: {} });
  const sent = await sendTest(channel.id);
  assert.equal(sent.body.data.status, 'unread');
  const inbox = await admin.get<PagedList<Message>>('/api/messages');
  assert.ok(inbox.body.data.list.some((message) => message.title === 'IAM Console: test message' && /"Inbox"/.test(message.content)));
});

test('secrets are write-only: never answered, kept when an update leaves them out, validated per service type', async () => {
  const webhook = `${http.base}/dingtalk/send?access_token=${ROBOT_TOKEN}`;
  const channel = await createChannel({ name: 'Secret robot', serviceType: 'DING_TALK', vendor: 'dingtalk', config: { webhook, secret: DING_SECRET } });
  assert.deepEqual(channel.config, { webhook: '********', secret: '********' });
  const listed = await admin.get<PagedList<Channel>>('/api/channels?size=100');
  const text = JSON.stringify(listed.body.data);
  for (const secret of [ROBOT_TOKEN, DING_SECRET, SMTP.password, SMS_SECRET]) assert.ok(!text.includes(secret), 'no secret in the list');

  const renamed = await admin.put<Channel>(`/api/channels/${channel.id}`, { name: 'Secret robot 2', config: {}, version: channel.version });
  assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
  assert.equal((await sendTest(channel.id)).body.data.status, 'sent', 'the kept secrets still sign');

  const bad = await admin.post<{ fields: { field: string; rule: string }[] }>('/api/channels', {
    name: 'Bad mail',
    serviceType: 'EMAIL',
    vendor: 'smtp',
    config: { host: 'x', port: '70000' },
  });
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.body.data.fields, [{ field: 'config.port', rule: 'rule.port' }]);
  const noWebhook = await admin.post<{ fields: { field: string; rule: string }[] }>('/api/channels', {
    name: 'No hook',
    serviceType: 'QYWX_WEBHOOK',
    vendor: 'wecom',
    config: {},
  });
  assert.deepEqual(noWebhook.body.data.fields, [{ field: 'config.webhook', rule: 'rule.required' }]);
});

test('the delivery log lists outgoing messages with status, error and time, filtered by channel and status; never their text', async () => {
  const all = await admin.get<PagedList<Delivery>>('/api/channels/deliveries?size=100');
  assert.equal(all.status, 200);
  const statuses = new Set(all.body.data.list.map((entry) => entry.status));
  assert.ok(statuses.has('sent') && statuses.has('failed'));
  const failed = await admin.get<PagedList<Delivery>>('/api/channels/deliveries?status=failed');
  assert.ok(failed.body.data.list.length >= 2 && failed.body.data.list.every((entry) => entry.status === 'failed' && entry.errorCode));
  const one = all.body.data.list.find((entry) => entry.serviceType === 'SMS')!;
  assert.equal(one.channelName, 'SMS vendor');
  assert.ok(one.sentAt && one.sentAt >= one.pushTime);
  const byChannel = await admin.get<PagedList<Delivery>>(`/api/channels/deliveries?channelId=${one.channelId}`);
  assert.ok(byChannel.body.data.list.every((entry) => entry.channelId === one.channelId));
  assert.ok(!JSON.stringify(all.body.data).includes('This test message was sent'), 'texts are not in the log');
  const user = server.client();
  await admin.post('/api/user', { username: 'log-reader', realName: 'Log_Reader', password: transform('Secret123') });
  await user.login('log-reader', 'Secret123');
  assert.equal((await user.get('/api/channels/deliveries')).status, 403);
  assert.equal((await user.post(`/api/channels/${one.channelId}/test`, { address: '13800138000' })).status, 403);
});

test('a delivery error is a code with its raw detail; a row from before the codes keeps its words', async () => {
  const sms = await createChannel({ ...smsChannel(), name: 'SMS for codes' });
  const noNumber = await sendTest(sms.id, 'someone@example.com');
  assert.equal(noNumber.body.data.status, 'failed');
  assert.deepEqual([noNumber.body.data.errorCode, noNumber.body.data.error], ['noMobile', null]);
  // As migration 0029 found it: the reason in English words, no code.
  await outboxDb(server.app.ctx.db)
    .updateTable('messages')
    .set({ errorCode: null, error: 'The recipient has no mobile number' })
    .where('id', '=', noNumber.body.data.id)
    .execute();
  const log = await admin.get<PagedList<Delivery>>(`/api/channels/deliveries?channelId=${sms.id}`);
  assert.equal(log.status, 200, JSON.stringify(log.body));
  const old = log.body.data.list.find((entry) => entry.id === noNumber.body.data.id)!;
  assert.deepEqual([old.errorCode, old.error], [null, 'The recipient has no mobile number']);
});

test('the sign-in code of the second step is delivered by SMS, or by email to a user without a mobile number', async () => {
  const settings = await admin.get<{ version: number }>('/api/settings/login');
  const saved = await admin.put<{ version: number }>('/api/settings/login', { secondAuth: 'PHONE_CAPTCHA', version: settings.body.data.version });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  try {
    await admin.post('/api/user', { username: 'phone-user', realName: 'Phone_User', mobilePhone: '13712345678', password: transform('Secret123') });
    const phoneUser = server.client();
    const first = await phoneUser.login('phone-user', 'Secret123');
    assert.equal(first.body.data.hasNextStep, true);
    const sms = await until(
      () => http.calls.find((call) => call.path === '/sms' && (call.body as { phone?: string }).phone === '13712345678'),
      'the code by SMS',
    );
    const code = /\b(\d{6})\b/.exec(JSON.stringify(sms.body))?.[1];
    assert.ok(code, 'the SMS carries the code');
    const second = await phoneUser.login('phone-user', 'Secret123', { code });
    assert.equal(second.body.data.loginSuccess, true, JSON.stringify(second.body));
    const history = await phoneUser.get<PagedList<Message>>('/api/messages/history');
    assert.deepEqual(
      history.body.data.list.map((message) => [message.serviceType, message.vendor, message.status, message.content]),
      [['SMS', 'acme-sms', 'sent', '']],
    );

    await admin.post('/api/user', { username: 'mail-user', realName: 'Mail_User', email: 'mail-user@example.com', password: transform('Secret123') });
    const mailUser = server.client();
    await mailUser.login('mail-user', 'Secret123');
    const mail = await until(() => smtp.mails.find((entry) => entry.to.includes('mail-user@example.com')), 'the code by email');
    const mailed = /sign-in code is (\d{6})/.exec(mail.raw)?.[1];
    assert.ok(mailed);
    assert.equal((await mailUser.login('mail-user', 'Secret123', { code: mailed })).body.data.loginSuccess, true);
  } finally {
    const current = await admin.get<{ version: number }>('/api/settings/login');
    const restored = await admin.put('/api/settings/login', { secondAuth: null, version: current.body.data.version });
    assert.equal(restored.status, 200, `no second step for the next tests: ${JSON.stringify(restored.body)}`);
  }
});

test('a failed delivery is retried later by the outbox and then sent', async () => {
  http.smsStatus = 503;
  const userId = (
    await admin.post<{ id: string }>('/api/user', {
      username: 'retry-user',
      realName: 'Retry_User',
      mobilePhone: '13698765432',
      password: transform('Secret123'),
    })
  ).body.data.id;
  const options = await admin.get<{ id: string; serviceType: string; name: string }[]>('/api/channels/options');
  const sms = options.body.data.find((option) => option.name === 'SMS vendor')!;
  const sent = await admin.post<{ count: number; skipped: number }>('/api/messages', {
    title: 'Maintenance',
    content: 'Tonight 22:00',
    userIds: [userId],
    channelId: sms.id,
  });
  assert.deepEqual(sent.body.data, { count: 1, skipped: 0 });
  const waiting = await until(
    async () =>
      (await admin.get<PagedList<Delivery>>(`/api/channels/deliveries?channelId=${sms.id}&status=queued`)).body.data.list.find(
        (entry) => entry.title === 'Maintenance' && entry.attempts === 1,
      ),
    'a first failed attempt',
  );
  assert.equal(waiting.errorCode, 'httpStatus');
  assert.equal(waiting.error, 'HTTP 503');
  http.smsStatus = 200;
  server.clock.advance(60_000);
  await until(
    async () =>
      (await admin.get<PagedList<Delivery>>(`/api/channels/deliveries?channelId=${sms.id}&status=sent`)).body.data.list.find(
        (entry) => entry.title === 'Maintenance' && entry.attempts === 2,
      ),
    'the retry',
  );
  assert.ok(http.calls.some((call) => call.path === '/sms' && JSON.stringify(call.body).includes('Tonight 22:00')));
});

test('administrators send in-site messages to a tenant; recipients count, read, delete; the unread count follows', async () => {
  const tenants = await admin.get<PagedList<{ id: string; parentId: string | null }>>('/api/tenants');
  const root = tenants.body.data.list.find((tenant) => tenant.parentId === null)!;
  const tenant = (await admin.post<{ id: string }>('/api/tenants', { parentId: root.id, name: 'Msg_Tenant', type: 'company' })).body.data;
  await admin.post('/api/user', {
    username: 'tenant-reader',
    realName: 'Tenant_Reader',
    tenantId: tenant.id,
    extraProp: { intProperty1: 1 },
    password: transform('Secret123'),
  });
  const reader = server.client();
  await reader.login('tenant-reader', 'Secret123');
  const sent = await admin.post<{ count: number }>('/api/messages', { title: 'Tenant news', content: 'Hello tenant', tenantId: tenant.id });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  assert.ok(sent.body.data.count >= 1);
  assert.equal((await reader.get<{ count: number }>('/api/messages/unread/count')).body.data.count, 1);
  const inbox = await reader.get<PagedList<Message>>('/api/messages?status=all');
  const message = inbox.body.data.list.find((entry) => entry.title === 'Tenant news')!;
  assert.equal(message.content, 'Hello tenant');
  const me = (await admin.get<{ user: { username: string; realName: string | null } }>('/api/cas/session')).body.data.user;
  assert.equal(message.sender, me.realName || me.username, 'the sender is shown with the message');
  assert.equal((await reader.put(`/api/messages/${message.id}/read`)).status, 200);
  assert.equal((await reader.get<{ count: number }>('/api/messages/unread/count')).body.data.count, 0);
  assert.equal((await admin.delete(`/api/messages/${message.id}`)).status, 404, 'not someone else’s');
  assert.equal((await reader.delete(`/api/messages/${message.id}`)).status, 200);
  assert.equal((await reader.get<PagedList<Message>>('/api/messages?status=all')).body.data.pager.total, 0);
  const none = await admin.post<{ fields: { field: string; rule: string }[] }>('/api/messages', { title: 'x', content: 'y' });
  assert.deepEqual(none.body.data.fields, [{ field: 'userIds', rule: 'rule.recipients' }]);
});

test('a tenant administrator sends only within their tenant subtree', async () => {
  const tenants = await admin.get<PagedList<{ id: string; parentId: string | null }>>('/api/tenants');
  const root = tenants.body.data.list.find((tenant) => tenant.parentId === null)!;
  const mine = (await admin.post<{ id: string }>('/api/tenants', { parentId: root.id, name: 'Own_Tenant', type: 'company' })).body.data;
  const other = (await admin.post<{ id: string }>('/api/tenants', { parentId: root.id, name: 'Other_Tenant', type: 'company' })).body.data;
  const created = await admin.post('/api/user', {
    username: 'tenant-boss',
    realName: 'Tenant_Boss',
    tenantId: mine.id,
    isAdmin: true,
    extraProp: { intProperty1: 1 },
    password: transform('Secret123'),
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const outsider = (
    await admin.post<{ id: string }>('/api/user', {
      username: 'outsider',
      realName: 'Out_Sider',
      tenantId: other.id,
      extraProp: { intProperty1: 1 },
      password: transform('Secret123'),
    })
  ).body.data;
  await admin.post('/api/user', {
    username: 'insider',
    realName: 'In_Sider',
    tenantId: mine.id,
    extraProp: { intProperty1: 1 },
    password: transform('Secret123'),
  });
  const boss = server.client();
  await boss.login('tenant-boss', 'Secret123');
  const own = await boss.post<{ count: number }>('/api/messages', { title: 'Team', content: 'Hi team', tenantId: mine.id });
  assert.equal(own.status, 200, JSON.stringify(own.body));
  assert.equal(own.body.data.count, 2, 'the insider and the administrator');
  assert.equal((await boss.post('/api/messages', { title: 'x', content: 'y', tenantId: other.id })).status, 400);
  assert.equal((await boss.post('/api/messages', { title: 'x', content: 'y', userIds: [outsider.id] })).status, 400);
  assert.equal((await boss.get('/api/channels')).status, 403, 'channels are platform settings');
});

test('an in-site message through a channel: the delivery log names the recipient and its one attempt; codes come from the system', async () => {
  const channel = await createChannel({ name: 'Site notices', serviceType: 'SITE_MESSAGE', vendor: 'site', config: {} });
  await admin.post('/api/user', { username: 'log-recipient', realName: 'Log_Recipient', email: 'recipient@example.com', password: transform('Secret123') });
  const recipient = server.client();
  await recipient.login('log-recipient', 'Secret123');
  const me = (await recipient.get<{ user: { id: string } }>('/api/cas/session')).body.data.user;
  const sent = await admin.post<{ count: number }>('/api/messages', { title: 'Via channel', content: 'Hello', userIds: [me.id], channelId: channel.id });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  const log = await admin.get<PagedList<Delivery>>(`/api/channels/deliveries?channelId=${channel.id}`);
  const entry = log.body.data.list.find((row) => row.title === 'Via channel')!;
  assert.equal(entry.recipientName, 'log-recipient', 'the recipient, not "—"');
  assert.equal(entry.attempts, 1, 'delivered into the inbox in one attempt, not 0');
  // The console's "Send through" offers the in-site inbox once: in-site channels are not among the options.
  const options = (await admin.get<{ id: string }[]>('/api/channels/options')).body.data;
  assert.equal(
    options.some((option) => option.id === channel.id),
    false,
    'an in-site channel beside the in-site inbox',
  );

  // A code the console sends itself has no sender: the history shows "System" for it.
  assert.equal((await server.client().post('/api/user/password/reset-code', { identifier: 'recipient@example.com' })).status, 200);
  // The reset code is issued after the answer (the answer's timing says nothing about the account).
  const history = async () => (await recipient.get<PagedList<Message>>('/api/messages/history')).body.data.list;
  const code = await until(async () => (await history()).find((row) => row.serviceType === 'EMAIL'), 'the reset code in the history');
  assert.equal(code.sender, null);
  assert.notEqual((await history()).find((row) => row.title === 'Via channel')?.sender, null);
});
