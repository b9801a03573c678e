// Login management: the password policy is validated (length within §5, max ≥ min), the public
// part of the sign-in policy is readable before sign-in (without lockout details), and the server
// follows a saved change at once: captcha, login method, lockout threshold, idle timeout.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer } from './harness';
import type { LoginSettings, PublicLoginSettings } from '../../src/core/schemas/settings';

let server: TestServer;
let admin: Client;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  await admin.post('/api/user', { username: 'policy-user', realName: 'Policy_User', email: 'policy@example.com', password: transform('Secret123') });
});
after(() => server.stop());

async function change(changes: Partial<LoginSettings>) {
  const current = await admin.get<{ value: LoginSettings; version: number }>('/api/settings/login');
  const saved = await admin.put<{ value: LoginSettings; version: number }>('/api/settings/login', { ...changes, version: current.body.data.version });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  return saved.body.data.value;
}

test('the password policy keeps its length within §5 and its maximum above its minimum', async () => {
  const current = await admin.get<{ value: LoginSettings; version: number }>('/api/settings/login');
  const policy = current.body.data.value.passwordPolicy;
  assert.deepEqual(policy, { minLength: 6, maxLength: 20, requireUppercase: false, requireLowercase: false, requireSymbol: false, history: 0, expiryDays: 0 });
  const tooShort = await admin.put<{ fields: { field: string; rule: string }[] }>('/api/settings/login', { passwordPolicy: { ...policy, minLength: 4 }, version: current.body.data.version });
  assert.deepEqual(tooShort.body.data.fields, [{ field: 'passwordPolicy.minLength', rule: 'rule.range?min=6&max=20' }]);
  const crossed = await admin.put<{ fields: { field: string; rule: string }[] }>('/api/settings/login', { passwordPolicy: { ...policy, minLength: 12, maxLength: 8 }, version: current.body.data.version });
  assert.deepEqual(crossed.body.data.fields, [{ field: 'passwordPolicy.maxLength', rule: 'settings:rule.passwordMaxLength' }]);
  const saved = await change({ passwordPolicy: { ...policy, minLength: 10, requireSymbol: true, history: 5, expiryDays: 90 } });
  assert.equal(saved.passwordPolicy.minLength, 10);
  assert.equal(saved.maxFailures, current.body.data.value.maxFailures, 'other settings keep their values');
});

test('the public sign-in policy is readable before sign-in and tells nothing about lockout', async () => {
  const answer = await server.client().get<PublicLoginSettings>('/api/settings/login/public');
  assert.equal(answer.status, 200);
  assert.deepEqual(Object.keys(answer.body.data).sort(), ['background', 'backgroundType', 'captchaEnabled', 'captchaKind', 'captchaLength', 'loginMethod', 'passwordPolicy', 'secondAuth']);
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
  const current = await server.client().get<{ version: number }>('/api/config');
  const saved = await admin.put<{ value: { system: { favicon: string; appName: string } } }>('/api/config', { system: { appName: 'Brand IAM', favicon: 'abc.ico' }, version: current.body.data.version });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  const read = await server.client().get<{ value: { system: { favicon: string; appName: string; topMenuType: string } } }>('/api/config');
  assert.deepEqual([read.body.data.value.system.appName, read.body.data.value.system.favicon, read.body.data.value.system.topMenuType], ['Brand IAM', 'abc.ico', 'self']);
});
