// E-mail addresses and mobile phones belong to one person each: unique in any letter case,
// enforced by the database (parallel creates), for administrators too; and a change of one's own
// address applies only once the code sent to the NEW address (real SMTP and SMS receivers) is
// confirmed, so nobody takes over another person's address through their profile.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, startServer, transform, type Client, type TestServer } from './harness';
import { startHttpReceiver, startSmtp, until, type HttpReceiver, type SmtpReceiver } from './receivers';
import type { User } from '../../src/core/types';

const SMTP = { user: 'mailer', password: 'smtp-pass-42' };
const ROBOT_TOKEN = 'robot-token-0123456789';

type Fields = { fields: { field: string; rule: string }[] };

let server: TestServer;
let smtp: SmtpReceiver;
let http: HttpReceiver;
let admin: Client;

before(async () => {
  // Its channels post to receivers on this machine: the operator allows private addresses.
  [server, smtp, http] = await Promise.all([
    startServer({ outboundAllowPrivate: true }),
    startSmtp(SMTP.user, SMTP.password),
    startHttpReceiver({ robotToken: ROBOT_TOKEN, dingTalkSecret: 'SEC-x' }),
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
});
after(async () => {
  await Promise.all([server.stop(), smtp.stop(), http.stop()]);
});

async function makeUser(fields: Record<string, unknown>) {
  const answer = await admin.post<User>('/api/user', { realName: 'Some_User', password: transform('Secret123'), ...fields });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data;
}

async function signIn(username: string) {
  const client = server.client();
  const answer = await client.login(username, 'Secret123');
  assert.equal(answer.body.data?.loginSuccess, true, JSON.stringify(answer.body));
  return client;
}

/** A refusal naming `field` with `rule` (400 or 409). */
function assertTaken(answer: { status: number; body: { data: unknown } }, field: string, rule: string, what: string) {
  assert.ok(answer.status === 400 || answer.status === 409, `${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  assert.deepEqual((answer.body.data as Fields).fields, [{ field, rule }], what);
}

async function withLoginMethod(loginMethod: string, run: () => Promise<void>) {
  const current = await admin.get<{ version: number; value: { loginMethod: string } }>('/api/settings/login');
  const saved = await admin.put<{ version: number }>('/api/settings/login', { loginMethod, version: current.body.data.version });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  try {
    await run();
  } finally {
    const now = await admin.get<{ version: number }>('/api/settings/login');
    const restored = await admin.put('/api/settings/login', { loginMethod: current.body.data.value.loginMethod, version: now.body.data.version });
    assert.equal(restored.status, 200, `the sign-in method back for the next tests: ${JSON.stringify(restored.body)}`);
  }
}

const mailTo = (address: string, after = 0) => until(() => smtp.mails.slice(after).find((mail) => mail.to.includes(address)), `a mail to ${address}`);
const smsTo = (phone: string, after = 0) =>
  until(() => http.calls.slice(after).find((call) => call.path === '/sms' && (call.body as { phone?: string }).phone === phone), `an SMS to ${phone}`);
const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1];

describe('one address, one person', () => {
  test("a profile cannot take another person's e-mail (any letter case) or phone; the owner still signs in by e-mail", async () => {
    const owner = await makeUser({ username: 'owner', email: 'Owner@Example.com', mobilePhone: '13700000001' });
    const squatter = await makeUser({ username: 'squatter', email: 'squatter@example.com' });
    const client = await signIn('squatter');
    for (const email of ['Owner@Example.com', 'owner@example.com', 'OWNER@EXAMPLE.COM']) {
      assertTaken(
        await client.put('/api/user/profile', { currentPassword: transform('Secret123'), realName: 'Squat_Ter', email }),
        'email',
        'rule.emailTaken',
        `profile ${email}`,
      );
      assertTaken(
        await client.put(`/api/user/${squatter.id}/basic_info`, { currentPassword: transform('Secret123'), realName: 'Squat_Ter', email }),
        'email',
        'rule.emailTaken',
        `basic_info ${email}`,
      );
    }
    assertTaken(
      await client.put('/api/user/profile', { currentPassword: transform('Secret123'), realName: 'Squat_Ter', mobilePhone: '13700000001' }),
      'mobilePhone',
      'rule.mobilePhoneTaken',
      'profile phone',
    );
    assertTaken(
      await client.put(`/api/user/${squatter.id}/basic_info`, { currentPassword: transform('Secret123'), realName: 'Squat_Ter', mobilePhone: '13700000001' }),
      'mobilePhone',
      'rule.mobilePhoneTaken',
      'basic_info phone',
    );

    const read = await admin.get<User>(`/api/user/${owner.id}`);
    assert.equal(read.body.data.email, 'Owner@Example.com');
    const mine = await admin.get<User>(`/api/user/${squatter.id}`);
    assert.equal(mine.body.data.email, 'squatter@example.com');
    assert.equal(mine.body.data.mobilePhone, undefined);
    await withLoginMethod('EMAIL_PASSWORD', async () => {
      // The address is one in any letter case: it signs in as typed in any case.
      for (const typed of ['Owner@Example.com', 'owner@example.com', 'OWNER@EXAMPLE.COM']) {
        assert.equal((await server.client().login(typed, 'Secret123')).body.data?.loginSuccess, true, `the owner signs in by e-mail as ${typed}`);
      }
    });
    const before = smtp.mails.length;
    assert.equal((await server.client().post('/api/user/password/reset-code', { identifier: 'OWNER@example.COM' })).status, 200);
    await mailTo('Owner@example.com', before); // the reset reached the owner (SMTP writes the domain in lower case)
  });

  test('administrators cannot give two people the same address either', async () => {
    assertTaken(
      await admin.post('/api/user', { username: 'copycat', realName: 'Copy_Cat', password: transform('Secret123'), email: 'OWNER@example.com' }),
      'email',
      'rule.emailTaken',
      'create email',
    );
    assertTaken(
      await admin.post('/api/user', { username: 'copycat', realName: 'Copy_Cat', password: transform('Secret123'), mobilePhone: '13700000001' }),
      'mobilePhone',
      'rule.mobilePhoneTaken',
      'create phone',
    );
    const other = await makeUser({ username: 'other-one' });
    // (An administrator's change of someone's address takes the administrator's own password.)
    const mine = transform(ADMIN.password);
    assertTaken(
      await admin.put(`/api/user/${other.id}`, { email: 'owner@EXAMPLE.com', version: other.version, currentPassword: mine }),
      'email',
      'rule.emailTaken',
      'update email',
    );
    assertTaken(
      await admin.put(`/api/user/${other.id}`, { mobilePhone: '13700000001', version: other.version, currentPassword: mine }),
      'mobilePhone',
      'rule.mobilePhoneTaken',
      'update phone',
    );
    assertTaken(
      await admin.put(`/api/user/${other.id}/basic_info`, { realName: 'Other_One', email: 'owner@example.com', currentPassword: mine }),
      'email',
      'rule.emailTaken',
      'basic_info email',
    );
    // An administrator sets another person's address directly (no code), and clearing frees it.
    const direct = await admin.put<User>(`/api/user/${other.id}/basic_info`, {
      realName: 'Other_One',
      email: 'other@example.com',
      mobilePhone: '13700000002',
      currentPassword: mine,
    });
    assert.equal(direct.status, 200, JSON.stringify(direct.body));
    assert.equal((await admin.get<User>(`/api/user/${other.id}`)).body.data.email, 'other@example.com');
    const cleared = await admin.put<User>(`/api/user/${other.id}`, { email: '', mobilePhone: '', version: other.version + 1, currentPassword: mine });
    assert.equal(cleared.status, 200, JSON.stringify(cleared.body));
    assert.equal(cleared.body.data.email, undefined);
    assert.equal(
      (await admin.put(`/api/user/${other.id}`, { realName: 'Other_One', version: cleared.body.data.version })).status,
      200,
      'several people without an address',
    );
    await makeUser({ username: 'no-contact-1' });
    await makeUser({ username: 'no-contact-2', email: '', mobilePhone: '' });
  });

  test('parallel creates with the same e-mail (letter case varies) or phone: exactly one wins', async () => {
    const emails = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        admin.post('/api/user', {
          username: `race-mail-${index}`,
          realName: 'Race_User',
          password: transform('Secret123'),
          email: index % 2 ? 'Race@Example.com' : 'race@example.com',
        }),
      ),
    );
    assert.equal(emails.filter((answer) => answer.status === 200).length, 1, emails.map((answer) => answer.status).join());
    for (const answer of emails.filter((entry) => entry.status !== 200)) assertTaken(answer, 'email', 'rule.emailTaken', 'parallel email');
    const phones = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        admin.post('/api/user', { username: `race-phone-${index}`, realName: 'Race_User', password: transform('Secret123'), mobilePhone: '13711112222' }),
      ),
    );
    assert.equal(phones.filter((answer) => answer.status === 200).length, 1, phones.map((answer) => answer.status).join());
    for (const answer of phones.filter((entry) => entry.status !== 200)) assertTaken(answer, 'mobilePhone', 'rule.mobilePhoneTaken', 'parallel phone');
  });
});

describe('changing my own address', () => {
  test('takes the current password (a session alone does not move where a reset goes); wrong guesses count towards the lockout', async () => {
    await makeUser({ username: 'guarded', email: 'guarded@example.com' });
    const client = await signIn('guarded');
    const change = (currentPassword?: string) =>
      client.put<{ fields: unknown[] }>('/api/user/profile', {
        realName: 'Guard_Ed',
        email: 'guarded-new@example.com',
        ...(currentPassword ? { currentPassword } : {}),
      });
    const bare = await change();
    assert.deepEqual([bare.status, bare.body.data.fields], [400, [{ field: 'currentPassword', rule: 'rule.required' }]]);
    const wrong = await change(transform('Wrong1234'));
    assert.deepEqual([wrong.status, wrong.body.data.fields], [400, [{ field: 'currentPassword', rule: 'rule.wrongPassword' }]]);
    const failures = await server.app.ctx.db.selectFrom('loginThrottle').select('failures').where('username', '=', 'username:guarded').executeTakeFirst();
    assert.equal(failures?.failures, 1, 'the wrong guess is a sign-in failure of the account');
    assert.equal((await change(transform('Secret123'))).status, 200);
    assert.equal(
      await server.app.ctx.db.selectFrom('loginThrottle').select('failures').where('username', '=', 'username:guarded').executeTakeFirst(),
      undefined,
      'the right password clears the count as a sign-in does',
    );
    const unchanged = await client.put('/api/user/profile', { realName: 'Guard_Ed_Two', email: 'guarded@example.com' });
    assert.equal(unchanged.status, 200, 'other fields need no password');
  });

  test('a new e-mail applies only with the code mailed to the new address; a wrong code changes nothing', async () => {
    const mover = await makeUser({ username: 'mover', email: 'old@example.com' });
    const client = await signIn('mover');
    const mails = smtp.mails.length;
    const asked = await client.put<{ email: string; pendingEmail: string }>('/api/user/profile', {
      currentPassword: transform('Secret123'),
      realName: 'Mover_Name',
      email: 'new@example.com',
    });
    assert.equal(asked.status, 200, JSON.stringify(asked.body));
    assert.equal(asked.body.data.email, 'old@example.com', 'the old address stays in force');
    assert.equal(asked.body.data.pendingEmail, 'new@example.com', 'the answer says a code was sent');
    assert.equal((await admin.get<User>(`/api/user/${mover.id}`)).body.data.realName, 'Mover_Name', 'the other fields are saved');
    const mail = await mailTo('new@example.com', mails);
    const code = codeIn(mail.raw);
    assert.ok(code, 'the mail carries a code');
    assert.ok(!smtp.mails.slice(mails).some((entry) => entry.to.includes('old@example.com')), 'nothing to the old address');

    const wrong = await client.post<Fields>('/api/user/profile/contact/confirm', { channel: 'email', code: code === '000000' ? '111111' : '000000' });
    assert.equal(wrong.status, 400);
    assert.deepEqual(wrong.body.data.fields, [{ field: 'code', rule: 'rule.code' }]);
    assert.equal((await admin.get<User>(`/api/user/${mover.id}`)).body.data.email, 'old@example.com');
    await withLoginMethod('EMAIL_PASSWORD', async () => {
      assert.equal((await server.client().login('new@example.com', 'Secret123')).status, 401, 'not yet by the new address');
      assert.equal((await server.client().login('old@example.com', 'Secret123')).body.data?.loginSuccess, true, 'still by the old one');
    });

    const confirmed = await client.post<{ email: string }>('/api/user/profile/contact/confirm', { channel: 'email', code });
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    assert.equal(confirmed.body.data.email, 'new@example.com');
    assert.equal((await admin.get<User>(`/api/user/${mover.id}`)).body.data.email, 'new@example.com');
    assert.equal((await client.post('/api/user/profile/contact/confirm', { channel: 'email', code })).status, 400, 'a code works once');
  });

  test('a new phone applies only with the code sent to it by SMS; wrong codes are limited', async () => {
    const client = await signIn('mover');
    server.clock.advance(61_000);
    const calls = http.calls.length;
    const asked = await client.put<{ mobilePhone?: string; pendingMobilePhone: string }>('/api/user/profile', {
      currentPassword: transform('Secret123'),
      realName: 'Mover_Name',
      mobilePhone: '13700000009',
    });
    assert.equal(asked.status, 200, JSON.stringify(asked.body));
    assert.equal(asked.body.data.mobilePhone, undefined);
    assert.equal(asked.body.data.pendingMobilePhone, '13700000009');
    const code = codeIn(JSON.stringify((await smsTo('13700000009', calls)).body));
    assert.ok(code, 'the SMS carries a code');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      assert.equal(
        (await client.post('/api/user/profile/contact/confirm', { channel: 'mobilePhone', code: code === '000000' ? '111111' : '000000' })).status,
        400,
      );
    }
    const late = await client.post('/api/user/profile/contact/confirm', { channel: 'mobilePhone', code });
    assert.equal(late.status, 400, 'after five wrong codes the right one no longer works');
    const moverId = (await admin.get<{ list: User[] }>('/api/user?searchProp=username&searchValue=mover')).body.data.list[0]!.id;
    assert.equal((await admin.get<User>(`/api/user/${moverId}`)).body.data.mobilePhone, undefined);

    server.clock.advance(61_000);
    const again = http.calls.length;
    assert.equal(
      (await client.put('/api/user/profile', { currentPassword: transform('Secret123'), realName: 'Mover_Name', mobilePhone: '13700000009' })).status,
      200,
    );
    const second = codeIn(JSON.stringify((await smsTo('13700000009', again)).body));
    const confirmed = await client.post<{ mobilePhone: string }>('/api/user/profile/contact/confirm', { channel: 'mobilePhone', code: second });
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    assert.equal((await admin.get<User>(`/api/user/${moverId}`)).body.data.mobilePhone, '13700000009');
  });

  test('the address is checked again when the code is confirmed', async () => {
    const client = await signIn('mover');
    server.clock.advance(61_000);
    const mails = smtp.mails.length;
    assert.equal(
      (await client.put('/api/user/profile', { currentPassword: transform('Secret123'), realName: 'Mover_Name', email: 'contested@example.com' })).status,
      200,
    );
    const code = codeIn((await mailTo('contested@example.com', mails)).raw);
    // Meanwhile an administrator gives that address to someone else.
    await makeUser({ username: 'quicker', email: 'Contested@example.com' });
    assertTaken(await client.post('/api/user/profile/contact/confirm', { channel: 'email', code }), 'email', 'rule.emailTaken', 'confirm');
    const moverId = (await admin.get<{ list: User[] }>('/api/user?searchProp=username&searchValue=mover')).body.data.list[0]!.id;
    assert.equal((await admin.get<User>(`/api/user/${moverId}`)).body.data.email, 'new@example.com');
  });
});
