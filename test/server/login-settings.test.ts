// Login management: the password policy is validated (length within the validation rules, max ≥ min), the public
// part of the sign-in policy is readable before sign-in (without lockout details), and the server
// follows a saved change at once: captcha, login method, lockout threshold, idle timeout; the
// PHONE_CAPTCHA login method and the TOTP second auth.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { TOTP, URI } from 'otpauth';
import { ADMIN, startServer, transform, type Client, type TestServer } from './harness';
import { startHttpReceiver, until, type HttpReceiver } from './receivers';
import type { LoginSettings, PublicLoginSettings } from '../../src/core/schemas/settings';

let server: TestServer;
let admin: Client;

before(async () => {
  // Its channels post to receivers on this machine: the operator allows private addresses.
  server = await startServer({ outboundAllowPrivate: true });
  admin = await server.admin();
  await admin.post('/api/user', { username: 'policy-user', realName: 'Policy_User', email: 'policy@example.com', password: transform('Secret123') });
  await startSms();
});
after(async () => {
  await Promise.all([server.stop(), sms?.stop()]);
});

async function change(changes: Partial<LoginSettings>) {
  const current = await admin.get<{ value: LoginSettings; version: number }>('/api/settings/login');
  const saved = await admin.put<{ value: LoginSettings; version: number }>('/api/settings/login', { ...changes, version: current.body.data.version });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  return saved.body.data.value;
}

test('the password policy keeps its length within and its maximum above its minimum', async () => {
  const current = await admin.get<{ value: LoginSettings; version: number }>('/api/settings/login');
  const policy = current.body.data.value.passwordPolicy;
  assert.deepEqual(policy, { minLength: 6, maxLength: 20, requireUppercase: false, requireLowercase: false, requireSymbol: false, history: 0, expiryDays: 0 });
  const tooShort = await admin.put<{ fields: { field: string; rule: string }[] }>('/api/settings/login', {
    passwordPolicy: { ...policy, minLength: 4 },
    version: current.body.data.version,
  });
  assert.deepEqual(tooShort.body.data.fields, [{ field: 'passwordPolicy.minLength', rule: 'rule.range?min=6&max=20' }]);
  const crossed = await admin.put<{ fields: { field: string; rule: string }[] }>('/api/settings/login', {
    passwordPolicy: { ...policy, minLength: 12, maxLength: 8 },
    version: current.body.data.version,
  });
  assert.deepEqual(crossed.body.data.fields, [{ field: 'passwordPolicy.maxLength', rule: 'settings:rule.passwordMaxLength' }]);
  const saved = await change({ passwordPolicy: { ...policy, minLength: 10, requireSymbol: true, history: 5, expiryDays: 90 } });
  assert.equal(saved.passwordPolicy.minLength, 10);
  assert.equal(saved.maxFailures, current.body.data.value.maxFailures, 'other settings keep their values');
});

test('the public sign-in policy is readable before sign-in and tells nothing about lockout', async () => {
  const answer = await server.client().get<PublicLoginSettings>('/api/settings/login/public');
  assert.equal(answer.status, 200);
  assert.deepEqual(Object.keys(answer.body.data).sort(), [
    'background',
    'backgroundType',
    'captchaEnabled',
    'captchaKind',
    'captchaLength',
    'directorySignIn',
    'fieldRules',
    'loginMethod',
    'passkeyRpId',
    'passwordPolicy',
    'secondAuth',
  ]);
  assert.equal(answer.body.data.passwordPolicy.minLength, 10);
});

test('a saved captcha setting is followed at once: the next sign-in asks for the captcha (1001)', async () => {
  await change({ captchaEnabled: true });
  const visitor = server.client();
  const asked = await visitor.login('policy-user', 'Secret123');
  assert.equal(asked.body.code, 1001);
  assert.equal((asked.body.data as { captchaImageUrl?: string }).captchaImageUrl, '/api/captcha/image/display');
  assert.equal((await server.client().get<PublicLoginSettings>('/api/settings/login/public')).body.data.captchaEnabled, true);
  await change({ captchaEnabled: false });
  assert.equal((await server.client().login('policy-user', 'Secret123')).body.data.loginSuccess, true);
});

test('a saved login method and lockout threshold are followed at once', async () => {
  await change({ loginMethod: 'EMAIL_PASSWORD', maxFailures: 2, captchaAfterFailures: 0 });
  try {
    assert.notEqual((await server.client().login('policy-user', 'Secret123')).body.data?.loginSuccess, true, 'the username no longer signs in');
    assert.equal((await server.client().login('policy@example.com', 'Secret123')).body.data.loginSuccess, true);
    const visitor = server.client();
    await visitor.login('policy@example.com', 'Wrong1234');
    await visitor.login('policy@example.com', 'Wrong1234');
    assert.equal((await visitor.login('policy@example.com', 'Secret123')).status, 429, 'locked after two failures');
  } finally {
    await change({ loginMethod: 'USERNAME_PASSWORD', maxFailures: 5, captchaAfterFailures: 3 });
  }
});

test('a saved idle timeout ends idle sessions', async () => {
  await change({ sessionIdleMinutes: 5 });
  const user = server.client();
  await user.login('policy-user', 'Secret123');
  server.clock.advance(6 * 60_000);
  assert.equal((await user.get('/api/cas/session')).status, 401);
  admin = await server.admin(); // idle too
  await change({ sessionIdleMinutes: 30 });
});

test('branding: the favicon is kept with the other system config and readable before sign-in', async () => {
  const favicon = `${'ab'.repeat(32)}.ico`;
  const current = await server.client().get<{ version: number }>('/api/config');
  const saved = await admin.put<{ value: { system: { favicon: string; appName: string } } }>('/api/config', {
    system: { appName: 'Brand IAM', favicon },
    version: current.body.data.version,
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  const read = await server.client().get<{ value: { system: { favicon: string; appName: string; topMenuType: string } } }>('/api/config');
  assert.deepEqual(
    [read.body.data.value.system.appName, read.body.data.value.system.favicon, read.body.data.value.system.topMenuType],
    ['Brand IAM', favicon, 'self'],
  );
});

// The PHONE_CAPTCHA login method and the TOTP second auth, with codes delivered for real (a local
// SMS vendor).
const PHONE = '13700000001';
let sms: HttpReceiver;
async function startSms() {
  sms = await startHttpReceiver({ robotToken: 'robot-token-0123456789', dingTalkSecret: 'SEC-x' });
  const channel = await admin.post('/api/channels', {
    name: 'SMS vendor',
    serviceType: 'SMS',
    vendor: 'acme-sms',
    config: { url: `${sms.base}/sms`, templateId: 'TPL_001', signName: 'ACME', accessKeyId: 'key-1', accessSecret: 'sms-secret' },
  });
  assert.equal(channel.status, 200, JSON.stringify(channel.body));
  await admin.post('/api/user', { username: 'phone-user', realName: 'Phone_User', mobilePhone: PHONE, password: transform('Secret123') });
  await admin.post('/api/user', { username: 'no-phone', realName: 'No_Phone', password: transform('Secret123') });
}

/** The code of the latest SMS to `phone` after `seen` earlier ones. */
async function smsCode(phone: string, seen: number): Promise<string> {
  const call = await until(() => sms.calls.filter((entry) => entry.path === '/sms' && entry.body.phone === phone)[seen], `SMS number ${seen + 1} to ${phone}`);
  return /\b(\d{6})\b/.exec(JSON.stringify(call.body))![1]!;
}
const smsCount = (phone: string) => sms.calls.filter((entry) => entry.path === '/sms' && entry.body.phone === phone).length;

test('PHONE_CAPTCHA: a code by SMS signs in once; unknown numbers get the same answer; a captcha comes first when asked', async () => {
  admin = await server.admin();
  assert.equal((await server.client().post('/api/authc/login/code', { phone: PHONE })).status, 400, 'not enabled yet');
  await change({ loginMethod: 'PHONE_CAPTCHA' });
  try {
    assert.equal((await server.client().get<PublicLoginSettings>('/api/settings/login/public')).body.data.loginMethod, 'PHONE_CAPTCHA');
    const known = await server.client().post('/api/authc/login/code', { phone: PHONE });
    const unknown = await server.client().post('/api/authc/login/code', { phone: '13700000009' });
    assert.deepEqual([known.status, known.body], [unknown.status, unknown.body], 'the same answer for a number of nobody');
    const code = await smsCode(PHONE, 0);
    assert.equal((await server.client().login(PHONE, 'Secret123')).status, 400, 'a password is not a code');
    const wrong = await server.client().post('/api/authc/login', { username: PHONE, code: code === '000000' ? '111111' : '000000' });
    assert.equal(wrong.status, 401);
    const person = server.client();
    const signedIn = await person.post<{ loginSuccess: boolean }>('/api/authc/login', { username: PHONE, code });
    assert.equal(signedIn.body.data.loginSuccess, true, JSON.stringify(signedIn.body));
    assert.equal((await person.get<{ user: { username: string } }>('/api/cas/session')).body.data.user.username, 'phone-user');
    assert.equal((await server.client().post('/api/authc/login', { username: PHONE, code })).status, 401, 'a code works once');

    // Asked again within the minute: answered alike, nothing new is sent.
    assert.equal((await server.client().post('/api/authc/login/code', { phone: PHONE })).status, 200);
    assert.equal(smsCount(PHONE), 1);

    await change({ captchaEnabled: true });
    const asked = await server.client().post('/api/authc/login/code', { phone: PHONE });
    assert.equal(asked.body.code, 1001, 'the captcha comes before the code');
  } finally {
    await change({ loginMethod: 'USERNAME_PASSWORD', captchaEnabled: false });
  }
});

test('TOTP second auth: saving it needs an authenticator of the saver; people without one get an SMS code or a clear refusal', async () => {
  const current = await admin.get<{ value: LoginSettings; version: number }>('/api/settings/login');
  const refused = await admin.put<{ fields: { field: string; rule: string }[] }>('/api/settings/login', {
    secondAuth: 'TOTP',
    version: current.body.data.version,
  });
  assert.deepEqual([refused.status, refused.body.data.fields], [400, [{ field: 'secondAuth', rule: 'rule.totpRequired' }]]);

  const enrolment = await admin.post<{ uri: string }>('/api/user/totp', { password: transform(ADMIN.password) });
  const app = URI.parse(enrolment.body.data.uri) as TOTP;
  assert.equal((await admin.post('/api/user/totp/confirm', { code: app.generate({ timestamp: server.clock.now() }) })).status, 200);
  await change({ secondAuth: 'TOTP' });
  try {
    server.clock.advance(61_000);
    const seen = smsCount(PHONE);
    const person = server.client();
    const step = await person.login('phone-user', 'Secret123');
    assert.equal(step.body.data.nextStep, 'PHONE_CAPTCHA', 'no authenticator: a code by SMS');
    const done = await person.login('phone-user', 'Secret123', { nextStep: 'PHONE_CAPTCHA', code: await smsCode(PHONE, seen) });
    assert.equal(done.body.data.loginSuccess, true, JSON.stringify(done.body));

    const nobody = await server.client().login('no-phone', 'Secret123');
    assert.equal(nobody.status, 403);
    assert.match(nobody.body.message, /ask an administrator/);

    server.clock.advance(30_000);
    const adminStep = await server.client().login(ADMIN.username, ADMIN.password);
    assert.equal(adminStep.body.data.nextStep, 'TOTP', 'the enrolled administrator confirms with the app');
  } finally {
    admin = server.client();
    server.clock.advance(30_000);
    await admin.login(ADMIN.username, ADMIN.password, { nextStep: 'TOTP', code: app.generate({ timestamp: server.clock.now() }) });
    await change({ secondAuth: null });
  }
});
