// One-time codes delivered for real (local SMTP server and SMS vendor): "forgot password" (single
// use, wrong codes counted, rate limited, same answer for unknown accounts) and email verification
// links to /verified/{code}.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { lastAuditId, startServer, transform, type Client, type TestServer } from './harness';
import { startHttpReceiver, startSmtp, until, type HttpReceiver, type SmtpReceiver } from './receivers';

const SMTP = { user: 'mailer', password: 'smtp-pass-42' };
let server: TestServer;
let smtp: SmtpReceiver;
let http: HttpReceiver;
let admin: Client;

before(async () => {
  // Its channels post to receivers on this machine: the operator allows private addresses.
  [server, smtp, http] = await Promise.all([
    startServer({ outboundAllowPrivate: true }),
    startSmtp(SMTP.user, SMTP.password),
    startHttpReceiver({ robotToken: 'robot-token-0123456789', dingTalkSecret: 'SEC-x' }),
  ]);
  admin = await server.admin();
  for (const channel of [
    {
      name: 'Mail relay',
      serviceType: 'EMAIL',
      vendor: 'smtp',
      config: { host: '127.0.0.1', port: String(smtp.port), security: 'none', username: SMTP.user, password: SMTP.password, from: 'iam@example.com' },
    },
    {
      name: 'SMS vendor',
      serviceType: 'SMS',
      vendor: 'acme-sms',
      config: { url: `${http.base}/sms`, templateId: 'TPL_001', signName: 'ACME', accessKeyId: 'key-1', accessSecret: 'sms-secret' },
    },
  ]) {
    const created = await admin.post('/api/channels', channel);
    assert.equal(created.status, 200, JSON.stringify(created.body));
  }
  const user = await admin.post('/api/user', {
    username: 'forgetful',
    realName: 'Forgetful',
    email: 'forgetful@example.com',
    mobilePhone: '13912345678',
    password: transform('Old12345'),
  });
  assert.equal(user.status, 200, JSON.stringify(user.body));
});
after(async () => {
  await Promise.all([server.stop(), smtp.stop(), http.stop()]);
});

/** The reset codes mailed to forgetful (the new-device notices of server/auth/devices.ts go there too). */
const resetMails = () => smtp.mails.filter((entry) => entry.to.includes('forgetful@example.com') && entry.raw.includes('reset code is'));
const resetCode = (identifier: string) => server.client().post('/api/user/password/reset-code', { identifier });
const reset = (code: string, password: string, identifier = 'forgetful@example.com') =>
  server.client().put('/api/user/password', { identifier, code, password: transform(password) });

test('a code by email resets the password once; the old password and sessions stop working', async () => {
  const before = server.client();
  assert.equal((await before.login('forgetful', 'Old12345')).body.data.loginSuccess, true);
  assert.equal((await resetCode('forgetful@example.com')).status, 200);
  const mail = await until(() => smtp.mails.find((entry) => entry.to.includes('forgetful@example.com')), 'the reset code by email');
  const code = /reset code is (\d{6})/.exec(mail.raw)?.[1];
  assert.ok(code, 'the mail carries the code');
  const stored = await server.app.ctx.db.selectFrom('messages').select('content').where('address', '=', 'forgetful@example.com').executeTakeFirstOrThrow();
  assert.ok(stored.content.includes(code));

  assert.equal((await reset(code === '000000' ? '111111' : '000000', 'New12345')).status, 400);
  assert.equal((await reset(code, 'New12345')).status, 200);
  assert.equal((await reset(code, 'Other123')).status, 400, 'a code works once');
  assert.equal((await before.get('/api/cas/session')).status, 401, 'sessions end with the reset');
  assert.equal((await server.client().login('forgetful', 'Old12345')).status, 401);
  assert.equal((await server.client().login('forgetful', 'New12345')).body.data.loginSuccess, true);
});

test('a code by SMS; asking again within a minute sends nothing new; unknown accounts get the same answer', async () => {
  server.clock.advance(61_000);
  assert.equal((await resetCode('13912345678')).status, 200);
  const sms = await until(
    () => http.calls.find((call) => call.path === '/sms' && (call.body as { phone?: string }).phone === '13912345678'),
    'the reset code by SMS',
  );
  const code = /\b(\d{6})\b/.exec(JSON.stringify(sms.body))?.[1];
  assert.ok(code);
  const sentBefore = http.calls.length;
  assert.equal((await resetCode('13912345678')).status, 200, 'answered alike');
  assert.equal((await resetCode('13800000000')).status, 200, 'unknown accounts are not revealed');
  const queued = await server.app.ctx.db.selectFrom('messages').select('id').where('address', '=', '13912345678').execute();
  assert.equal(queued.length, 1, 'no second code within the minute');
  assert.equal(http.calls.length, sentBefore);
  assert.equal((await reset(code, 'Sms12345', '13912345678')).status, 200);
  assert.equal((await server.client().login('forgetful', 'Sms12345')).body.data.loginSuccess, true);
});

test('a code dies after five wrong tries and after its ten minutes', async () => {
  server.clock.advance(61_000);
  await resetCode('forgetful@example.com');
  const mail = await until(() => resetMails()[1], 'a second mail');
  const code = /reset code is (\d{6})/.exec(mail.raw)![1]!;
  const wrong = code === '000000' ? '111111' : '000000';
  for (let attempt = 0; attempt < 5; attempt++) assert.equal((await reset(wrong, 'Try12345')).status, 400);
  assert.equal((await reset(code, 'Try12345')).status, 400, 'locked after five wrong tries');

  server.clock.advance(61_000);
  await resetCode('forgetful@example.com');
  const third = await until(() => resetMails()[2], 'a third mail');
  server.clock.advance(10 * 60_000 + 1);
  assert.equal((await reset(/reset code is (\d{6})/.exec(third.raw)![1]!, 'Late1234')).status, 400, 'expired');
});

test("wrong reset codes are failed resets in the person's record (no webhook says the password changed); an address nobody has leaves none", async () => {
  const [person] = await server.app.ctx.db.selectFrom('users').select(['id', 'tenantId']).where('username', '=', 'forgetful').execute();
  const webhook = await admin.post<{ id: string }>('/api/webhooks', { url: `${http.base}/hooks`, events: ['user.password_changed'] });
  assert.equal(webhook.status, 200, JSON.stringify(webhook.body));
  const since = await lastAuditId(server);
  for (const code of ['000000', '111111']) assert.equal((await reset(code, 'Guess1234')).status, 400);
  assert.equal((await reset('000000', 'Guess1234', 'nobody-here@example.com')).status, 400);
  const rows = await server.app.ctx.db.selectFrom('auditLog').selectAll().where('id', '>', since).execute();
  assert.deepEqual(
    rows.map(({ action, targetId, tenantId, success, detail }) => ({ action, targetId, tenantId, success, detail: JSON.parse(detail) as unknown })),
    Array.from({ length: 2 }, () => ({
      action: 'password.reset',
      targetId: person!.id,
      tenantId: person!.tenantId,
      success: 0,
      detail: { via: 'code', reason: 'wrong_code' },
    })),
  );
  assert.equal((await server.app.ctx.db.selectFrom('webhookDeliveries').select('id').where('webhookId', '=', webhook.body.data.id).execute()).length, 0);
  assert.equal((await admin.delete(`/api/webhooks/${webhook.body.data.id}`)).status, 200);
});

test('an email verification link lands on /verified/{code} and works once', async () => {
  const person = server.client();
  assert.equal((await person.login('forgetful', 'Sms12345')).body.data.loginSuccess, true);
  assert.equal((await person.post('/api/user/email/verification')).status, 200);
  const mail = await until(() => smtp.mails.find((entry) => entry.raw.includes('/verified/')), 'the verification mail');
  const link = new URL(/(http:\/\/127\.0\.0\.1:\d+\/verified\/[\w-]+)/.exec(mail.raw.replace(/=\r?\n/g, ''))![1]!);
  assert.equal(link.origin, server.base);
  const code = link.pathname.split('/').pop()!;
  const used = await server.client().post<{ username: string; email: string }>(`/api/verified/${code}`);
  assert.deepEqual(used.body.data, { username: 'forgetful', email: 'forgetful@example.com' });
  const again = await server.client().post<{ reason: string }>(`/api/verified/${code}`);
  assert.deepEqual([again.status, again.body.data.reason], [410, 'used'], 'a link works once');
  const unknown = await server.client().post<{ reason: string }>(`/api/verified/${'x'.repeat(43)}`);
  assert.deepEqual([unknown.status, unknown.body.data.reason], [404, 'unknown']);
  const row = await server.app.ctx.db.selectFrom('users').select('extraProp').where('username', '=', 'forgetful').executeTakeFirstOrThrow();
  assert.equal((JSON.parse(row.extraProp) as { emailVerified: string }).emailVerified, 'forgetful@example.com');
  assert.equal((await server.client().post('/api/user/email/verification')).status, 401);
});

test('an email verification link expires after a day, and says so', async () => {
  server.clock.advance(61_000);
  const person = server.client();
  assert.equal((await person.login('forgetful', 'Sms12345')).body.data.loginSuccess, true);
  const mailsBefore = smtp.mails.filter((entry) => entry.raw.includes('/verified/')).length;
  assert.equal((await person.post('/api/user/email/verification')).status, 200);
  const mail = await until(() => smtp.mails.filter((entry) => entry.raw.includes('/verified/'))[mailsBefore], 'a second verification mail');
  const code = /\/verified\/([\w-]+)/.exec(mail.raw.replace(/=\r?\n/g, ''))![1]!;
  server.clock.advance(24 * 60 * 60_000 + 1);
  const late = await server.client().post<{ reason: string }>(`/api/verified/${code}`);
  assert.deepEqual([late.status, late.body.data.reason], [410, 'expired']);
});

test('a reset refuses the phone number or address of nobody, and a malformed identifier', async () => {
  assert.equal((await reset('123456', 'Whatever1', '13800000000')).status, 400);
  const malformed = await server.client().post<{ fields: { field: string; rule: string }[] }>('/api/user/password/reset-code', { identifier: 'forgetful' });
  assert.deepEqual(
    malformed.body.data.fields.map((field) => field.rule),
    ['rule.emailOrPhone'],
  );
});
