// The second factor stays asked on every way in: a phone code does not skip a person's
// authenticator app nor the administrators' strong-factor policy; a step ticket waiting for its
// code dies when the person is disabled or signed out everywhere; recovery codes go with the factor
// they were made for; the expired-password change is granted only to the browser that passed the
// second factor (server/auth/login-step.ts, step-tickets.ts, recovery-codes.ts). Each test is
// hostile and failed on the code before its fix.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Answer, type Client, type TestServer } from './harness';
import { peopleMaker, signInByPhone, setLogin as setLoginOf, withAuthenticator as turnOnAuthenticator } from './sign-in-support';

const PASSWORD = 'Second-factor-1';

interface LoginAnswer {
  loginSuccess: boolean;
  nextStep?: string;
  stepTicket?: string;
}

let server: TestServer;
let admin: Client;

before(async () => {
  server = await startServer();
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

const person = peopleMaker(() => admin, 'SF', PASSWORD, 6100);
const setLogin = (changes: Record<string, unknown>) => setLoginOf(admin, changes);
const PASSWORD_SIGN_IN = { loginMethod: 'USERNAME_PASSWORD', secondAuth: null, adminStrongFactor: false, maxFailures: 5, captchaAfterFailures: 3 };

async function signIn(username: string): Promise<Client> {
  const browser = server.client();
  const answer = await browser.login(username, PASSWORD);
  assert.equal(answer.body.data?.loginSuccess, true, JSON.stringify(answer.body));
  return browser;
}

const withAuthenticator = (browser: Client) => turnOnAuthenticator(server, browser, PASSWORD);

const byPhone = (who: { id: string; phone: string }, browser?: Client) => signInByPhone<LoginAnswer>(server, who, browser);
const step = (browser: Client, stepTicket: string | undefined, code: string) => browser.post<LoginAnswer>('/api/authc/login/step', { stepTicket, code });

const bulk = async (action: 'disable' | 'enable', id: string) => {
  const answer = await admin.post<{ results: { ok: boolean }[] }>('/api/user/bulk', { action, ids: [id] });
  assert.equal(answer.body.data?.results?.[0]?.ok, true, JSON.stringify(answer.body));
};

test("signing in with a phone code does not skip the authenticator app of a person who turned it on, nor the administrators' strong-factor policy", async () => {
  const tenantAdmin = await person({ isAdmin: true });
  await withAuthenticator(await signIn(tenantAdmin.username));
  await setLogin({ loginMethod: 'PHONE_CAPTCHA', adminStrongFactor: true });
  try {
    const answer = await byPhone(tenantAdmin);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.notEqual(
      answer.body.data?.loginSuccess,
      true,
      `an administrator with an authenticator app signed in with an SMS code alone: ${JSON.stringify(answer.body)}`,
    );
    assert.equal(answer.body.data?.nextStep, 'TOTP', JSON.stringify(answer.body));
  } finally {
    await setLogin(PASSWORD_SIGN_IN);
  }
});

/** A person with an authenticator app; someone holding their phone (a swapped SIM) passes the
 *  PHONE_CAPTCHA code and holds the step ticket; `endAccess` runs; then the ticket and a right
 *  code are tried: the answer. */
async function ticketAfter(endAccess: (who: { id: string }) => Promise<void>): Promise<Answer<LoginAnswer>> {
  const who = await person();
  const code = await withAuthenticator(await signIn(who.username));
  await setLogin({ loginMethod: 'PHONE_CAPTCHA', maxFailures: 10 });
  try {
    const thief = server.client();
    const ticket = (await byPhone(who, thief)).body.data.stepTicket!;
    assert.ok(ticket);
    await endAccess(who);
    return await step(thief, ticket, code());
  } finally {
    await setLogin(PASSWORD_SIGN_IN);
  }
}

test('a step ticket waiting for its code dies when an administrator disables the person: re-enabling them revives nothing', async () => {
  // The administrator, warned, disables the person and enables them again once the phone is back.
  const revived = await ticketAfter(async (who) => {
    await bulk('disable', who.id);
    await bulk('enable', who.id);
  });
  assert.equal(revived.status, 401, JSON.stringify(revived.body));
  assert.notEqual(revived.body.data?.loginSuccess, true, `the ticket issued before the person was disabled still signs in: ${JSON.stringify(revived.body)}`);
});

test('a step ticket waiting for its code dies when an administrator signs the person out everywhere', async () => {
  const after = await ticketAfter(async (who) => {
    const out = await admin.delete<{ revoked: number }>(`/api/user/${who.id}/sessions`);
    assert.equal(out.status, 200, JSON.stringify(out.body));
  });
  assert.equal(after.status, 401, JSON.stringify(after.body));
  assert.notEqual(after.body.data?.loginSuccess, true, `the ticket issued before "sign out everywhere" still signs in: ${JSON.stringify(after.body)}`);
});

test("recovery codes go with the person's last strong factor: turning the app off and on again does not revive the old set", async () => {
  const who = await person();
  const browser = await signIn(who.username);
  const code = await withAuthenticator(browser);
  const made = await browser.post<{ codes: string[] }>('/api/user/recovery-codes', { password: transform(PASSWORD) });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  assert.equal((await browser.post('/api/user/totp/disable', { code: code() })).status, 200);
  // Months later the person sets up a new app; the codes printed for the old one lie in a drawer.
  await withAuthenticator(browser);
  const answer = await server
    .client()
    .post<LoginAnswer>('/api/authc/login', { username: who.username, password: transform(PASSWORD), code: made.body.data.codes[0] });
  assert.equal(answer.status, 401, JSON.stringify(answer.body));
  assert.notEqual(
    answer.body.data?.loginSuccess,
    true,
    'a recovery code made for an authenticator app that was turned off passes the second step of the new one (codes can be held without a strong factor)',
  );
});

test('the expired-password change is granted to the browser that passed the second factor, not to anyone holding the password', async () => {
  const who = await person();
  const code = await withAuthenticator(await signIn(who.username));
  const current = await admin.get<{ value: { passwordPolicy: Record<string, unknown> }; version: number }>('/api/settings/login');
  const earlier = current.body.data.value.passwordPolicy;
  const saved = await admin.put('/api/settings/login', { passwordPolicy: { ...earlier, expiryDays: 30 }, version: current.body.data.version });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  try {
    // The password is 40 days old.
    await server.app.ctx.db
      .updateTable('users')
      .set({ passwordChangedAt: server.clock.now() - 40 * 24 * 3600_000 })
      .where('id', '=', who.id)
      .execute();
    // The person signs in with the password and the authenticator app: the change of the expired password is asked.
    const own = await server.client().post<LoginAnswer>('/api/authc/login', { username: who.username, password: transform(PASSWORD), code: code() });
    assert.equal(own.body.data?.nextStep, 'PASSWORD_EXPIRED', JSON.stringify(own.body));
    // Someone holding the password alone (no authenticator app), in another browser, waiting for this moment.
    const thief = server.client();
    const taken = await thief.put<LoginAnswer>('/api/authc/password/expired', {
      username: who.username,
      password: transform(PASSWORD),
      newPassword: transform('Thief-chose-1'),
    });
    // Refused for want of the step ticket the second factor answered (400: stepTicket required).
    assert.equal(taken.status, 400, JSON.stringify(taken.body));
    assert.notEqual(
      taken.body.data?.loginSuccess,
      true,
      `a browser that never passed the authenticator app used the grant: it set the password and got a session (${JSON.stringify(taken.body)})`,
    );
  } finally {
    const latest = await admin.get<{ version: number }>('/api/settings/login');
    await admin.put('/api/settings/login', { passwordPolicy: earlier, version: latest.body.data.version });
  }
});
