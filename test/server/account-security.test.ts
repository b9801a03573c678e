// Account security around the second factors: recovery codes (generated once with the password,
// single use at the second step of a sign-in, counted as failures when wrong, one winner in a
// burst), signing oneself out everywhere (console sessions and app grants), the new-device notice
// (in-site and by e-mail to a real SMTP receiver) and the login settings' adminStrongFactor (an
// administrator without a passkey or an authenticator app sets one up before getting a session;
// one with a passkey confirms with it, or with a recovery code).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, startServer, transform, type Client, type TestServer } from './harness';
import { startSmtp, until, type SmtpReceiver } from './receivers';
import { SoftwareAuthenticator } from './software-authenticator';
import { authenticator, setLogin, withAuthenticator } from './sign-in-support';
import { oidcDb } from '../../server/oidc/tables';

const PASSWORD = 'Secure-123';
const SMTP = { user: 'mailer', password: 'smtp-pass-42' };
const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const PORTAL = 'https://portal.example.com';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0';
/** The passkeys' relying party of this server (a page of it registers and uses them). */
const PASSKEY_PAGE = { origin: 'http://localhost:5173', rpId: 'localhost' };

let server: TestServer;
let smtp: SmtpReceiver;
let admin: Client;
let people = 0;

before(async () => {
  [server, smtp] = await Promise.all([
    startServer({ corsOrigins: [PORTAL], webauthn: { rpId: PASSKEY_PAGE.rpId, origins: [PASSKEY_PAGE.origin] } }),
    startSmtp(SMTP.user, SMTP.password),
  ]);
  admin = await server.admin();
  const channel = await admin.post('/api/channels', {
    name: 'Mail relay',
    serviceType: 'EMAIL',
    vendor: 'smtp',
    config: { host: '127.0.0.1', port: String(smtp.port), security: 'none', username: SMTP.user, password: SMTP.password, from: 'iam@example.com' },
  });
  assert.equal(channel.status, 200, JSON.stringify(channel.body));
});
after(async () => {
  await Promise.all([server.stop(), smtp.stop()]);
});

interface Person {
  id: string;
  username: string;
  email: string;
}

async function person(fields: Record<string, unknown> = {}): Promise<Person> {
  people += 1;
  const username = `acct-${people}`;
  const email = `${username}@example.com`;
  const created = await admin.post<{ id: string }>('/api/user', { username, realName: 'Account_Person', email, password: transform(PASSWORD), ...fields });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return { id: created.body.data.id, username, email };
}

async function signedIn(username: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = server.client();
  client.headers = headers;
  const answer = await client.login(username, PASSWORD);
  assert.equal(answer.body.data?.loginSuccess, true, JSON.stringify(answer.body));
  return client;
}

/** A passkey added through the personal center's calls: the authenticator holding it. */
async function withPasskey(client: Client): Promise<SoftwareAuthenticator> {
  const key = new SoftwareAuthenticator(PASSKEY_PAGE.origin, PASSKEY_PAGE.rpId);
  const options = await client.post<{ challenge: string; rp: { id?: string }; user: { id: string } }>('/api/user/passkeys/options', {
    password: transform(PASSWORD),
  });
  assert.equal(options.status, 200, JSON.stringify(options.body));
  const added = await client.post('/api/user/passkeys', { name: 'Laptop', credential: key.create(options.body.data) });
  assert.equal(added.status, 200, JSON.stringify(added.body));
  return key;
}

const generate = (client: Client, password = PASSWORD) => client.post<{ codes: string[] }>('/api/user/recovery-codes', { password: transform(password) });
const auditOf = (action: string, targetId: string) =>
  server.app.ctx.db.selectFrom('auditLog').selectAll().where('action', '=', action).where('targetId', '=', targetId).execute();
const failuresOf = async (username: string) =>
  (await server.app.ctx.db.selectFrom('loginThrottle').select('failures').where('username', '=', `username:${username}`).executeTakeFirst())?.failures ?? 0;
test('recovery codes: only with a second factor and the right password; ten, shown once, stored as digests; a new set replaces the old', async () => {
  const who = await person();
  const client = await signedIn(who.username);
  assert.deepEqual((await client.get('/api/user/recovery-codes')).body.data, { available: false, remaining: 0, generatedAt: null });
  const refused = await generate(client);
  assert.equal(refused.status, 400);
  assert.match(refused.body.message, /passkey or an authenticator app/);
  await withAuthenticator(server, client, PASSWORD);

  const wrong = await generate(client, 'Wrong-pass-1');
  assert.equal(wrong.status, 400);
  assert.deepEqual((wrong.body.data as unknown as { fields: unknown[] }).fields, [{ field: 'password', rule: 'rule.wrongPassword' }]);
  assert.deepEqual((await client.get('/api/user/recovery-codes')).body.data, { available: true, remaining: 0, generatedAt: null });

  const first = await generate(client);
  assert.equal(first.status, 200);
  const codes = first.body.data.codes;
  assert.equal(codes.length, 10);
  assert.equal(new Set(codes).size, 10);
  for (const code of codes) assert.match(code, /^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$/);
  const status = await client.get<{ remaining: number; generatedAt: number | null }>('/api/user/recovery-codes');
  assert.equal(status.body.data.remaining, 10);
  assert.ok(status.body.data.generatedAt);
  assert.ok(!JSON.stringify(status.body).includes(codes[0]!), 'the status never answers a code');
  const stored = JSON.stringify(await server.app.ctx.db.selectFrom('recoveryCodes').selectAll().execute());
  for (const code of codes) assert.ok(!stored.includes(code) && !stored.includes(code.replaceAll('-', '')), 'no code in clear');

  const second = await generate(client);
  assert.equal(second.status, 200);
  const stranger = server.client();
  await stranger.login(who.username, PASSWORD);
  assert.equal((await stranger.login(who.username, PASSWORD, { code: codes[0] })).status, 401, 'the old set stopped working');
  assert.equal((await stranger.login(who.username, PASSWORD, { code: second.body.data.codes[0] })).body.data.loginSuccess, true);
  assert.equal((await auditOf('recovery.generate', who.id)).length, 2);
});

test('a recovery code passes the second step once, in any letter case and without hyphens; a wrong one counts as a failed sign-in', async () => {
  const who = await person();
  const client = await signedIn(who.username);
  await withAuthenticator(server, client, PASSWORD);
  const [code, other] = (await generate(client)).body.data.codes;

  const browser = server.client();
  const step = await browser.login(who.username, PASSWORD);
  assert.equal(step.body.data.nextStep, 'TOTP');
  const before = await failuresOf(who.username);
  const wrong = await browser.login(who.username, PASSWORD, { code: 'aaaa-bbbb-cccc-dddd' });
  assert.equal(wrong.status, 401);
  assert.equal(await failuresOf(who.username), before + 1, 'a wrong recovery code is a failed attempt');

  const passed = await browser.login(who.username, PASSWORD, { code: code!.toUpperCase().replaceAll('-', '') });
  assert.equal(passed.body.data.loginSuccess, true, JSON.stringify(passed.body));
  assert.equal(await failuresOf(who.username), 0, 'a sign-in clears the count');
  assert.equal((await server.client().login(who.username, PASSWORD, { code: code! })).status, 401, 'used once');
  assert.equal((await client.get<{ remaining: number }>('/api/user/recovery-codes')).body.data.remaining, 9);
  const used = await auditOf('recovery.use', who.id);
  assert.equal(used.length, 1);
  assert.ok(!JSON.stringify(used).includes(code!) && !JSON.stringify(used).includes(other!), 'no code in the audit log');
});

test('a burst of 20 parallel sign-ins with one recovery code: exactly one wins, the others count as failures', async () => {
  // Room for all 20 to reach the code (by default the 4th failure in flight needs a captcha, the 5th locks).
  await setLogin(admin, { maxFailures: 100, captchaAfterFailures: 0 });
  try {
    const who = await person();
    const client = await signedIn(who.username);
    await withAuthenticator(server, client, PASSWORD);
    const [code] = (await generate(client)).body.data.codes;
    const answers = await Promise.all(Array.from({ length: 20 }, () => server.client().login(who.username, PASSWORD, { code: code! })));
    const won = answers.filter((answer) => answer.body.data?.loginSuccess === true);
    assert.equal(won.length, 1, JSON.stringify(answers.map((answer) => answer.status)));
    assert.deepEqual(
      answers.filter((answer) => answer !== won[0]).map((answer) => answer.status),
      Array(19).fill(401),
    );
    assert.equal((await client.get<{ remaining: number }>('/api/user/recovery-codes')).body.data.remaining, 9);
    assert.equal((await auditOf('recovery.use', who.id)).length, 1);
  } finally {
    await setLogin(admin, { maxFailures: 5, captchaAfterFailures: 3 });
  }
});

test('signing oneself out everywhere: every other console session and every app grant end, the current one on request; audited', async () => {
  const who = await person();
  const [current, other, third] = [await signedIn(who.username), await signedIn(who.username), await signedIn(who.username)];
  const payloads = oidcDb(server.app.ctx.db);
  await payloads
    .insertInto('oidcPayloads')
    .values({
      model: 'Grant',
      id: `grant-${who.id}`,
      payload: '{}',
      grantId: null,
      accountId: who.id,
      uid: null,
      userCode: null,
      expiresAt: null,
      consumedAt: null,
    })
    .execute();
  const bystander = await signedIn((await person()).username);

  const kept = await current.post<{ revoked: number }>('/api/cas/logout/everywhere', { keepCurrent: true });
  assert.equal(kept.status, 200, JSON.stringify(kept.body));
  assert.equal(kept.body.data.revoked, 2);
  assert.equal((await current.get('/api/cas/session')).status, 200, 'the current session was kept');
  assert.equal((await other.get('/api/cas/session')).status, 401);
  assert.equal((await third.get('/api/cas/session')).status, 401);
  assert.equal((await bystander.get('/api/cas/session')).status, 200, "someone else's session lives on");
  assert.equal((await payloads.selectFrom('oidcPayloads').select('id').where('accountId', '=', who.id).execute()).length, 0, 'the app grants ended');

  const again = await signedIn(who.username);
  const all = await current.post<{ revoked: number }>('/api/cas/logout/everywhere', { keepCurrent: false });
  assert.equal(all.body.data.revoked, 2);
  assert.equal((await current.get('/api/cas/session')).status, 401);
  assert.equal((await again.get('/api/cas/session')).status, 401);
  assert.ok(!current.cookies.has('iam_session'), 'the session cookie is cleared');
  const audit = await auditOf('session.revoke', who.id);
  // Both entries may carry the same time: their order is not part of the rule.
  const keptFirst = (detail: Record<string, unknown>) => ('keptCurrent' in detail ? 0 : 1);
  assert.deepEqual(
    audit.map((entry) => JSON.parse(entry.detail) as Record<string, unknown>).sort((a, b) => keptFirst(a) - keptFirst(b)),
    [
      { everywhere: true, sessions: 2, appSignIns: 1, pendingSignIns: 0, keptCurrent: true },
      { everywhere: true, sessions: 2, appSignIns: 0, pendingSignIns: 0 },
    ],
  );
  assert.ok(audit.every((entry) => entry.actorId === who.id));

  assert.equal((await server.client().post('/api/cas/logout/everywhere', { keepCurrent: true })).status, 401);
  assert.equal((await again.post('/api/cas/logout/everywhere', { keepCurrent: 'yes' })).status, 401, 'signed out: no session to act for');
  const fresh = await signedIn(who.username);
  const bad = await fresh.post('/api/cas/logout/everywhere', { keepCurrent: 'yes' });
  assert.equal(bad.status, 400);
  assert.equal((await fresh.get('/api/cas/session')).status, 200);
});

const noticesOf = (userId: string) =>
  server.app.ctx.db
    .selectFrom('messages')
    .select(['serviceType', 'title', 'content', 'address'])
    .where('recipientId', '=', userId)
    .orderBy('pushTime')
    .execute();

test('a sign-in from a new device sends an in-site message and an e-mail (when, browser, IP, what to do); a known device and the first sign-in do not', async () => {
  const who = await person();
  const laptop = await signedIn(who.username, { 'user-agent': CHROME_LINUX });
  assert.deepEqual(await noticesOf(who.id), [], 'the first sign-in ever tells nobody');
  const device = laptop.cookies.get('iam_device');
  assert.ok(device && device.length >= 40, 'a device cookie');
  const stored = JSON.stringify(await server.app.ctx.db.selectFrom('knownDevices').selectAll().where('userId', '=', who.id).execute());
  assert.ok(!stored.includes(device), 'only its digest is stored');

  // The same browser again (its cookie kept): nothing; even after signing out.
  await laptop.get('/api/cas/logout');
  assert.equal((await laptop.login(who.username, PASSWORD)).body.data.loginSuccess, true);
  assert.deepEqual(await noticesOf(who.id), []);

  const phone = await signedIn(who.username, { 'user-agent': FIREFOX_WINDOWS });
  assert.notEqual(phone.cookies.get('iam_device'), device);
  const notices = await noticesOf(who.id);
  assert.deepEqual(notices.map((row) => row.serviceType).sort(), ['EMAIL', 'SITE_MESSAGE']);
  const site = notices.find((row) => row.serviceType === 'SITE_MESSAGE')!;
  assert.equal(site.title, 'New sign-in to your account');
  assert.match(site.content, /Firefox on Windows/);
  assert.match(site.content, /IP address 127\.0\.0\.1/);
  assert.match(site.content, /\d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  assert.match(site.content, /change your password/);
  const inbox = await phone.get<{ list: { title: string; content: string }[] }>('/api/messages');
  assert.equal(inbox.body.data.list[0]?.title, 'New sign-in to your account');
  // Signed in in English, read in the Chinese console: the in-site notice speaks the reader's language.
  for (const path of ['/api/messages', '/api/messages/history']) {
    const read = await phone.get<{ list: { title: string; content: string }[] }>(path, { 'accept-language': 'zh' });
    const notice = read.body.data.list.find((message) => message.content);
    assert.equal(notice?.title, '您的账号在新设备上登录', path);
    assert.match(notice?.content ?? '', /Firefox（Windows），IP 地址 127\.0\.0\.1/, path);
  }

  const mail = await until(() => smtp.mails.find((entry) => entry.to.includes(who.email)), 'the notice by e-mail');
  assert.match(mail.raw, /New sign-in to your account/);
  assert.match(mail.raw, /Firefox on Windows/);
  assert.ok(!mail.raw.includes(device), 'no device id in the mail');
});

test('the notice speaks the language of the sign-in; no e-mail without an address; token mode recognises the browser by agent and address', async () => {
  const who = await person({ email: '' });
  await signedIn(who.username, { 'user-agent': CHROME_LINUX });
  await signedIn(who.username, { 'user-agent': CHROME_LINUX, 'accept-language': 'zh-CN,zh;q=0.9' });
  const notices = await noticesOf(who.id);
  assert.deepEqual(
    notices.map((row) => row.serviceType),
    ['SITE_MESSAGE'],
    'in-site only: the person has no e-mail address',
  );
  assert.equal(notices[0]!.title, '您的账号在新设备上登录');
  assert.match(notices[0]!.content, /Chrome（Linux）/);

  const token = { 'user-agent': FIREFOX_WINDOWS, 'x-iam-auth-mode': 'token' };
  for (let round = 0; round < 3; round += 1) {
    const answer = await server.client({ origin: PORTAL }).login(who.username, PASSWORD, {}, token);
    assert.equal(answer.body.data.token !== undefined, true, 'token mode');
  }
  assert.equal((await noticesOf(who.id)).length, 2, 'one notice for the token-mode browser, not one per sign-in');
});

test('adminStrongFactor: an administrator without a second factor sets up an authenticator app before a session, one with a passkey confirms with it (or a recovery code); members and the setting off are untouched', async () => {
  const member = await person();
  const appAdmin = await person();
  // An administrator with a passkey (and recovery codes, which a passkey makes available).
  const keyHolder = await person();
  const keyHolderBrowser = await signedIn(keyHolder.username);
  const key = await withPasskey(keyHolderBrowser);
  assert.equal((await keyHolderBrowser.get<{ available: boolean }>('/api/user/recovery-codes')).body.data.available, true);
  const keyHolderCodes = (await generate(keyHolderBrowser)).body.data.codes;
  const app = await admin.post<{ id: string }>('/api/apps', { name: 'Strong_Factor_App' });
  assert.equal((await admin.put(`/api/apps/${app.body.data.id}/admins`, { userIds: [appAdmin.id, keyHolder.id] })).status, 200);
  await setLogin(admin, { adminStrongFactor: true });
  try {
    const browser = server.client();
    const step = await browser.login(appAdmin.username, PASSWORD);
    assert.equal(step.status, 200);
    assert.equal(step.body.data.nextStep, 'TOTP_SETUP');
    assert.equal(step.body.data.loginSuccess, false);
    const setup = step.body.data.totpSetup as { secret: string; uri: string };
    assert.match(setup.uri, /^otpauth:\/\/totp\//);
    assert.ok(!browser.cookies.has('iam_session'), 'no session before the app is set up');
    assert.equal((await browser.get('/api/cas/session')).status, 401);

    const before = await failuresOf(appAdmin.username);
    assert.equal((await browser.login(appAdmin.username, PASSWORD, { code: '000000' })).status, 401);
    assert.equal(await failuresOf(appAdmin.username), before + 1, 'a wrong code counts as a failed attempt');
    const code = authenticator(server, setup.secret);
    const done = await browser.login(appAdmin.username, PASSWORD, { code: code() });
    assert.equal(done.body.data.loginSuccess, true, JSON.stringify(done.body));
    assert.deepEqual((await browser.get('/api/user/totp')).body.data, { enabled: true });
    // From now on the app's code is the second step, like anyone's with an authenticator app.
    assert.equal((await server.client().login(appAdmin.username, PASSWORD)).body.data.nextStep, 'TOTP');
    assert.ok((await auditOf('user.update', appAdmin.id)).some((entry) => JSON.parse(entry.detail).atSignIn === true));

    assert.equal((await server.client().login(member.username, PASSWORD)).body.data.loginSuccess, true, 'members are not asked');
    assert.equal((await server.client().login(ADMIN.username, ADMIN.password)).body.data.nextStep, 'TOTP_SETUP', 'nor is the platform administrator spared');

    // A passkey is a strong factor too: an administrator with one is asked for it, not for the
    // app's set-up, and the password alone opens no session; a recovery code answers that step too.
    const keyBrowser = server.client();
    const keyStep = await keyBrowser.login(keyHolder.username, PASSWORD);
    assert.equal(keyStep.body.data.nextStep, 'PASSKEY', JSON.stringify(keyStep.body));
    assert.equal(keyStep.body.data.totpSetup, undefined);
    assert.ok(!keyBrowser.cookies.has('iam_session'), 'no session on the password alone');
    const byKey = await keyBrowser.login(keyHolder.username, PASSWORD, {
      nextStep: 'PASSKEY',
      passkey: key.get(keyStep.body.data.passkeyOptions as { challenge: string }),
    });
    assert.equal(byKey.body.data.loginSuccess, true, JSON.stringify(byKey.body));
    const elsewhere = server.client();
    assert.equal((await elsewhere.login(keyHolder.username, PASSWORD)).body.data.nextStep, 'PASSKEY');
    assert.equal(
      (await elsewhere.login(keyHolder.username, PASSWORD, { nextStep: 'PASSKEY', code: '123456' })).status,
      401,
      'a six-digit code does not answer it',
    );
    const byCode = await elsewhere.login(keyHolder.username, PASSWORD, { nextStep: 'PASSKEY', code: keyHolderCodes[0] });
    assert.equal(byCode.body.data.loginSuccess, true, JSON.stringify(byCode.body));
    assert.equal((await auditOf('recovery.use', keyHolder.id)).length, 1);
    assert.equal((await server.client().login(keyHolder.username, PASSWORD, { nextStep: 'PASSKEY', code: keyHolderCodes[0] })).status, 401, 'used once');
  } finally {
    await setLogin(admin, { adminStrongFactor: false });
  }
  assert.equal((await server.client().login(ADMIN.username, ADMIN.password)).body.data.loginSuccess, true, 'off: the password alone again');
});
