// The second step after a first factor that cannot be sent again (a PHONE_CAPTCHA code, a
// third-party provider), through its step ticket (server/auth/login-step.ts): asked of people with
// an authenticator app and of administrators under adminStrongFactor, never a second SMS code; the
// ticket works once, for its own person, for a few minutes, and wrong codes count towards the
// lockout. Hostile cases run on PostgreSQL too (IAM_TEST_DB=postgres).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer } from './harness';
import { authenticator, peopleMaker, registeredProvider, setLogin, signInByPhone, withAuthenticator } from './sign-in-support';

const PASSWORD = 'StepTicket1';

interface LoginAnswer {
  loginSuccess: boolean;
  hasNextStep: boolean;
  nextStep?: string;
  stepTicket?: string;
  totpSetup?: { secret: string };
}

let server: TestServer;
let admin: Client;

before(async () => {
  // The test identity provider listens on loopback, which the outbound guard refuses unless listed.
  server = await startServer({ outboundAllow: ['127.0.0.1'] });
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

const person = peopleMaker(() => admin, 'Step', PASSWORD, 7000);

const PASSWORD_SIGN_IN = { loginMethod: 'USERNAME_PASSWORD', secondAuth: null, adminStrongFactor: false, maxFailures: 5, captchaAfterFailures: 3 };

/** Signs `who` in with the password and turns an authenticator app on; answers the app. */
async function withApp(who: { username: string }): Promise<{ code: () => string; browser: Client }> {
  const browser = server.client();
  assert.equal((await browser.login(who.username, PASSWORD)).body.data.loginSuccess, true);
  return { code: await withAuthenticator(server, browser, PASSWORD), browser };
}

const messagesTo = (userId: string) => server.app.ctx.db.selectFrom('messages').select('id').where('recipientId', '=', userId).execute();

const byPhone = (who: { id: string; phone: string }, browser?: Client) => signInByPhone<LoginAnswer>(server, who, browser);

const step = (browser: Client, stepTicket: string | undefined, code: string) => browser.post<LoginAnswer>('/api/authc/login/step', { stepTicket, code });
const signedIn = async (browser: Client) => (await browser.get('/api/cas/session')).status === 200;
const failuresOf = async (key: string) =>
  (await server.app.ctx.db.selectFrom('loginThrottle').select('failures').where('username', '=', key).executeTakeFirst())?.failures ?? 0;

test('after a phone code, the authenticator app (or a recovery code) completes the sign-in with the step ticket; no second SMS; the ticket works once', async () => {
  const who = await person();
  const { code, browser: own } = await withApp(who);
  const recovery = await own.post<{ codes: string[] }>('/api/user/recovery-codes', { password: transform(PASSWORD) });
  assert.equal(recovery.status, 200, JSON.stringify(recovery.body));
  await setLogin(admin, { loginMethod: 'PHONE_CAPTCHA', secondAuth: 'PHONE_CAPTCHA' });
  try {
    const sent = (await messagesTo(who.id)).length;
    const browser = server.client();
    const first = await byPhone(who, browser);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.data.loginSuccess, false);
    assert.equal(first.body.data.nextStep, 'TOTP');
    const ticket = first.body.data.stepTicket;
    assert.ok(ticket && ticket.length > 40, 'the answer carries a step ticket');
    assert.equal(await signedIn(browser), false, 'no session before the second step');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await messagesTo(who.id)).length, sent + 1, 'only the phone code was sent: no second SMS code');
    // The app's code alone, as a phone code or without the ticket, opens nothing.
    assert.equal((await browser.post('/api/authc/login', { username: who.phone, code: code() })).status, 401);
    assert.equal((await browser.post('/api/authc/login/step', { code: code() })).status, 400);

    const right = code();
    assert.equal((await step(browser, ticket, right === '000000' ? '111111' : '000000')).status, 401, 'a wrong code');
    const done = await step(browser, ticket, right);
    assert.equal(done.body.data?.loginSuccess, true, JSON.stringify(done.body));
    assert.equal(await signedIn(browser), true);
    assert.equal(await failuresOf(`phone:${who.phone}`), 0, 'the sign-in cleared the count');

    const replay = await step(server.client(), ticket, code());
    assert.equal(replay.status, 401, `the ticket was used: ${JSON.stringify(replay.body)}`);
    assert.match(replay.body.message, /sign in again/);

    // One of the recovery codes stands in for the app.
    const again = await byPhone(who);
    const withRecovery = await step(server.client(), again.body.data.stepTicket, recovery.body.data.codes[0]!);
    assert.equal(withRecovery.body.data?.loginSuccess, true, JSON.stringify(withRecovery.body));
  } finally {
    await setLogin(admin, PASSWORD_SIGN_IN);
  }
});

test('a step ticket opens nothing for another person, with a forged secret, or once expired', async () => {
  const alice = await person();
  const bob = await person();
  const aliceApp = (await withApp(alice)).code;
  const bobApp = (await withApp(bob)).code;
  await setLogin(admin, { loginMethod: 'PHONE_CAPTCHA', maxFailures: 10 });
  try {
    const attacker = server.client();
    const own = (await byPhone(bob, attacker)).body.data.stepTicket!;
    // Bob's ticket with Alice's code: the code is checked against Bob's app, and no session is Alice's.
    const crossed = await step(attacker, own, aliceApp());
    assert.equal(crossed.status, 401, JSON.stringify(crossed.body));
    assert.equal(await signedIn(attacker), false);

    // Alice's ticket id with another secret, and her right code.
    const aliceTicket = (await byPhone(alice)).body.data.stepTicket!;
    const [id] = aliceTicket.split('.');
    const forged = await step(attacker, `${id}.${'A'.repeat(43)}`, aliceApp());
    assert.equal(forged.status, 401, JSON.stringify(forged.body));
    assert.equal(await signedIn(attacker), false);

    // Expired: ten minutes on, the right code is refused.
    const late = (await byPhone(bob)).body.data.stepTicket!;
    const [lateId, lateSecret] = late.split('.');
    const stored = await server.app.ctx.db.selectFrom('loginChallenges').select('codeHash').where('id', '=', lateId!).executeTakeFirstOrThrow();
    assert.ok(!stored.codeHash.includes(lateSecret!), 'the secret is stored as a digest');
    server.clock.advance(10 * 60_000 + 1_000);
    const expired = await step(server.client(), late, bobApp());
    assert.equal(expired.status, 401, JSON.stringify(expired.body));
    assert.match(expired.body.message, /sign in again/);
  } finally {
    await setLogin(admin, PASSWORD_SIGN_IN);
  }
});

test('a parallel burst of wrong codes with one step ticket is counted by the lockout: no success, at most maxFailures checked, then locked', async () => {
  const who = await person();
  const { code } = await withApp(who);
  await setLogin(admin, { loginMethod: 'PHONE_CAPTCHA', maxFailures: 3, captchaAfterFailures: 0, captchaEnabled: false });
  try {
    const ticket = (await byPhone(who)).body.data.stepTicket!;
    const right = code();
    const wrong = right === '000000' ? '111111' : '000000';
    const answers = await Promise.all(Array.from({ length: 16 }, () => step(server.client(), ticket, wrong)));
    const statuses = answers.map((answer) => answer.status);
    assert.ok(answers.every((answer) => answer.body.data?.loginSuccess !== true));
    assert.ok(
      statuses.every((status) => status === 401 || status === 429),
      statuses.join(','),
    );
    const checked = answers.filter((answer) => answer.status === 401 && /Invalid verification code/.test(answer.body.message)).length;
    assert.ok(checked <= 3 - 1, `${checked} wrong codes answered as checked, at most maxFailures - 1: ${statuses.join(',')}`);
    assert.ok(statuses.includes(429), `the name locked during the burst: ${statuses.join(',')}`);
    assert.ok((await failuresOf(`phone:${who.phone}`)) <= 3, `counted ${await failuresOf(`phone:${who.phone}`)}`);
    const tries = await server.app.ctx.db.selectFrom('loginChallenges').select('attempts').where('userId', '=', who.id).execute();
    assert.ok(
      tries.every((row) => row.attempts <= 5),
      `a ticket took ${JSON.stringify(tries)} tries`,
    );
    // The right code with that ticket, and a new phone sign-in, are refused: the phone is locked.
    assert.notEqual((await step(server.client(), ticket, right)).body.data?.loginSuccess, true);
    server.clock.advance(61_000);
    const locked = await server.client().post('/api/authc/login', { username: who.phone, code: '123456' });
    assert.equal(locked.status, 429, JSON.stringify(locked.body));
  } finally {
    await setLogin(admin, PASSWORD_SIGN_IN);
    await server.app.ctx.db.deleteFrom('loginThrottle').execute();
  }
});

test('under adminStrongFactor an administrator signing in with a phone code sets up the authenticator app with the step ticket; a member signs in with the code alone', async () => {
  const boss = await person({ isAdmin: true });
  const member = await person();
  await setLogin(admin, { loginMethod: 'PHONE_CAPTCHA', adminStrongFactor: true });
  try {
    const browser = server.client();
    const first = await byPhone(boss, browser);
    assert.equal(first.body.data.nextStep, 'TOTP_SETUP', JSON.stringify(first.body));
    assert.ok(first.body.data.totpSetup?.secret);
    const app = authenticator(server, first.body.data.totpSetup.secret);
    const done = await step(browser, first.body.data.stepTicket, app());
    assert.equal(done.body.data?.loginSuccess, true, JSON.stringify(done.body));
    assert.equal((await browser.get<{ enabled: boolean }>('/api/user/totp')).body.data.enabled, true);

    const plain = await byPhone(member);
    assert.equal(plain.body.data.loginSuccess, true, JSON.stringify(plain.body));
    assert.equal(plain.body.data.stepTicket, undefined);
  } finally {
    await setLogin(admin, PASSWORD_SIGN_IN);
  }
});

test('third-party sign-in: a linked person with an authenticator app, and an administrator under adminStrongFactor, finish with the step ticket', async () => {
  const subject = { sub: 'step-corp-dora', preferred_username: 'stepdora', name: 'Dora', email: 'stepdora@corp.example' };
  const { idp, viaProvider } = await registeredProvider(server, admin, 'stepcorp', subject);
  try {
    const first = await viaProvider<LoginAnswer>({ username: 'stepdora', realName: 'Dora' });
    assert.equal(first.answer.body.data.loginSuccess, true, JSON.stringify(first.answer.body));

    // An administrator under adminStrongFactor without an app sets one up.
    const row = await server.app.ctx.db.selectFrom('users').select(['id', 'version']).where('username', '=', 'stepdora').executeTakeFirstOrThrow();
    const promoted = await admin.put(`/api/user/${row.id}`, { isAdmin: true, version: row.version });
    assert.equal(promoted.status, 200, JSON.stringify(promoted.body));
    await setLogin(admin, { adminStrongFactor: true });
    const setup = await viaProvider<LoginAnswer>({});
    assert.equal(setup.answer.body.data.nextStep, 'TOTP_SETUP', JSON.stringify(setup.answer.body));
    assert.equal(await signedIn(setup.browser), false);
    const code = authenticator(server, setup.answer.body.data.totpSetup!.secret);
    const enrolled = await step(setup.browser, setup.answer.body.data.stepTicket, code());
    assert.equal(enrolled.body.data?.loginSuccess, true, JSON.stringify(enrolled.body));
    await setLogin(admin, { adminStrongFactor: false });

    // With the app on: its code, after the provider, in the count of her username.
    const later = await viaProvider<LoginAnswer>({});
    assert.equal(later.answer.body.data.nextStep, 'TOTP', JSON.stringify(later.answer.body));
    assert.equal((await step(later.browser, later.answer.body.data.stepTicket, '000000')).status, 401);
    assert.equal(await failuresOf('username:stepdora'), 1, 'a wrong code is a failed sign-in of her username');
    const done = await step(later.browser, later.answer.body.data.stepTicket, code());
    assert.equal(done.body.data?.loginSuccess, true, JSON.stringify(done.body));
    assert.equal(await signedIn(later.browser), true);
    const audit = await server.app.ctx.db
      .selectFrom('auditLog')
      .select('action')
      .where('targetId', '=', row.id)
      .where('action', '=', 'login.third_party')
      .execute();
    assert.ok(audit.length >= 2, 'recorded as third-party sign-ins');
  } finally {
    await setLogin(admin, PASSWORD_SIGN_IN);
    await idp.stop();
  }
});
