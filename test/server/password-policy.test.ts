// The password policy's history and expiry on the server: a password among the last N is refused
// on the own change, the administrator's reset and the reset with a code (which keeps its code);
// an expired password signs in only into a forced change (PUT /authc/password/expired), which
// needs the sign-in's grant (its step ticket, answered to that client only) and the old password,
// and opens the session.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, lastAuditId, startServer, transform, type Client, type TestServer } from './harness';
import { auditSince } from './audit-rows';
import { startSmtp, until, type SmtpReceiver } from './receivers';
import type { LoginSettings } from '../../src/core/schemas/settings';

const SMTP = { user: 'mailer', password: 'smtp-pass-42' };
const EMAIL = 'keeper@example.com';
const DAY = 24 * 60 * 60_000;

let server: TestServer;
let smtp: SmtpReceiver;
let admin: Client;
let userId: string;

type Fields = { fields: { field: string; rule: string }[] };

before(async () => {
  [server, smtp] = await Promise.all([startServer(), startSmtp(SMTP.user, SMTP.password)]);
  admin = await server.admin();
  const channel = await admin.post('/api/channels', {
    name: 'Mail relay',
    serviceType: 'EMAIL',
    vendor: 'smtp',
    config: { host: '127.0.0.1', port: String(smtp.port), security: 'none', username: SMTP.user, password: SMTP.password, from: 'iam@example.com' },
  });
  assert.equal(channel.status, 200, JSON.stringify(channel.body));
  const created = await admin.post<{ id: string }>('/api/user', { username: 'keeper', realName: 'Keeper', email: EMAIL, password: transform('First123') });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  userId = created.body.data.id;
});
after(async () => {
  await Promise.all([server.stop(), smtp.stop()]);
});

async function policy(changes: Partial<LoginSettings['passwordPolicy']>) {
  const current = await admin.get<{ value: LoginSettings; version: number }>('/api/settings/login');
  const saved = await admin.put('/api/settings/login', {
    passwordPolicy: { ...current.body.data.value.passwordPolicy, ...changes },
    version: current.body.data.version,
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
}

async function signedIn(password: string): Promise<Client> {
  const client = server.client();
  const answer = await client.login('keeper', password);
  assert.equal(answer.body.data.loginSuccess, true, JSON.stringify(answer.body));
  return client;
}

const ownChange = async (from: string, to: string) =>
  (await signedIn(from)).put<Fields>('/api/user/password', { password: transform(to), opUserPassword: transform(from) });

test('history: the last N passwords (the current one included) are refused on the own change', async () => {
  await policy({ history: 3 });
  const same = await ownChange('First123', 'First123');
  assert.equal(same.status, 400);
  assert.deepEqual(same.body.data.fields, [{ field: 'password', rule: 'rule.passwordReused?count=3' }]);
  assert.equal((await ownChange('First123', 'Second123')).status, 200);
  assert.equal((await ownChange('Second123', 'First123')).status, 400, 'one change ago');
  assert.equal((await ownChange('Second123', 'Third123')).status, 200);
  assert.equal((await ownChange('Third123', 'First123')).status, 400, 'two changes ago');
  assert.equal((await ownChange('Third123', 'Fourth123')).status, 200);
  assert.equal((await ownChange('Fourth123', 'First123')).status, 200, 'three changes ago: out of the last three');
});

test("history: the administrator's reset and the reset with a code refuse it too; a refused reset keeps its code", async () => {
  const reset = await admin.post<Fields>(`/api/user/${userId}/password`, {
    id: userId,
    username: 'keeper',
    password: transform('Fourth123'),
    opUserPassword: transform(ADMIN.password),
  });
  assert.deepEqual([reset.status, reset.body.data.fields], [400, [{ field: 'password', rule: 'rule.passwordReused?count=3' }]]);

  assert.equal((await server.client().post('/api/user/password/reset-code', { identifier: EMAIL })).status, 200);
  const mail = await until(() => smtp.mails.find((entry) => entry.to.includes(EMAIL) && entry.raw.includes('reset code is')), 'the reset code');
  const code = /reset code is (\d{6})/.exec(mail.raw)![1]!;
  const withCode = (password: string) => server.client().put<Fields>('/api/user/password', { identifier: EMAIL, code, password: transform(password) });
  const reused = await withCode('Fourth123');
  assert.deepEqual([reused.status, reused.body.data.fields], [400, [{ field: 'password', rule: 'rule.passwordReused?count=3' }]]);
  assert.equal((await withCode('Fifth123')).status, 200, 'the code still works after the refusal');
  assert.equal((await withCode('Sixth123')).status, 400, 'and then it is used up');
  await signedIn('Fifth123');
});

test('expiry: an old password signs in only into a forced change, which opens the session', async () => {
  await policy({ expiryDays: 30 });
  await signedIn('Fifth123'); // not expired yet
  server.clock.advance(31 * DAY);

  const browser = server.client();
  const answer = await browser.login('keeper', 'Fifth123');
  const { stepTicket, ...rest } = answer.body.data as { stepTicket?: string };
  assert.deepEqual(
    { ...rest, redirectURL: undefined },
    { hasNextStep: true, nextStep: 'PASSWORD_EXPIRED', loginSuccess: false, message: 'Your password has expired; choose a new one', redirectURL: undefined },
  );
  assert.match(stepTicket ?? '', /^[\w-]+\.[\w-]{43}$/, 'the grant is a ticket for this client');
  assert.equal((await browser.get('/api/cas/session')).status, 401, 'no session yet');

  const change = (password: string, newPassword: string, client = browser) =>
    client.put<Record<string, unknown>>('/api/authc/password/expired', {
      stepTicket,
      username: 'keeper',
      password: transform(password),
      newPassword: transform(newPassword),
    });
  const beforeWrongOld = await lastAuditId(server);
  assert.equal((await change('Wrong1234', 'Seventh123')).status, 401, 'the old password is checked');
  const refused = (await auditSince(server, beforeWrongOld)).map(({ action, targetId, success }) => ({ action, targetId, success }));
  assert.deepEqual(refused, [{ action: 'login.failure', targetId: userId, success: 0 }], 'a wrong old password is a failed sign-in of the person, on record');
  const reused = await change('Fifth123', 'Fifth123');
  assert.equal(reused.status, 400, 'the history applies');
  const done = await change('Fifth123', 'Seventh123');
  assert.equal(done.body.data.loginSuccess, true, JSON.stringify(done.body));
  assert.equal((await browser.get('/api/cas/session')).status, 200, 'the change opened the session');
  assert.equal((await change('Seventh123', 'Eighth123', server.client())).status, 401, 'the grant is used up');
  await signedIn('Seventh123'); // fresh again: no forced change
});

test('expiry: without the sign-in (the grant), the old password alone cannot change an expired one', async () => {
  server.clock.advance(31 * DAY);
  const body = { username: 'keeper', password: transform('Seventh123'), newPassword: transform('Ninth1234') };
  const without = await server.client().put<{ fields: { field: string }[] }>('/api/authc/password/expired', body);
  assert.deepEqual([without.status, without.body.data?.fields.map(({ field }) => field)], [400, ['stepTicket']]);
  const forged = await server.client().put('/api/authc/password/expired', { ...body, stepTicket: `${'a'.repeat(20)}.${'b'.repeat(43)}` });
  assert.equal(forged.status, 401);
  const again = await server.client().login('keeper', 'Seventh123');
  assert.equal(again.body.data.nextStep, 'PASSWORD_EXPIRED', 'the password was not changed');
});
