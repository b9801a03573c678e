// Outsider round 6: hostile tests against the newest sign-in surface (step tickets after a phone
// code or a third-party provider, passkeys, recovery codes, the expired-password change, the
// third-party complement, the OIDC provider's step-up parameters, a session's reach over the
// account's own credentials, SCIM tokens). Each test asserts the secure behaviour and fails on the
// code it was written against; every test runs on PostgreSQL too (IAM_TEST_DB=postgres).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Answer, type Client, type TestServer } from './harness';
import { signInAtProvider, startIdentityProvider } from './identity-provider';
import { SoftwareAuthenticator } from './software-authenticator';
import { RelyingParty } from './oidc-rp';
import { peopleMaker, setLogin as setLoginOf, withAuthenticator as turnOnAuthenticator, withAuthenticatorOfPasswordless } from './sign-in-support';
import { createTenant, createToken, scimClient } from './scim-support';

const PASSWORD = 'Round6pass1';
const RP_ID = 'localhost';
const PAGE = 'http://localhost:5173';

interface LoginAnswer {
  loginSuccess: boolean;
  nextStep?: string;
  stepTicket?: string;
}

let server: TestServer;
let admin: Client;

before(async () => {
  server = await startServer({ webauthn: { rpId: RP_ID, origins: [PAGE] }, outboundAllow: ['127.0.0.1'] });
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

const person = peopleMaker(() => admin, 'R6', PASSWORD, 6100);

const setLogin = (changes: Record<string, unknown>) => setLoginOf(admin, changes);
const PASSWORD_SIGN_IN = { loginMethod: 'USERNAME_PASSWORD', secondAuth: null, adminStrongFactor: false, maxFailures: 5, captchaAfterFailures: 3 };

async function signIn(username: string): Promise<Client> {
  const browser = server.client();
  const answer = await browser.login(username, PASSWORD);
  assert.equal(answer.body.data?.loginSuccess, true, JSON.stringify(answer.body));
  return browser;
}

const withAuthenticator = (browser: Client) => turnOnAuthenticator(server, browser, PASSWORD);

/** Asks for a phone sign-in code for `who` (a minute after the last one) and answers it. */
async function phoneCode(who: { id: string; phone: string }): Promise<string> {
  server.clock.advance(61_000);
  const asked = server.clock.now();
  assert.equal((await server.client().post('/api/authc/login/code', { phone: who.phone })).status, 200);
  for (let tries = 0; tries < 50; tries += 1) {
    const message = await server.app.ctx.db
      .selectFrom('messages')
      .select(['content', 'createdAt'])
      .where('recipientId', '=', who.id)
      .orderBy('createdAt', 'desc')
      .executeTakeFirst();
    if (message && message.createdAt >= asked) return /(\d{6})/.exec(message.content)![1]!;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no code was sent');
}

const byPhone = async (who: { id: string; phone: string }, browser = server.client()): Promise<Answer<LoginAnswer>> =>
  browser.post<LoginAnswer>('/api/authc/login', { username: who.phone, code: await phoneCode(who) });
const step = (browser: Client, stepTicket: string | undefined, code: string) => browser.post<LoginAnswer>('/api/authc/login/step', { stepTicket, code });

const bulk = async (action: 'disable' | 'enable', id: string) => {
  const answer = await admin.post<{ results: { ok: boolean }[] }>('/api/user/bulk', { action, ids: [id] });
  assert.equal(answer.body.data?.results?.[0]?.ok, true, JSON.stringify(answer.body));
};

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

/** A provider and a person linked to it through a first sign-in; `viaProvider` runs one more trip. */
async function linkedThroughProvider(code: string, sub: string) {
  const subject = { sub, preferred_username: sub, name: sub, email: `${sub}@corp.example` };
  const idp = await startIdentityProvider(`${server.base}/api/interaction/idp/${code}/authorize/callback`, subject);
  const created = await admin.post('/api/idps', {
    code,
    name: `R6 ${code}`,
    type: 'OIDC',
    config: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const viaProvider = async (body: Record<string, unknown> = {}) => {
    const browser = server.client();
    const ticket = (await signInAtProvider(browser, code)).searchParams.get('access_ticket')!;
    const answer = await browser.post<LoginAnswer>(`/api/interaction/idp/${code}/authorize/after/user/complement?access_ticket=${ticket}`, body);
    return { answer, browser };
  };
  const first = await viaProvider({ username: sub, realName: sub, email: subject.email });
  assert.equal(first.answer.body.data?.loginSuccess, true, JSON.stringify(first.answer.body));
  const row = await server.app.ctx.db.selectFrom('users').select('id').where('username', '=', sub).executeTakeFirstOrThrow();
  return { idp, viaProvider, userId: row.id, browser: first.browser };
}

test('a disabled person linked to a provider is refused at the third-party sign-in, not answered "Login success" and audited as signed in', async () => {
  const { idp, viaProvider, userId } = await linkedThroughProvider('r6gone', 'r6gone-eve');
  try {
    await bulk('disable', userId);
    const since = server.clock.now();
    const { answer } = await viaProvider();
    const audited = await server.app.ctx.db
      .selectFrom('auditLog')
      .select(['action', 'success'])
      .where('targetId', '=', userId)
      .where('action', '=', 'login.third_party')
      .where('at', '>=', since)
      .execute();
    assert.equal(answer.status, 401, JSON.stringify(answer.body));
    assert.notEqual(answer.body.data?.loginSuccess, true, `a disabled person was answered: ${JSON.stringify(answer.body)}`);
    assert.equal(audited.length, 0, `a disabled person's third-party sign-in is in the audit log as a success: ${JSON.stringify(audited)}`);
  } finally {
    await idp.stop();
  }
});

test('a step ticket of a third-party sign-in stops working once the administrator disables that provider', async () => {
  const { idp, viaProvider } = await linkedThroughProvider('r6cut', 'r6cut-fay');
  try {
    // Set up with a password an administrator gives (the provider's person has none; setting up takes one).
    const code = await withAuthenticatorOfPasswordless(server, admin, 'r6cut-fay', PASSWORD);
    const later = await viaProvider();
    assert.equal(later.answer.body.data?.nextStep, 'TOTP', JSON.stringify(later.answer.body));
    // The provider turns out to be compromised: the administrator switches it off.
    const off = await admin.put('/api/idps/r6cut', { enabled: false });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    const done = await step(later.browser, later.answer.body.data.stepTicket, code());
    assert.equal(done.status, 401, JSON.stringify(done.body));
    assert.notEqual(
      done.body.data?.loginSuccess,
      true,
      `the provider is disabled (its own tickets answer 404), yet a sign-in it vouched for went on: ${JSON.stringify(done.body)}`,
    );
  } finally {
    await idp.stop();
  }
});

test('removing a passkey at an unlocked screen takes proof, like turning the authenticator app off', async () => {
  const who = await person();
  const browser = await signIn(who.username);
  const key = new SoftwareAuthenticator(PAGE, RP_ID);
  const options = await browser.post<{ challenge: string; rp: { id?: string }; user: { id: string } }>('/api/user/passkeys/options', {
    password: transform(PASSWORD),
  });
  assert.equal(options.status, 200, JSON.stringify(options.body));
  const added = await browser.post<{ id: string }>('/api/user/passkeys', { name: 'Laptop', credential: key.create(options.body.data) });
  assert.equal(added.status, 200, JSON.stringify(added.body));
  // The app cannot be turned off by someone at the unlocked screen (it takes a current code).
  await withAuthenticator(browser);
  assert.equal((await browser.post('/api/user/totp/disable', {})).status, 400);
  // The passkey, the stronger factor, goes with the session alone.
  const removed = await browser.delete(`/api/user/passkeys/${added.body.data.id}`);
  assert.equal(removed.status, 400, `removing a passkey without the password: ${JSON.stringify(removed.body)}`);
  const left = await browser.get<unknown[]>('/api/user/passkeys');
  assert.equal(left.body.data.length, 1, `a passkey was removed with the session alone (${removed.status}): no password, no passkey, no code`);
});

test("guessing the password at the personal center's re-checks (adding a passkey) counts towards the account's lockout", async () => {
  // A borrowed or stolen session does not know the password; the password is what adding a
  // passkey (a lasting way in) asks for. Its wrong guesses must not be free of the lockout.
  const who = await person();
  const browser = await signIn(who.username);
  await setLogin({ maxFailures: 5, captchaAfterFailures: 0, captchaEnabled: false });
  try {
    const statuses: number[] = [];
    for (let guess = 0; guess < 8; guess += 1) {
      statuses.push((await browser.post('/api/user/passkeys/options', { password: transform(`Guess-${guess}-x1`) })).status);
    }
    const right = await browser.post('/api/user/passkeys/options', { password: transform(PASSWORD) });
    const failures = await server.app.ctx.db.selectFrom('loginThrottle').select(['username', 'failures']).execute();
    assert.equal(
      right.status,
      429,
      `8 wrong passwords (maxFailures 5: ${statuses.join(',')}), then the right one is accepted: an unlimited password oracle for whoever holds a session (lockout rows: ${JSON.stringify(failures)})`,
    );
  } finally {
    await setLogin(PASSWORD_SIGN_IN);
    await server.app.ctx.db.deleteFrom('loginThrottle').execute();
  }
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

/** A new provider `code` vouching for `sub`; answers a complement call bound to one browser's ticket. */
async function firstTimeAtProvider(code: string, sub: string) {
  const idp = await startIdentityProvider(`${server.base}/api/interaction/idp/${code}/authorize/callback`, {
    sub,
    preferred_username: sub,
    name: sub,
    email: `${sub}@corp.example`,
  });
  const created = await admin.post('/api/idps', {
    code,
    name: `R6 ${code}`,
    type: 'OIDC',
    config: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const browser = server.client();
  const ticket = (await signInAtProvider(browser, code)).searchParams.get('access_ticket')!;
  const complement = (body: Record<string, unknown>) =>
    browser.post<LoginAnswer>(`/api/interaction/idp/${code}/authorize/after/user/complement?access_ticket=${ticket}`, body);
  return { idp, complement };
}

test("a first-time third-party sign-in giving another account's email or phone gets a field error and keeps its ticket (not a 500 that used it up)", async () => {
  const holder = await person({ email: 'r6-holder@corp.example' });
  const { idp, complement } = await firstTimeAtProvider('r6new', 'r6newbie');
  try {
    const taken = await complement({ username: 'r6newbie', realName: 'Newbie', email: 'R6-Holder@corp.example' });
    assert.equal(taken.status, 400, `another account's email at the complement: ${taken.status} ${JSON.stringify(taken.body)}`);
    const takenPhone = await complement({ username: 'r6newbie', realName: 'Newbie', mobilePhone: holder.phone });
    assert.equal(takenPhone.status, 400, `another account's phone at the complement: ${takenPhone.status} ${JSON.stringify(takenPhone.body)}`);
    const done = await complement({ username: 'r6newbie', realName: 'Newbie' });
    assert.equal(done.body.data?.loginSuccess, true, `the refusals used the ticket up: ${JSON.stringify(done.body)}`);
  } finally {
    await idp.stop();
  }
});

test("an email typed at the first-time third-party complement (neither the one the provider vouched for nor proven by a code) does not become the account's address", async () => {
  const { idp, complement } = await firstTimeAtProvider('r6typed', 'r6typist');
  try {
    const unproven = 'r6-someone-else@corp.example';
    const done = await complement({ username: 'r6typist', realName: 'Typist', email: unproven });
    assert.equal(done.body.data?.loginSuccess, true, JSON.stringify(done.body));
    const row = await server.app.ctx.db.selectFrom('users').select('email').where('username', '=', 'r6typist').executeTakeFirstOrThrow();
    assert.notEqual(
      row.email,
      unproven,
      "anyone with an account at the provider stores an address they never proved as the account's sign-in and reset address (a person changing their own address in the console proves it first; the address is then taken for its real owner)",
    );
  } finally {
    await idp.stop();
  }
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

test('an app asking for a fresh sign-in (prompt=login, max_age) is not told one happened when the console session simply allowed it', async () => {
  const portal = await RelyingParty.register(server, admin, 'Round6Portal');
  const who = await person();
  const browser = await signIn(who.username);
  const signedInAt = Math.floor(Date.now() / 1000);
  // Some time later the app wants the person to prove they are at the keyboard (before a payment, say).
  await new Promise((resolve) => setTimeout(resolve, 2_100));
  const request = await portal.authorization('openid', { prompt: 'login', max_age: '1' });
  const { url } = await portal.follow(browser, request.url);
  if (url.pathname === '/oauth/authorize') {
    const allowed = await browser.post<{ redirectURL: string }>(`/api/sso/interactions/${url.searchParams.get('uid')}`, { allow: true });
    // Refused without a fresh sign-in (what the app asked for): the page offers "Sign in again".
    assert.equal(allowed.status, 401, JSON.stringify(allowed.body));
    return;
  }
  if (url.origin + url.pathname !== portal.callback || !url.searchParams.get('code')) return;
  const tokens = await portal.exchange(url, request.verifier, request.state);
  const claims = JSON.parse(Buffer.from(tokens.id_token!.split('.')[1]!, 'base64url').toString()) as { auth_time?: number };
  assert.ok(
    claims.auth_time !== undefined && claims.auth_time <= signedInAt + 1,
    `no password, passkey or code was asked, yet the ID token says the person signed in at ${claims.auth_time} (the console sign-in was at ${signedInAt}): the app's prompt=login / max_age step-up is void`,
  );
});

/** The latest code sent to `address` for `userId` (written after the answer: waited for). */
async function codeSentTo(userId: string, address: string, since: number): Promise<string | undefined> {
  for (let tries = 0; tries < 30; tries += 1) {
    const message = await server.app.ctx.db
      .selectFrom('messages')
      .select(['content', 'createdAt', 'address'])
      .where('recipientId', '=', userId)
      .where('createdAt', '>=', since)
      .orderBy('createdAt', 'desc')
      .execute();
    const found = message.find((row) => row.address === address);
    if (found) return /(\d{6})/.exec(found.content)?.[1];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
}

test("a borrowed session alone (no password) cannot make the account's reset phone its own and take the account over", async () => {
  const who = await person();
  const session = await signIn(who.username);
  const attackerPhone = '13900009696';
  const steps: string[] = [];
  // 1. The phone of the profile, to the attacker's: the code goes to the attacker's phone.
  server.clock.advance(61_000);
  let since = server.clock.now();
  const profile = await session.put('/api/user/profile', { realName: 'R6_Victim', mobilePhone: attackerPhone });
  steps.push(`profile ${profile.status}`);
  const confirmCode = profile.status === 200 ? await codeSentTo(who.id, attackerPhone, since) : undefined;
  const confirmed = confirmCode && (await session.post('/api/user/profile/contact/confirm', { channel: 'mobilePhone', code: confirmCode }));
  steps.push(`confirm ${confirmed ? confirmed.status : '-'}`);
  // 2. A password reset by SMS to that phone.
  server.clock.advance(61_000);
  since = server.clock.now();
  const asked = await server.client().post('/api/user/password/reset-code', { identifier: attackerPhone });
  steps.push(`reset-code ${asked.status}`);
  const resetCode = await codeSentTo(who.id, attackerPhone, since);
  const reset =
    resetCode && (await server.client().put('/api/user/password', { identifier: attackerPhone, code: resetCode, password: transform('Attacker-owns-1') }));
  steps.push(`reset ${reset ? reset.status : '-'}`);
  // 3. The attacker signs in with their own password, for good.
  const taken = await server.client().login(who.username, 'Attacker-owns-1');
  assert.equal(taken.status, 401, JSON.stringify(taken.body));
  assert.notEqual(
    taken.body.data?.loginSuccess,
    true,
    `with the session alone (${steps.join(', ')}), the account's phone became the attacker's and its password was reset by SMS: no current password was asked (adding a passkey asks for it)`,
  );
});

test('a SCIM token made by a tenant administrator stops working once that administrator is disabled (it does not outlive their rights)', async () => {
  const tenant = await createTenant(admin, 'Round6ScimCo');
  const boss = await person({ tenantId: tenant.id, isAdmin: true });
  const bossSession = await signIn(boss.username);
  const { secret } = await createToken(bossSession, tenant.id, 'Leaving admin', { currentPassword: transform(PASSWORD) });
  const scim = scimClient(server.base, secret);
  assert.equal((await scim('GET', '/Users')).status, 200);
  // The administrator leaves (or is caught): the platform administrator disables them.
  await bulk('disable', boss.id);
  assert.equal((await bossSession.get('/api/cas/session')).status, 401, 'their session ended');
  const after = await scim('GET', '/Users');
  assert.equal(
    after.status,
    401,
    `the disabled administrator's token still acts as a tenant administrator (${after.status}): a credential outliving the person's rights`,
  );
});

test('the limit of passkeys per person holds when several registrations were started before any finished', async () => {
  const who = await person();
  const browser = await signIn(who.username);
  const key = new SoftwareAuthenticator(PAGE, RP_ID);
  // 25 starts while the list is empty: each passes the count check of the start.
  const started = [];
  for (let index = 0; index < 25; index += 1) {
    const options = await browser.post<{ challenge: string; rp: { id?: string }; user: { id: string } }>('/api/user/passkeys/options', {
      password: transform(PASSWORD),
    });
    assert.equal(options.status, 200, JSON.stringify(options.body));
    started.push(options.body.data);
  }
  const statuses = [];
  for (const [index, options] of started.entries()) {
    statuses.push((await browser.post('/api/user/passkeys', { name: `Key ${index}`, credential: key.create(options) })).status);
  }
  const list = await browser.get<unknown[]>('/api/user/passkeys');
  assert.deepEqual(statuses, [...Array<number>(20).fill(200), ...Array<number>(5).fill(400)], 'the 21st and later registrations are refused with 400');
  assert.ok(list.body.data.length <= 20, `${list.body.data.length} passkeys stored for one person, past the limit of 20 (${statuses.join(',')})`);
});
