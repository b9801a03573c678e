// What a borrowed session or an unlocked screen can still do without the password: the personal
// center's re-checks (passkeys, the reset phone and email, one's own unlock) and the failure count
// they feed (server/auth/recheck.ts, contact-change.ts, throttle.ts). Each test is hostile and
// failed on the code before its fix; every test runs on PostgreSQL too (IAM_TEST_DB=postgres).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer } from './harness';
import { SoftwareAuthenticator } from './software-authenticator';
import { authenticator, peopleMaker, setLogin as setLoginOf, codeSentTo } from './sign-in-support';
import { createTenant } from './scim-support';

const PASSWORD = 'Round7pass1';
const RP_ID = 'localhost';
const PAGE = 'http://localhost:5173';

let server: TestServer;
let admin: Client;

before(async () => {
  server = await startServer({ webauthn: { rpId: RP_ID, origins: [PAGE] } });
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

const person = peopleMaker(() => admin, 'R7', PASSWORD, 7100);

async function signIn(username: string): Promise<Client> {
  const browser = server.client();
  const answer = await browser.login(username, PASSWORD);
  assert.equal(answer.body.data?.loginSuccess, true, JSON.stringify(answer.body));
  return browser;
}

/** `browser`'s person adds a passkey (with their password): its id. */
async function addPasskey(browser: Client): Promise<string> {
  const key = new SoftwareAuthenticator(PAGE, RP_ID);
  const options = await browser.post<{ challenge: string; rp: { id?: string }; user: { id: string } }>('/api/user/passkeys/options', {
    password: transform(PASSWORD),
  });
  assert.equal(options.status, 200, JSON.stringify(options.body));
  const added = await browser.post<{ id: string }>('/api/user/passkeys', { name: 'Laptop', credential: key.create(options.body.data) });
  assert.equal(added.status, 200, JSON.stringify(added.body));
  return added.body.data.id;
}

test("a borrowed session cannot strip the person's passkey by first setting up an authenticator app of its own (removing takes the password or the person's own app)", async () => {
  const who = await person();
  const owner = await signIn(who.username);
  const passkey = await addPasskey(owner);
  // Someone else holds a session of the person (an unlocked screen): no password, no passkey.
  const borrowed = await signIn(who.username);
  assert.equal((await borrowed.delete(`/api/user/passkeys/${passkey}`)).status, 400, 'the session alone is refused');
  // They enrol an app on their own phone (the session alone sets one up) and prove "the app".
  const steps: string[] = [];
  const enrol = await borrowed.post<{ secret: string }>('/api/user/totp');
  steps.push(`enrol ${enrol.status}`);
  if (enrol.status === 200) {
    const code = authenticator(server, enrol.body.data.secret);
    steps.push(`confirm ${(await borrowed.post('/api/user/totp/confirm', { code: code() })).status}`);
    steps.push(`remove ${(await borrowed.request('DELETE', `/api/user/passkeys/${passkey}`, { code: code() })).status}`);
  }
  const left = await owner.get<unknown[]>('/api/user/passkeys');
  assert.equal(
    left.body.data.length,
    1,
    `the passkey was removed from a borrowed session (${steps.join(', ')}): an authenticator app set up with the session alone served as the proof`,
  );
});

test("a tenant administrator's borrowed session cannot move their own reset phone through the user-administration call (PUT /user/{own id}) without the password", async () => {
  const tenant = await createTenant(admin, 'Round7Co');
  const boss = await person({ tenantId: tenant.id, isAdmin: true });
  const session = await signIn(boss.username);
  const own = await session.get<{ version: number; mobilePhone?: string }>(`/api/user/${boss.id}`);
  assert.equal(own.status, 200, JSON.stringify(own.body));
  // The profile call asks for the password (round 6)…
  assert.equal((await session.put('/api/user/profile', { realName: 'R7_Boss', mobilePhone: '13900009797' })).status, 400);
  // …the administration call on one's own record does not.
  const moved = await session.put(`/api/user/${boss.id}`, { mobilePhone: '13900009797', version: own.body.data.version });
  const row = await server.app.ctx.db.selectFrom('users').select('mobilePhone').where('id', '=', boss.id).executeTakeFirstOrThrow();
  assert.notEqual(
    row.mobilePhone,
    '13900009797',
    `a session alone (${moved.status}) made an attacker's number the administrator's sign-in and reset phone, unconfirmed: the profile's password re-check is skipped`,
  );
});

/** A password reset by SMS to `phone` for `userId`, setting `password`: the steps' statuses. */
async function resetByPhone(userId: string, phone: string, password: string): Promise<string[]> {
  server.clock.advance(61_000);
  const since = server.clock.now();
  const steps = [`reset-code ${(await server.client().post('/api/user/password/reset-code', { identifier: phone })).status}`];
  const code = await codeSentTo(server, userId, phone, since);
  const reset = code && (await server.client().put('/api/user/password', { identifier: phone, code, password: transform(password) }));
  steps.push(`reset ${reset ? reset.status : '-'}`);
  return steps;
}

test("a tenant administrator's borrowed session cannot take over a member by moving the member's phone and resetting by SMS (the administrator's reset itself takes their password)", async () => {
  const tenant = await createTenant(admin, 'Round7Members');
  const boss = await person({ tenantId: tenant.id, isAdmin: true });
  const member = await person({ tenantId: tenant.id });
  const session = await signIn(boss.username);
  // The direct way is guarded: resetting the member's password takes the administrator's own password.
  const direct = await session.post(`/api/user/${member.id}/password`, {
    id: member.id,
    password: transform('Attacker-owns-1'),
    opUserPassword: transform('not-known-1'),
  });
  assert.equal(direct.status, 400, JSON.stringify(direct.body));
  // The way around it: the member's phone becomes the attacker's, then "forgot password".
  const current = await session.get<{ version: number }>(`/api/user/${member.id}`);
  const attackerPhone = '13900009798';
  const moved = await session.put(`/api/user/${member.id}`, { mobilePhone: attackerPhone, version: current.body.data.version });
  const steps = [`move ${moved.status}`, ...(await resetByPhone(member.id, attackerPhone, 'Attacker-owns-1'))];
  const taken = await server.client().login(member.username, 'Attacker-owns-1');
  assert.notEqual(
    taken.body.data?.loginSuccess,
    true,
    `without the administrator's password (${steps.join(', ')}), the member's account is the attacker's: the contact change skips the re-check the reset asks for`,
  );
});

test("a borrowed session cannot silently remove the person's phone and email (the addresses their password reset and sign-in notices go to)", async () => {
  const who = await person({ email: 'r7-owner@corp.example' });
  const session = await signIn(who.username);
  // Setting a new address takes the password (round 6); clearing one should too.
  const cleared = await session.put('/api/user/profile', { realName: 'R7_Owner', mobilePhone: '', email: '' });
  const row = await server.app.ctx.db.selectFrom('users').select(['mobilePhone', 'email']).where('id', '=', who.id).executeTakeFirstOrThrow();
  assert.deepEqual(
    row,
    { mobilePhone: who.phone, email: 'r7-owner@corp.example' },
    `a session alone (${cleared.status}) removed the account's phone and email: the owner can no longer reset the password or sign in by phone, and gets no new-device notice`,
  );
});

const setLogin = (changes: Record<string, unknown>) => setLoginOf(admin, changes);

test("a tenant administrator's borrowed session cannot lift the re-check's lockout by unlocking their own account (an endless password oracle)", async () => {
  const tenant = await createTenant(admin, 'Round7Unlock');
  const boss = await person({ tenantId: tenant.id, isAdmin: true });
  const session = await signIn(boss.username);
  await setLogin({ maxFailures: 5, captchaAfterFailures: 0, captchaEnabled: false });
  try {
    const statuses: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      for (let guess = 0; guess < 5; guess += 1) {
        statuses.push((await session.post('/api/user/passkeys/options', { password: transform(`Guess-${round}-${guess}-x1`) })).status);
      }
      // Locked by the re-check: the same session unlocks its own account and guesses on.
      statuses.push((await session.delete(`/api/authc/user/${boss.id}/login/unlock`)).status);
    }
    const right = await session.post('/api/user/passkeys/options', { password: transform(PASSWORD) });
    assert.notEqual(
      right.status,
      200,
      `15 wrong passwords at the re-check with a lockout after 5, then the right one is accepted (${statuses.join(',')}): the session unlocks its own account between rounds`,
    );
  } finally {
    await setLogin({ maxFailures: 5, captchaAfterFailures: 3 });
    await server.app.ctx.db.deleteFrom('loginThrottle').execute();
  }
});

test("an account whose username differs only in letter case does not share the victim's failure count (its sign-ins would reset the victim's lockout)", async () => {
  // The victim, and an account the attacker holds (an administrator made it, or the attacker chose
  // the name at a first third-party sign-in) named like the victim in other letter case.
  const victim = await admin.post('/api/user', { username: 'r7-casey', realName: 'Casey', password: transform(PASSWORD) });
  assert.equal(victim.status, 200, JSON.stringify(victim.body));
  const twin = await admin.post('/api/user', { username: 'R7-CASEY', realName: 'Twin', password: transform('Twin-pass-1') });
  if (twin.status !== 200) return; // names differing in case are one name: nothing to share
  await setLogin({ maxFailures: 5, captchaAfterFailures: 0, captchaEnabled: false });
  try {
    const statuses: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      for (let guess = 0; guess < 4; guess += 1) {
        statuses.push((await server.client().login('r7-casey', `Guess-${round}-${guess}-x1`)).status);
      }
      // The attacker signs in to their own account: "its" counts are cleared, the victim's with them.
      statuses.push((await server.client().login('R7-CASEY', 'Twin-pass-1')).status);
    }
    const right = await server.client().login('r7-casey', PASSWORD);
    assert.notEqual(
      right.body.data?.loginSuccess,
      true,
      `12 wrong passwords for r7-casey (maxFailures 5), interleaved with sign-ins of R7-CASEY (${statuses.join(',')}), and the account is not locked: one failure count for two accounts`,
    );
  } finally {
    await setLogin({ maxFailures: 5, captchaAfterFailures: 3 });
    await server.app.ctx.db.deleteFrom('loginThrottle').execute();
  }
});
