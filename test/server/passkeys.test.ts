// Passkeys with a software authenticator (test/server/software-authenticator.ts) against the real
// verifier: adding one in the personal center (current password first), the list, renaming and
// removing; signing in with one (cookie and token mode, lockout, disabled account, audit); a
// passkey as the second step; and every hostile or broken answer refused with its own message:
// another account's credential, a replayed assertion (also in a parallel burst), a wrong origin,
// a wrong RP ID, a counter going backwards, an expired challenge, a challenge of another flow (in
// Chinese too, for a console in Chinese).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import { ADMIN, transform, startServer, type Client, type TestServer } from './harness';
import { SoftwareAuthenticator } from './software-authenticator';
import { CHALLENGE_EXPIRED, CHALLENGE_UNKNOWN } from '../../server/auth/passkeys/challenges';
import { COUNTER_BACKWARDS, NOT_VERIFIED, WRONG_ORIGIN, WRONG_RP_ID } from '../../server/auth/passkeys/ceremony';
import { ANOTHER_ACCOUNT, ALREADY_YOURS } from '../../server/auth/passkeys/own-passkeys';
import { NOT_YOURS, UNKNOWN_PASSKEY } from '../../server/auth/passkeys/assertion';
import { hasPasskey } from '../../server/auth/passkeys/has-passkey';
import { resolveConfig } from '../../server/config';
import { localizeMessage } from '../../server/http/language';

const RP_ID = 'localhost';
const PAGE = 'http://localhost:5173';
const SHOP = 'http://shop.localhost:8081';
const PASSWORD = 'Passkey-user-1';

let server: TestServer;
let admin: Client;
before(async () => {
  server = await startServer({ webauthn: { rpId: RP_ID, origins: [PAGE, SHOP] }, corsOrigins: [SHOP] });
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

let people = 0;
interface Person {
  id: string;
  username: string;
  client: Client;
  authenticator: SoftwareAuthenticator;
}

/** A new member, signed in, with an authenticator of their own (no passkey yet). */
async function person(): Promise<Person> {
  people += 1;
  const username = `pk_user_${people}`;
  const created = await admin.post<{ id: string }>('/api/user', {
    username,
    realName: `Passkey_${people}`,
    password: transform(PASSWORD),
    mobilePhone: `1380000${String(people).padStart(4, '0')}`,
    extraProp: {},
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const client = server.client();
  assert.equal((await client.login(username, PASSWORD)).body.data.loginSuccess, true);
  return { id: created.body.data.id, username, client, authenticator: new SoftwareAuthenticator(PAGE, RP_ID) };
}

type Options = { challenge: string; rp: { id?: string }; user: { id: string }; pubKeyCredParams: { alg: number }[] };

async function registrationOptions(who: Person): Promise<Options> {
  const answer = await who.client.post<Options>('/api/user/passkeys/options', { password: transform(PASSWORD) });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data;
}

/** Adds a passkey through the personal center's calls; answers its id. */
async function addPasskey(who: Person, name = 'Laptop'): Promise<string> {
  const credential = who.authenticator.create(await registrationOptions(who));
  const added = await who.client.post<{ id: string }>('/api/user/passkeys', { name, credential });
  assert.equal(added.status, 200, JSON.stringify(added.body));
  return added.body.data.id;
}

async function signInOptions(client: Client): Promise<{ challenge: string; rpId?: string }> {
  const answer = await client.post<{ challenge: string; rpId?: string }>('/api/authc/passkey/options');
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data;
}

const removeWithPassword = (who: Person, id: string) => who.client.request('DELETE', `/api/user/passkeys/${id}`, { password: transform(PASSWORD) });

const passkeyLogin = (client: Client, credential: unknown, headers?: Record<string, string>) =>
  client.post<{ loginSuccess: boolean; token?: string }>('/api/authc/passkey/login', { credential }, headers);

/** Runs `work` under these login settings, then puts the earlier ones back. */
async function withPolicy(changes: Record<string, unknown>, work: () => Promise<void>): Promise<void> {
  const current = await admin.get<{ value: Record<string, unknown>; version: number }>('/api/settings/login');
  const saved = await admin.put('/api/settings/login', { ...changes, version: current.body.data.version });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  try {
    await work();
  } finally {
    const latest = await admin.get<{ version: number }>('/api/settings/login');
    const earlier = Object.fromEntries(Object.keys(changes).map((key) => [key, current.body.data.value[key]]));
    await admin.put('/api/settings/login', { ...earlier, version: latest.body.data.version });
  }
}

/** The administrator's own passkey (the PASSKEY policy needs the saver to have one). */
let adminAuthenticator: SoftwareAuthenticator | undefined;
async function withSecondAuth(secondAuth: 'PASSKEY' | 'TOTP', work: () => Promise<void>): Promise<void> {
  if (secondAuth === 'PASSKEY' && !adminAuthenticator) {
    const current = await admin.get<{ version: number }>('/api/settings/login');
    const refused = await admin.put<{ fields: { rule: string }[] }>('/api/settings/login', { secondAuth, version: current.body.data.version });
    assert.equal(refused.status, 400, 'the administrator has no passkey yet: they would lock themselves out');
    assert.equal(refused.body.data.fields[0]?.rule, 'rule.passkeyRequired');
    adminAuthenticator = new SoftwareAuthenticator(PAGE, RP_ID);
    const options = await admin.post<Options>('/api/user/passkeys/options', { password: transform(ADMIN.password) });
    assert.equal((await admin.post('/api/user/passkeys', { name: 'Admin key', credential: adminAuthenticator.create(options.body.data) })).status, 200);
  }
  await withPolicy({ secondAuth }, work);
}

async function lastAudit(action: string) {
  const list = await admin.get<{ list: { action: string; actorName: string | null; detail: Record<string, unknown>; success: boolean }[] }>(
    `/api/audit?action=${action}&size=1`,
  );
  return list.body.data.list[0];
}

describe('the personal center', () => {
  test('adding a passkey takes the current password; the list, rename and remove are audited', async () => {
    const ann = await person();
    assert.equal(await hasPasskey(server.app.ctx.db, ann.id), false);
    const wrong = await ann.client.post<{ fields: { field: string; rule: string }[] }>('/api/user/passkeys/options', {
      password: transform('Not-the-password-1'),
    });
    assert.equal(wrong.status, 400);
    assert.deepEqual(wrong.body.data.fields, [{ field: 'password', rule: 'rule.wrongPassword' }]);

    const options = await registrationOptions(ann);
    assert.equal(options.rp.id, RP_ID);
    const id = await addPasskey(ann, 'Work laptop');
    assert.equal(await hasPasskey(server.app.ctx.db, ann.id), true);
    const list = await ann.client.get<{ id: string; name: string; lastUsedAt: number | null }[]>('/api/user/passkeys');
    assert.deepEqual(
      list.body.data.map(({ id: key, name, lastUsedAt }) => ({ key, name, lastUsedAt })),
      [{ key: id, name: 'Work laptop', lastUsedAt: null }],
    );
    assert.ok(!JSON.stringify(list.body).includes(ann.authenticator.credentials[0]!.id.toString('base64url')), 'the credential id is not answered');
    assert.equal((await lastAudit('passkey.add'))?.actorName, ann.username);

    // The same authenticator credential again is refused, the options then exclude it.
    const again = await ann.client.post('/api/user/passkeys', {
      name: 'Again',
      credential: ann.authenticator.create(await registrationOptions(ann), { reuse: ann.authenticator.credentials[0] }),
    });
    assert.equal(again.status, 409);
    assert.equal(again.body.message, ALREADY_YOURS);

    const renamed = await ann.client.put<{ name: string }>(`/api/user/passkeys/${id}`, { name: '  Phone  ' });
    assert.equal(renamed.body.data.name, 'Phone');
    assert.equal((await ann.client.put(`/api/user/passkeys/${id}`, { name: '' })).status, 400);
    assert.equal((await lastAudit('passkey.rename'))?.detail.name, 'Phone');

    // Somebody else's passkey is out of reach.
    const bob = await person();
    assert.equal((await bob.client.put(`/api/user/passkeys/${id}`, { name: 'Mine' })).status, 404);
    assert.equal((await bob.client.delete(`/api/user/passkeys/${id}`)).status, 404);
    assert.equal((await bob.client.get<unknown[]>('/api/user/passkeys')).body.data.length, 0);

    // Removing takes the proof adding takes (the session alone is someone at an unlocked screen).
    type Refusal = { fields: { field: string; rule: string }[] };
    const bare = await ann.client.delete<Refusal>(`/api/user/passkeys/${id}`);
    assert.equal(bare.status, 400);
    assert.deepEqual(bare.body.data.fields, [{ field: 'password', rule: 'rule.required' }]);
    const guessed = await ann.client.request<Refusal>('DELETE', `/api/user/passkeys/${id}`, { password: transform('Not-the-password-1') });
    assert.equal(guessed.status, 400);
    assert.deepEqual(guessed.body.data.fields, [{ field: 'password', rule: 'rule.wrongPassword' }]);
    const noApp = await ann.client.request<Refusal>('DELETE', `/api/user/passkeys/${id}`, { code: '123456' });
    assert.deepEqual(noApp.body.data.fields, [{ field: 'code', rule: 'rule.totpCode' }], 'no authenticator app: no code passes');
    assert.equal(await hasPasskey(server.app.ctx.db, ann.id), true);

    // Ann's recovery codes go with her last strong factor.
    assert.equal((await ann.client.post('/api/user/recovery-codes', { password: transform(PASSWORD) })).status, 200);
    assert.equal((await removeWithPassword(ann, id)).status, 200);
    assert.equal((await ann.client.get<unknown[]>('/api/user/passkeys')).body.data.length, 0);
    assert.equal((await lastAudit('passkey.delete'))?.detail.name, 'Phone');
    assert.equal(await hasPasskey(server.app.ctx.db, ann.id), false);
    const codes = await ann.client.get<{ available: boolean; remaining: number }>('/api/user/recovery-codes');
    assert.deepEqual({ available: codes.body.data.available, remaining: codes.body.data.remaining }, { available: false, remaining: 0 });
    assert.deepEqual((await lastAudit('recovery.delete'))?.detail, { count: 10, lastFactor: 'passkey' });
  });

  test("wrong passwords at the re-checks count towards the account's lockout, a parallel burst included", async () => {
    const cat = await person();
    const id = await addPasskey(cat, 'Laptop');
    await withPolicy({ maxFailures: 5, captchaAfterFailures: 0, captchaEnabled: false }, async () => {
      try {
        // 16 guesses at once, at two re-checks: no more than maxFailures passwords are ever checked.
        const guesses = await Promise.all(
          Array.from({ length: 16 }, (_, n) =>
            n % 2
              ? cat.client.post('/api/user/passkeys/options', { password: transform(`Guess-${n}-x1`) })
              : cat.client.request('DELETE', `/api/user/passkeys/${id}`, { password: transform(`Guess-${n}-x1`) }),
          ),
        );
        const checked = guesses.filter((answer) => answer.status === 400).length;
        const locked = guesses.filter((answer) => answer.status === 429).length;
        assert.equal(checked + locked, 16, JSON.stringify(guesses.map((answer) => answer.status)));
        assert.ok(checked <= 5 - 1, `${checked} wrong passwords were answered as wrong (the fifth locks)`);
        const failures = await server.app.ctx.db
          .selectFrom('auditLog')
          .select('action')
          .where('targetId', '=', cat.id)
          .where('action', 'in', ['login.failure', 'login.locked'])
          .execute();
        assert.ok(
          failures.some((row) => row.action === 'login.locked'),
          'the account was locked, audited',
        );
        // Locked: the right password neither removes the passkey nor signs in.
        assert.equal((await removeWithPassword(cat, id)).status, 429);
        assert.equal(await hasPasskey(server.app.ctx.db, cat.id), true);
        assert.notEqual((await server.client().login(cat.username, PASSWORD)).body.data?.loginSuccess, true);
      } finally {
        await server.app.ctx.db.deleteFrom('loginThrottle').execute();
      }
    });
    // Unlocked again: the right password clears the count as a sign-in does.
    assert.equal((await cat.client.post('/api/user/passkeys/options', { password: transform('Guess-x-x1') })).status, 400);
    assert.equal((await registrationOptions(cat)).rp.id, RP_ID);
    assert.equal(
      (await server.app.ctx.db.selectFrom('loginThrottle').select('failures').where('username', '=', `username:${cat.username}`).executeTakeFirst())?.failures,
      undefined,
    );
  });

  test('a credential registered to another account is refused', async () => {
    const ann = await person();
    await addPasskey(ann);
    const eve = await person();
    const stolen = eve.authenticator.create(await registrationOptions(eve), { reuse: ann.authenticator.credentials[0] });
    const answer = await eve.client.post('/api/user/passkeys', { name: 'Not mine', credential: stolen });
    assert.equal(answer.status, 409);
    assert.equal(answer.body.message, ANOTHER_ACCOUNT);
    assert.equal((await eve.client.get<unknown[]>('/api/user/passkeys')).body.data.length, 0);
  });

  test('a registration challenge is bound to the session that asked for it', async () => {
    const ann = await person();
    const options = await registrationOptions(ann);
    const otherSession = server.client();
    await otherSession.login(ann.username, PASSWORD);
    const answer = await otherSession.post('/api/user/passkeys', { name: 'Elsewhere', credential: ann.authenticator.create(options) });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.message, CHALLENGE_UNKNOWN);
  });

  test('a registration without user verification, or with a hostile body, is refused', async () => {
    const ann = await person();
    const unverified = await ann.client.post('/api/user/passkeys', {
      name: 'Touch only',
      credential: ann.authenticator.create(await registrationOptions(ann), { noUserVerification: true }),
    });
    assert.equal(unverified.status, 400);
    const bodies = [
      { name: 'x' },
      { name: 'x', credential: { id: '!!', rawId: '!!', type: 'public-key', response: {}, clientExtensionResults: {} } },
      { name: 'x'.repeat(65), credential: {} },
    ];
    for (const body of bodies) {
      const answer = await ann.client.post<{ fields: unknown[] }>('/api/user/passkeys', body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.ok(answer.body.data.fields.length > 0);
    }
    const garbage = ann.authenticator.create(await registrationOptions(ann));
    garbage.response.clientDataJSON = Buffer.from('not json').toString('base64url');
    assert.equal((await ann.client.post('/api/user/passkeys', { name: 'Garbage', credential: garbage })).status, 400);
  });

  test('the options offer the key algorithms every supported Node.js verifies (EdDSA, ES256, RS256); an ML-DSA-44 key is refused', async () => {
    const ann = await person();
    const options = await registrationOptions(ann);
    // On Node.js 24 the library's default would put ML-DSA-44 (-48) first, and Chromium would take it.
    assert.deepEqual(
      options.pubKeyCredParams.map(({ alg }) => alg),
      [-8, -7, -257],
    );
    const postQuantum = ann.authenticator.create(options, { mlDsa44: true });
    const answer = await ann.client.post('/api/user/passkeys', { name: 'Post-quantum', credential: postQuantum });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.message, NOT_VERIFIED);
    assert.equal(await hasPasskey(server.app.ctx.db, ann.id), false);
  });
});

describe('signing in with a passkey', () => {
  test('opens a session like a password sign-in (cookie mode), audited with method passkey', async () => {
    const ann = await person();
    await addPasskey(ann);
    const browser = server.client();
    const answer = await passkeyLogin(browser, ann.authenticator.get(await signInOptions(browser)));
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.data.loginSuccess, true);
    const session = await browser.get<{ user: { username: string } }>('/api/cas/session');
    assert.equal(session.body.data.user.username, ann.username);
    const audit = await lastAudit('login.success');
    assert.equal(audit?.actorName, ann.username);
    assert.deepEqual(audit?.detail, { mode: 'cookie', method: 'passkey' });
    const [info] = (await ann.client.get<{ lastUsedAt: number | null }[]>('/api/user/passkeys')).body.data;
    assert.ok(info?.lastUsedAt);
  });

  test('in token mode from a listed origin under the RP ID', async () => {
    const ann = await person();
    await addPasskey(ann);
    const shop = server.client({ origin: SHOP });
    const settings = await shop.get<{ passkeyRpId: string | null }>('/api/settings/login/public', { origin: SHOP });
    assert.equal(settings.body.data.passkeyRpId, RP_ID);
    const credential = new SoftwareAuthenticator(SHOP, RP_ID);
    credential.credentials.push(...ann.authenticator.credentials);
    const answer = await passkeyLogin(shop, credential.get(await signInOptions(shop)), { 'x-iam-auth-mode': 'token' });
    assert.equal(answer.body.data.loginSuccess, true, JSON.stringify(answer.body));
    assert.ok(answer.body.data.token);
    assert.equal(shop.cookies.size, 0, 'no cookie in token mode');
  });

  test('the public settings hide passkeys from pages whose origin is not listed', async () => {
    const other = await server.client().get<{ passkeyRpId: string | null }>('/api/settings/login/public', { origin: 'http://evil.localhost:9999' });
    assert.equal(other.body.data.passkeyRpId, null);
    const listed = await server.client().get<{ passkeyRpId: string | null }>('/api/settings/login/public', { origin: PAGE });
    assert.equal(listed.body.data.passkeyRpId, RP_ID);
    // A same-origin page (no Origin header) is the server's own: 127.0.0.1 here, not listed.
    assert.equal((await server.client().get<{ passkeyRpId: string | null }>('/api/settings/login/public')).body.data.passkeyRpId, null);
  });

  test('a replayed assertion is refused, also in a parallel burst: one session at most', async () => {
    const ann = await person();
    await addPasskey(ann);
    const browser = server.client();
    const assertion = ann.authenticator.get(await signInOptions(browser));
    assert.equal((await passkeyLogin(browser, assertion)).body.data.loginSuccess, true);
    const replay = await passkeyLogin(server.client(), assertion);
    assert.equal(replay.status, 401);
    assert.equal(replay.body.message, CHALLENGE_UNKNOWN);

    const burst = ann.authenticator.get(await signInOptions(browser));
    const answers = await Promise.all(Array.from({ length: 6 }, () => passkeyLogin(server.client(), burst)));
    assert.equal(answers.filter((answer) => answer.status === 200).length, 1, JSON.stringify(answers.map((answer) => answer.body.message)));
  });

  test('a wrong origin, a wrong RP ID, an unknown passkey and an expired challenge are refused, each with its message', async () => {
    const ann = await person();
    await addPasskey(ann);
    const browser = server.client();
    const zh = { 'accept-language': 'zh-CN,zh;q=0.9' };
    const cases: [string, Parameters<SoftwareAuthenticator['get']>[1], string, Record<string, string>?][] = [
      ['wrong origin', { origin: 'https://evil.example' }, WRONG_ORIGIN],
      ['a listed-looking origin of another port', { origin: 'http://localhost:6666' }, localizeMessage(WRONG_ORIGIN, 'zh'), zh],
      ['wrong RP ID', { rpId: 'evil.example' }, WRONG_RP_ID],
    ];
    for (const [name, bend, message, headers] of cases) {
      const answer = await passkeyLogin(browser, ann.authenticator.get(await signInOptions(browser), bend), headers);
      assert.equal(answer.status, 401, name);
      assert.equal(answer.body.message, message, name);
    }
    assert.notEqual(localizeMessage(WRONG_ORIGIN, 'zh'), WRONG_ORIGIN, 'a Chinese text of its own');
    const stranger = new SoftwareAuthenticator(PAGE, RP_ID);
    stranger.create({ challenge: 'x', rp: { id: RP_ID }, user: { id: 'nobody' } });
    const unknown = await passkeyLogin(browser, stranger.get(await signInOptions(browser)));
    assert.equal(unknown.status, 401);
    assert.equal(unknown.body.message, UNKNOWN_PASSKEY);

    const options = await signInOptions(browser);
    server.clock.advance(5 * 60_000 + 1);
    const late = await passkeyLogin(browser, ann.authenticator.get(options));
    assert.equal(late.body.message, CHALLENGE_EXPIRED);
    // After these failures (below the lockout) the passkey still signs in.
    const after = await passkeyLogin(browser, ann.authenticator.get(await signInOptions(browser)));
    assert.equal(after.body.data?.loginSuccess, true, JSON.stringify(after.body));
  });

  test('a counter that goes backwards is refused; an authenticator that keeps no counter (0) is not', async () => {
    const ann = await person();
    await addPasskey(ann);
    const browser = server.client();
    assert.equal((await passkeyLogin(browser, ann.authenticator.get(await signInOptions(browser), { counter: 5 }))).body.data.loginSuccess, true);
    const back = await passkeyLogin(browser, ann.authenticator.get(await signInOptions(browser), { counter: 3 }), { 'accept-language': 'zh-CN' });
    assert.equal(back.status, 401);
    assert.equal(back.body.message, localizeMessage(COUNTER_BACKWARDS, 'zh'));
    assert.match(back.body.message, /计数器回退/);
    const same = await passkeyLogin(browser, ann.authenticator.get(await signInOptions(browser), { counter: 5 }));
    assert.equal(same.body.message, COUNTER_BACKWARDS);
    // A passkey alone must have verified the person (PIN, biometrics): a touch is not enough.
    const touch = await passkeyLogin(browser, ann.authenticator.get(await signInOptions(browser), { noUserVerification: true }));
    assert.equal(touch.body.message, NOT_VERIFIED);

    const zed = await person();
    await addPasskey(zed);
    for (let use = 0; use < 2; use += 1) {
      assert.equal((await passkeyLogin(browser, zed.authenticator.get(await signInOptions(browser), { counter: 0 }))).body.data.loginSuccess, true);
    }
  });

  test('a challenge of another flow is refused: registration, second step, sign-in are not interchangeable', async () => {
    const ann = await person();
    await addPasskey(ann);
    const browser = server.client();
    // A registration challenge offered as a sign-in's.
    const registration = await registrationOptions(ann);
    const asSignIn = await passkeyLogin(browser, ann.authenticator.get({ challenge: registration.challenge, rpId: RP_ID }));
    assert.equal(asSignIn.body.message, CHALLENGE_UNKNOWN);
    // A sign-in challenge offered as a registration's.
    const signIn = await signInOptions(browser);
    const asRegistration = await ann.client.post('/api/user/passkeys', {
      name: 'x',
      credential: ann.authenticator.create({ challenge: signIn.challenge, rp: { id: RP_ID }, user: { id: ann.id } }),
    });
    assert.equal(asRegistration.body.message, CHALLENGE_UNKNOWN);
    // A second-step challenge (bound to a person whose password was right) offered as a sign-in's.
    await withSecondAuth('PASSKEY', async () => {
      const step = await server.client().login(ann.username, PASSWORD);
      const options = step.body.data.passkeyOptions as { challenge: string };
      const answer = await passkeyLogin(browser, ann.authenticator.get({ challenge: options.challenge, rpId: RP_ID }));
      assert.equal(answer.body.message, CHALLENGE_UNKNOWN);
    });
  });

  test('a locked account stays locked; a disabled one is refused; failed assertions count toward the lock', async () => {
    const ann = await person();
    await addPasskey(ann);
    const browser = server.client();
    await withPolicy({ captchaAfterFailures: 0 }, async () => {
      for (let attempt = 0; attempt < 5; attempt += 1) await browser.login(ann.username, 'Wrong-password-1');
    });
    const locked = await passkeyLogin(browser, ann.authenticator.get(await signInOptions(browser)));
    assert.equal(locked.status, 429);
    assert.equal((await admin.delete(`/api/authc/user/${ann.id}/login/unlock`)).status, 200);

    for (let attempt = 0; attempt < 5; attempt += 1) {
      const answer = await passkeyLogin(browser, ann.authenticator.get(await signInOptions(browser), { origin: 'https://evil.example' }));
      assert.equal(answer.status, attempt < 4 ? 401 : 429);
    }
    assert.equal((await passkeyLogin(browser, ann.authenticator.get(await signInOptions(browser)))).status, 429);
    const password = await browser.login(ann.username, PASSWORD);
    assert.equal(password.status, 429, `the lock is the account's, whatever the way in: ${JSON.stringify(password.body)}`);
    await admin.delete(`/api/authc/user/${ann.id}/login/unlock`);

    const user = await admin.get<{ version: number }>(`/api/user/${ann.id}`);
    assert.equal((await admin.put(`/api/user/${ann.id}`, { availabilityStatus: 2, version: user.body.data.version })).status, 200);
    const disabled = await passkeyLogin(browser, ann.authenticator.get(await signInOptions(browser)));
    assert.equal(disabled.status, 401);
    assert.equal(disabled.body.message, 'User is disabled');
  });
});

describe('a passkey as the second step', () => {
  test("PASSKEY: the password answers the passkey step; the person's passkey passes it, another's does not", async () => {
    const ann = await person();
    await addPasskey(ann);
    const eve = await person();
    await addPasskey(eve);
    const bob = await person();
    await withSecondAuth('PASSKEY', async () => {
      const browser = server.client();
      const first = await browser.login(ann.username, PASSWORD);
      assert.equal(first.body.data.nextStep, 'PASSKEY');
      assert.equal(first.body.data.loginSuccess, false);
      const options = first.body.data.passkeyOptions as { challenge: string; allowCredentials: { id: string }[] };
      assert.deepEqual(
        options.allowCredentials.map((item) => item.id),
        [ann.authenticator.credentials[0]!.id.toString('base64url')],
      );

      const foreign = await browser.login(
        ann.username,
        PASSWORD,
        { nextStep: 'PASSKEY', passkey: eve.authenticator.get(options) },
        { 'accept-language': 'zh-CN' },
      );
      assert.equal(foreign.status, 401);
      assert.equal(foreign.body.message, localizeMessage(NOT_YOURS, 'zh'));
      assert.equal(foreign.body.message, '此通行密钥属于另一个账号');
      const wrongPassword = await browser.login(ann.username, 'Wrong-password-2', { nextStep: 'PASSKEY', passkey: ann.authenticator.get(options) });
      assert.equal(wrongPassword.status, 401, 'the password is checked again');

      const second = await browser.login(ann.username, PASSWORD);
      const done = await browser.login(ann.username, PASSWORD, {
        nextStep: 'PASSKEY',
        passkey: ann.authenticator.get(second.body.data.passkeyOptions as { challenge: string }),
      });
      assert.equal(done.body.data.loginSuccess, true, JSON.stringify(done.body));

      // A second-step challenge is bound to its person: Eve's password, Ann's challenge.
      const annStep = await server.client().login(ann.username, PASSWORD);
      await server.client().login(eve.username, PASSWORD);
      const crossed = await server
        .client()
        .login(eve.username, PASSWORD, { nextStep: 'PASSKEY', passkey: eve.authenticator.get(annStep.body.data.passkeyOptions as { challenge: string }) });
      assert.equal(crossed.body.message, CHALLENGE_UNKNOWN);

      // Without a passkey: the TOTP policy's path (an SMS code to the mobile phone).
      const codeStep = await server.client().login(bob.username, PASSWORD);
      assert.equal(codeStep.body.data.nextStep, 'PHONE_CAPTCHA');
      assert.equal(codeStep.body.data.passkeyOptions, undefined);
      const noPasskey = await server.client().login(bob.username, PASSWORD, { nextStep: 'PHONE_CAPTCHA', passkey: ann.authenticator.get(options) });
      assert.equal(noPasskey.status, 401);
    });
  });

  test('TOTP: a person with an authenticator app and a passkey is offered both', async () => {
    const ann = await person();
    const enrolment = await ann.client.post<{ secret: string }>('/api/user/totp', { password: transform(PASSWORD) });
    const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(enrolment.body.data.secret) });
    assert.equal((await ann.client.post('/api/user/totp/confirm', { code: totp.generate({ timestamp: server.clock.now() }) })).status, 200);
    await addPasskey(ann);
    // The TOTP policy needs the administrator's own authenticator app.
    const adminEnrolment = await admin.post<{ secret: string }>('/api/user/totp', { password: transform(ADMIN.password) });
    const adminTotp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(adminEnrolment.body.data.secret) });
    assert.equal((await admin.post('/api/user/totp/confirm', { code: adminTotp.generate({ timestamp: server.clock.now() }) })).status, 200);
    await withSecondAuth('TOTP', async () => {
      const browser = server.client();
      const first = await browser.login(ann.username, PASSWORD);
      assert.equal(first.body.data.nextStep, 'TOTP');
      const done = await browser.login(ann.username, PASSWORD, {
        nextStep: 'TOTP',
        passkey: ann.authenticator.get(first.body.data.passkeyOptions as { challenge: string }),
      });
      assert.equal(done.body.data.loginSuccess, true, JSON.stringify(done.body));
    });
    // Without a policy the authenticator app still asks its code, and the passkey may answer it.
    const step = await server.client().login(ann.username, PASSWORD);
    assert.equal(step.body.data.nextStep, 'TOTP');
    assert.ok(step.body.data.passkeyOptions);
  });
});

test('the calls need a session, or are rate limited like sign-in', async () => {
  assert.equal((await server.client().get('/api/user/passkeys')).status, 401);
  assert.equal((await server.client().post('/api/user/passkeys/options', { password: transform(PASSWORD) })).status, 401);
  const limited = await startServer({ rateLimits: { login: { max: 2, timeWindow: 60_000 } } });
  try {
    // Without configuration, on a loopback socket, the relying party is localhost: a page of 127.0.0.1 may not use passkeys.
    const fromIp = await limited.client().get<{ passkeyRpId: string | null }>('/api/settings/login/public', { origin: limited.base });
    assert.equal(fromIp.body.data.passkeyRpId, null);
    const statuses = [];
    for (let call = 0; call < 3; call += 1) statuses.push((await limited.client().post('/api/authc/passkey/options')).status);
    assert.deepEqual(statuses, [200, 200, 429]);
  } finally {
    await limited.stop();
  }
});

test('configuration: the RP ID and origins follow IAM_PUBLIC_URL; an origin outside the RP ID stops the start', () => {
  const env = { IAM_PUBLIC_URL: 'https://iam.example.com' };
  assert.deepEqual(resolveConfig({}, env).webauthn, { rpId: undefined, origins: undefined });
  const listed = resolveConfig(
    {},
    { ...env, IAM_WEBAUTHN_RP_ID: 'Example.com', IAM_WEBAUTHN_ORIGINS: 'https://iam.example.com, https://shop.example.com' },
  ).webauthn;
  assert.deepEqual(listed, { rpId: 'example.com', origins: ['https://iam.example.com', 'https://shop.example.com'] });
  assert.throws(
    () => resolveConfig({}, { ...env, IAM_WEBAUTHN_RP_ID: 'example.com', IAM_WEBAUTHN_ORIGINS: 'https://iam.example.com,https://other.org' }),
    /not on https:\/\/other\.org/,
  );
  assert.throws(
    () => resolveConfig({}, { ...env, IAM_WEBAUTHN_RP_ID: 'shop.example.com' }),
    /not on https:\/\/iam\.example\.com/,
    'the public URL must lie under the RP ID too',
  );
  assert.throws(() => resolveConfig({}, { ...env, IAM_WEBAUTHN_RP_ID: 'https://example.com' }), /must be a domain name/);
  assert.throws(() => resolveConfig({}, { ...env, IAM_WEBAUTHN_ORIGINS: 'https://iam.example.com/path' }), /IAM_WEBAUTHN_ORIGINS/);
  assert.throws(
    () => resolveConfig({}, { ...env, IAM_WEBAUTHN_ORIGINS: 'https://notexample.com' }),
    /not on https:\/\/notexample\.com/,
    'a suffix of the name is not a subdomain',
  );
});

test('without IAM_PUBLIC_URL or IAM_WEBAUTHN_* on a loopback socket (npm start), passkeys work at http://localhost:<port>, as README says', async () => {
  const plain = await startServer();
  try {
    const page = plain.base.replace('127.0.0.1', 'localhost');
    const settings = await plain.client().get<{ passkeyRpId: string | null }>('/api/settings/login/public', { origin: page });
    assert.equal(settings.body.data.passkeyRpId, 'localhost');
    const sameOrigin = await plain.client().get<{ passkeyRpId: string | null }>('/api/settings/login/public');
    assert.equal(sameOrigin.body.data.passkeyRpId, 'localhost', "the server's own page, named by its listed origin");
    const client = plain.client({ origin: page });
    assert.equal((await client.login(ADMIN.username, ADMIN.password)).body.data.loginSuccess, true);
    const options = await client.post<Options>('/api/user/passkeys/options', { password: transform(ADMIN.password) });
    assert.equal(options.status, 200, JSON.stringify(options.body));
    assert.equal(options.body.data.rp.id, 'localhost');
    const added = await client.post('/api/user/passkeys', {
      name: 'Laptop',
      credential: new SoftwareAuthenticator(page, 'localhost').create(options.body.data),
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    // A ceremony from the IP address is refused by the server as well.
    const fromIp = plain.client();
    assert.equal((await fromIp.login(ADMIN.username, ADMIN.password)).body.data.loginSuccess, true);
    const ipOptions = await fromIp.post<Options>('/api/user/passkeys/options', { password: transform(ADMIN.password) });
    const refused = await fromIp.post('/api/user/passkeys', {
      name: 'Desk',
      credential: new SoftwareAuthenticator(plain.base, 'localhost').create(ipOptions.body.data),
    });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
  } finally {
    await plain.stop();
  }
});

test('the limit of passkeys per person holds when several registrations were started before any finished', async () => {
  const who = await person();
  // 25 starts while the list is empty: each passes the count check of the start.
  const started: Options[] = [];
  for (let index = 0; index < 25; index += 1) started.push(await registrationOptions(who));
  const statuses = [];
  for (const [index, options] of started.entries()) {
    statuses.push((await who.client.post('/api/user/passkeys', { name: `Key ${index}`, credential: who.authenticator.create(options) })).status);
  }
  const list = await who.client.get<unknown[]>('/api/user/passkeys');
  assert.deepEqual(statuses, [...Array<number>(20).fill(200), ...Array<number>(5).fill(400)], 'the 21st and later registrations are refused with 400');
  assert.ok(list.body.data.length <= 20, `${list.body.data.length} passkeys stored for one person, past the limit of 20 (${statuses.join(',')})`);
});

test('npm start listens on the name localhost: that name, not the address it resolves to, is the public origin, the issuer and the passkeys relying party', async () => {
  const named = await startServer({ listenHost: 'localhost' });
  try {
    const page = named.base.replace('127.0.0.1', 'localhost');
    const discovery = await fetch(`${named.base}/api/oidc/.well-known/openid-configuration`);
    assert.equal(discovery.status, 200);
    assert.equal(((await discovery.json()) as { issuer: string }).issuer, `${page}/api/oidc`);
    const sameOrigin = await named.client().get<{ passkeyRpId: string | null }>('/api/settings/login/public');
    assert.equal(sameOrigin.body.data.passkeyRpId, 'localhost');
    const client = named.client({ origin: page });
    assert.equal((await client.login(ADMIN.username, ADMIN.password)).body.data.loginSuccess, true);
    const options = await client.post<Options>('/api/user/passkeys/options', { password: transform(ADMIN.password) });
    assert.equal(options.status, 200, JSON.stringify(options.body));
    const added = await client.post('/api/user/passkeys', {
      name: 'Laptop',
      credential: new SoftwareAuthenticator(page, 'localhost').create(options.body.data),
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
  } finally {
    await named.stop();
  }
});
