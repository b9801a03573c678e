// Secrets never in logs or answers. The production server runs as a child process with its
// logger on (server/main.ts, IAM_LOG=1), every line it writes captured. Then the secrets pass
// through it: passwords at sign-in (plain and transformed), the session cookie, a token-mode
// token, channel settings (SMTP password, SMS access secret, DingTalk webhook token and signing
// secret, WeCom webhook key) used for real deliveries to local receivers, an identity provider's
// client secret, an app's OIDC client secret rotation, a TOTP enrolment and a forgot-password
// code. Afterwards: no secret appears in the log, nor in any GET answer of /api/openapi.json
// (as the administrator, as the user, signed out), except the one answer that hands it over.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, Client, createTestDatabase, transform, type TestDatabase, ok } from './harness';
import { spawnServer, type ChildServer } from './crash-process';
import { startHttpReceiver, startSmtp, until, type HttpReceiver, type SmtpReceiver } from './receivers';
import { fillPath, readOperations } from './security-support';

const PORTAL = 'http://portal.example';
const SMTP = { user: 'relay-user', password: 'smtp-Pa55-word-7781' };
const ROBOT_TOKEN = 'robot-token-55aa77bb99cc';
const DING_SECRET = 'SEC-ding-secret-3141592653';
const USER = { username: 'secret-keeper', email: 'secret-keeper@example.com', password: 'Keeper-2718' };

let database: TestDatabase;
let server: ChildServer;
let smtp: SmtpReceiver;
let http: HttpReceiver;
let admin: Client;
let user: Client;
/** Every secret that went through the server, by what it is. */
const secrets: Record<string, string> = {};
/** Ids of what was made, to fill the GET paths with real records. */
const made: Record<string, string> = {};

async function signIn(username: string, password: string): Promise<Client> {
  const client = new Client(server.base, server.base);
  assert.equal((await client.login(username, password)).body.data.loginSuccess, true);
  return client;
}

before(async () => {
  [smtp, http, database] = await Promise.all([
    startSmtp(SMTP.user, SMTP.password),
    startHttpReceiver({ robotToken: ROBOT_TOKEN, dingTalkSecret: DING_SECRET }),
    createTestDatabase(),
  ]);
  server = await spawnServer(database, { IAM_LOG: '1', IAM_CORS_ORIGINS: PORTAL, IAM_OUTBOUND_ALLOW_PRIVATE: '1' });
  Object.assign(secrets, {
    'admin password': ADMIN.password,
    'admin password, transformed': transform(ADMIN.password),
    'user password': USER.password,
    'user password, transformed': transform(USER.password),
    'SMTP password': SMTP.password,
    'DingTalk robot token': ROBOT_TOKEN,
    'DingTalk signing secret': DING_SECRET,
    'SMS access secret': 'sms-access-secret-8086',
    'IdP client secret': 'idp-client-secret-6502',
  });

  admin = await signIn(ADMIN.username, ADMIN.password);
  secrets['admin session cookie'] = admin.cookies.get('iam_session')!;
  const portal = new Client(server.base, PORTAL);
  const tokenAnswer = await ok(portal.login(ADMIN.username, ADMIN.password, {}, { 'x-iam-auth-mode': 'token' }), 'token sign-in');
  secrets['token-mode token'] = String((tokenAnswer as { token?: string }).token);
  assert.equal((await portal.get('/api/cas/session', { token: secrets['token-mode token'] })).status, 200, 'the token is used once');

  made.user = (
    await ok(
      admin.post<{ id: string }>('/api/user', { username: USER.username, realName: 'Secret_Keeper', email: USER.email, password: transform(USER.password) }),
      'user',
    )
  ).id;
  const channels = [
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
      config: { url: `${http.base}/sms`, templateId: 'TPL_001', accessKeyId: 'key-1', accessSecret: secrets['SMS access secret'] },
    },
    {
      name: 'Ops group',
      serviceType: 'DING_TALK',
      vendor: 'dingtalk',
      config: { webhook: `${http.base}/dingtalk/send?access_token=${ROBOT_TOKEN}`, secret: DING_SECRET },
    },
    { name: 'WeCom group', serviceType: 'QYWX_WEBHOOK', vendor: 'wecom', config: { webhook: `${http.base}/wecom/send?key=${ROBOT_TOKEN}` } },
  ];
  for (const channel of channels) {
    const stored = await ok(admin.post<{ id: string; config: Record<string, string> }>('/api/channels', channel), channel.name);
    made[channel.serviceType] = stored.id;
    // The channel is used for real: its secrets reach the sender (and whatever it logs).
    const address = channel.serviceType === 'EMAIL' ? 'ops@example.com' : channel.serviceType === 'SMS' ? '13912345678' : '';
    await admin.post(`/api/channels/${stored.id}/test`, address ? { address } : {});
  }
  await until(() => smtp.mails.length > 0 && http.calls.length >= 3, 'the test deliveries');

  await ok(
    admin.post('/api/idps', {
      code: 'corp',
      name: 'Corp SSO',
      type: 'OIDC',
      config: { issuer: 'https://sso.example.com', clientId: 'iam', clientSecret: secrets['IdP client secret'] },
    }),
    'idp',
  );
  made.app = (await ok(admin.post<{ id: string }>('/api/apps', { name: 'Secret_App', callbackUrl: 'https://app.example.com/cb' }), 'app')).id;
  const rotated = await ok(admin.post<{ clientSecret: string }>(`/api/apps/${made.app}/oidc-client/secret`), 'client secret');
  secrets['OIDC client secret'] = rotated.clientSecret;

  user = await signIn(USER.username, USER.password);
  secrets['user session cookie'] = user.cookies.get('iam_session')!;
  const enrolment = await ok(user.post<{ secret: string; uri: string }>('/api/user/totp', { password: transform(USER.password) }), 'TOTP enrolment');
  secrets['TOTP secret'] = enrolment.secret;

  const mailsBefore = smtp.mails.length;
  assert.equal((await new Client(server.base, server.base).post('/api/user/password/reset-code', { identifier: USER.email })).status, 200);
  const mail = await until(() => smtp.mails.slice(mailsBefore).find((entry) => entry.to.includes(USER.email)), 'the reset code');
  secrets['password reset code'] = /\b(\d{6})\b/.exec(mail.raw)![1]!;
});

after(async () => {
  await server?.stop();
  await Promise.all([smtp?.stop(), http?.stop(), database?.drop()]);
});

/** Which secret, if any, `text` contains. */
const leaked = (text: string) =>
  Object.entries(secrets)
    .filter(([, value]) => value && text.includes(value))
    .map(([name]) => name);

describe('secrets', () => {
  test('every secret was really handled (the checks below are not vacuous)', () => {
    for (const [name, value] of Object.entries(secrets)) assert.ok(value && value.length >= 6 && value !== 'undefined', `${name}: ${value}`);
    assert.ok(
      smtp.mails.some((mail) => mail.user === SMTP.user),
      'the SMTP relay was signed in to with the stored password',
    );
    assert.ok(
      http.calls.some((call) => call.path === '/dingtalk/send' && call.query.get('sign')),
      'the DingTalk robot got a signed call',
    );
  });

  test('no GET answer of the API carries a secret (administrator, user, signed out)', async () => {
    const operations = (await readOperations(server.base)).filter((operation) => operation.method === 'GET');
    const paramValue = (path: string, name: string) => {
      if (name === 'appId' || path.startsWith('/api/apps/')) return made.app!;
      if (name === 'idpCode') return 'corp';
      if (path.startsWith('/api/channels/')) return made.EMAIL!;
      if (path.startsWith('/api/user/')) return made.user!;
      return 'x';
    };
    let answers = 0;
    for (const client of [admin, user, new Client(server.base, server.base)]) {
      for (const operation of operations) {
        if (operation.path === '/api/cas/logout') continue; // would end the session the next calls use
        const response = await client.raw(
          'GET',
          fillPath(operation.path, (name) => paramValue(operation.path, name)),
        );
        const text = await response.text();
        answers += 1;
        assert.deepEqual(leaked(text), [], `GET ${operation.path} → ${response.status}`);
      }
      // Each channel read back: every secret field is masked.
      if (client === admin) {
        const list = await ok(admin.get<{ list: { config: Record<string, string> }[] }>('/api/channels?size=50'), 'channels');
        assert.equal(list.list.length, 4);
        for (const channel of list.list) assert.deepEqual(leaked(JSON.stringify(channel)), []);
      }
    }
    console.log(`secrets: ${answers} GET answers checked against ${Object.keys(secrets).length} secrets`);
  });

  test('the server log holds none of them (and is really captured)', async () => {
    await server.stop();
    const log = server.output();
    const lines = log.split('\n').filter((line) => line.startsWith('{'));
    assert.ok(lines.length >= 20, `only ${lines.length} log lines captured`);
    assert.ok(log.includes('/api/authc/login'), 'the requests are logged');
    assert.deepEqual(leaked(log), []);
    console.log(`secrets: ${lines.length} log lines checked against ${Object.keys(secrets).length} secrets`);
  });
});
