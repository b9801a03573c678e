// Sign-in: answers, cookies, rotation, timeouts, enumeration, lockout/unlock, captcha, second step,
// token mode, CSRF and CORS, on a real server over HTTP.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { ADMIN, startServer, transform, type Client, type TestServer } from './harness';
import type { LoginSettings } from '../../src/core/schemas/settings';

let server: TestServer;
let admin: Client;
const CORS_ORIGIN = 'http://portal.example.test';

before(async () => {
  server = await startServer({ corsOrigins: [CORS_ORIGIN] });
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

async function setPolicy(changes: Partial<LoginSettings>) {
  const { version } = await server.app.ctx.settings.get('login');
  await server.app.ctx.settings.update('login', version, (value) => ({ ...value, ...changes }));
}

async function createUser(username: string, password: string, extra: Record<string, unknown> = {}) {
  const answer = await admin.post<{ id: string }>('/api/user', { username, realName: 'Test_User', password: transform(password), ...extra });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data.id;
}

describe('sign-in answer and session', () => {
  test('a successful sign-in sets an HttpOnly SameSite=Lax cookie and never puts its secret in JSON', async () => {
    const client = server.client();
    const response = await client.raw('POST', '/api/authc/login', { username: ADMIN.username, password: transform(ADMIN.password) });
    const text = await response.text();
    const body = JSON.parse(text);
    assert.equal(body.data.loginSuccess, true);
    assert.equal(body.data.hasNextStep, false);
    assert.equal(body.data.redirectURL, '/');
    assert.equal(body.data.token, undefined);
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('iam_session='));
    assert.ok(cookie, 'session cookie set');
    assert.match(cookie, /HttpOnly/i);
    assert.match(cookie, /SameSite=Lax/i);
    assert.doesNotMatch(cookie, /Secure/i, 'plain http: no Secure flag');
    const secret = client.cookies.get('iam_session')!;
    assert.equal(Buffer.from(secret, 'base64url').length, 32, '256-bit secret');
    assert.ok(!text.includes(secret));
    const session = await client.raw('GET', '/api/cas/session');
    const sessionText = await session.text();
    assert.ok(!sessionText.includes(secret), 'the session answer carries no secret');
    const stored = await server.app.ctx.db.selectFrom('sessions').select('secretHash').execute();
    assert.ok(
      stored.every((row) => row.secretHash !== secret),
      'the database keeps only a hash',
    );
    assert.ok(stored.some((row) => row.secretHash === createHash('sha256').update(secret).digest('hex')));
  });

  test('signing in again rotates the session: the old secret stops working', async () => {
    const client = server.client();
    await client.login(ADMIN.username, ADMIN.password);
    const first = client.cookies.get('iam_session')!;
    await client.login(ADMIN.username, ADMIN.password);
    const second = client.cookies.get('iam_session')!;
    assert.notEqual(first, second);
    const stale = server.client();
    stale.cookies.set('iam_session', first);
    assert.equal((await stale.get('/api/cas/session')).status, 401);
    assert.equal((await client.get('/api/cas/session')).status, 200);
  });

  test('redirect passes through only for own paths (no open redirect)', async () => {
    const own = await server.client().login(ADMIN.username, ADMIN.password, {}, {});
    assert.equal(own.body.data.redirectURL, '/');
    const client = server.client();
    const local = await client.post<{ redirectURL: string }>('/api/authc/login?redirect=%2Foperate%2Fuser', {
      username: ADMIN.username,
      password: transform(ADMIN.password),
    });
    assert.equal(local.body.data.redirectURL, '/operate/user');
    const evil = await client.post<{ redirectURL: string }>('/api/authc/login?redirect=https%3A%2F%2Fevil.test%2F', {
      username: ADMIN.username,
      password: transform(ADMIN.password),
    });
    assert.equal(evil.body.data.redirectURL, '/');
  });

  test('logout ends the session; /cas/login reports the state', async () => {
    const client = await server.admin();
    const signedIn = await client.get<{ loginSuccess: boolean }>('/api/cas/login');
    assert.equal(signedIn.body.data.loginSuccess, true);
    const logout = await client.get<{ redirectURL: string }>('/api/cas/logout');
    assert.equal(logout.body.data.redirectURL, '/login');
    assert.equal((await client.get('/api/cas/session')).status, 401);
    const signedOut = await client.get<{ loginSuccess: boolean; message: string }>('/api/cas/login');
    assert.equal(signedOut.body.data.loginSuccess, false);
  });

  test('idle and absolute timeouts end a session', async () => {
    await setPolicy({ sessionIdleMinutes: 30, sessionAbsoluteHours: 1 });
    const idle = await server.admin();
    server.clock.advance(31 * 60_000);
    assert.equal((await idle.get('/api/cas/session')).status, 401, 'idle for 31 minutes');
    const busy = await server.admin();
    for (let step = 1; step <= 3; step += 1) {
      server.clock.advance(19 * 60_000);
      assert.equal((await busy.get('/api/cas/session')).status, 200, `active at ${step * 19} minutes`);
    }
    server.clock.advance(4 * 60_000);
    assert.equal((await busy.get('/api/cas/session')).status, 401, 'past the absolute hour');
    await setPolicy({ sessionIdleMinutes: 30, sessionAbsoluteHours: 12 });
    admin = await server.admin();
  });

  test('invalid input names the field and its rule key', async () => {
    const answer = await server.client().post<{ fields: { field: string; rule: string }[] }>('/api/authc/login', { username: '', password: '' });
    assert.equal(answer.status, 400);
    const fields = Object.fromEntries(answer.body.data.fields.map((entry) => [entry.field, entry.rule]));
    assert.equal(fields.username, 'rule.loginUsername');
    assert.equal(fields.password, 'rule.required');
  });
});

describe('enumeration, lockout and unlock', () => {
  test('unknown user and wrong password: same status, message and comparable time', async () => {
    const rounds = 5;
    for (let round = 0; round < rounds; round += 1) await createUser(`enum-user-${round}`, 'Secret123');
    const timed = async (username: string) => {
      const started = performance.now();
      const answer = await server.client().login(username, 'Wrong1234');
      return { answer, ms: performance.now() - started };
    };
    // The server makes its decoy hash on the first unknown name: leave that one-off out of the timing.
    await timed('enum-ghost-warmup');
    const wrong: number[] = [];
    const unknown: number[] = [];
    // One attempt per name (no captcha or lock gets in the way), alternating to share the noise.
    for (let round = 0; round < rounds; round += 1) {
      const known = await timed(`enum-user-${round}`);
      const ghost = await timed(`enum-ghost-${round}`);
      assert.equal(known.answer.status, 401);
      assert.equal(ghost.answer.status, 401);
      assert.equal(known.answer.body.message, ghost.answer.body.message);
      assert.deepEqual(known.answer.body.data, ghost.answer.body.data);
      wrong.push(known.ms);
      unknown.push(ghost.ms);
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    // Both paths run one Argon2id verification: neither answers in a fraction of the other's time.
    const [w, u] = [median(wrong), median(unknown)];
    assert.ok(u > w * 0.5 && w > u * 0.5, `median unknown ${u.toFixed(1)} ms vs wrong password ${w.toFixed(1)} ms`);
  });

  test('five failures lock the account (known or not, alike); unlock lets the user in again', async () => {
    await setPolicy({ captchaAfterFailures: 0, maxFailures: 5, lockMinutes: 15 });
    const id = await createUser('lock-user', 'Secret123');
    for (const username of ['lock-user', 'lock-ghost']) {
      for (let attempt = 1; attempt <= 4; attempt += 1) assert.equal((await server.client().login(username, 'Wrong1234')).status, 401);
      const fifth = await server.client().login(username, 'Wrong1234');
      assert.equal(fifth.status, 429, `${username} locked at the fifth failure`);
    }
    const right = await server.client().login('lock-user', 'Secret123');
    assert.equal(right.status, 429, 'locked even with the right password');
    const ghost = await server.client().login('lock-ghost', 'Secret123');
    assert.equal(ghost.body.message, right.body.message, 'a locked unknown name looks the same');
    const listed = await admin.get<{ list: { username: string; locked: boolean }[] }>('/api/user?searchProp=username&searchValue=lock-user');
    assert.equal(listed.body.data.list[0]?.locked, true);
    const unlock = await admin.delete(`/api/authc/user/${id}/login/unlock`);
    assert.equal(unlock.status, 200);
    assert.equal((await server.client().login('lock-user', 'Secret123')).body.data?.loginSuccess, true);
    const audit = await server.app.ctx.db.selectFrom('auditLog').select('action').where('action', 'in', ['login.locked', 'user.unlock']).execute();
    assert.ok(audit.some((row) => row.action === 'login.locked'));
    assert.ok(audit.some((row) => row.action === 'user.unlock'));
  });

  test('the lock runs out after lockMinutes', async () => {
    await setPolicy({ captchaAfterFailures: 0, maxFailures: 2, lockMinutes: 10 });
    await createUser('expiry-user', 'Secret123');
    await server.client().login('expiry-user', 'Wrong1234');
    assert.equal((await server.client().login('expiry-user', 'Wrong1234')).status, 429);
    server.clock.advance(11 * 60_000);
    assert.equal((await server.client().login('expiry-user', 'Secret123')).body.data?.loginSuccess, true);
    await setPolicy({ captchaAfterFailures: 3, maxFailures: 5, lockMinutes: 15 });
    admin = await server.admin();
  });
});

/** Solves the client's captcha the way only a test can: NUMBER captchas of 4 digits from the
 *  stored SHA-256 of the answer (8^4 candidates). */
async function solveCaptcha(): Promise<string> {
  const row = await server.app.ctx.db.selectFrom('captchas').select('answerHash').orderBy('expiresAt', 'desc').executeTakeFirstOrThrow();
  const digits = '23456789';
  for (const a of digits)
    for (const b of digits)
      for (const c of digits)
        for (const d of digits) {
          const candidate = a + b + c + d;
          if (createHash('sha256').update(candidate).digest('hex') === row.answerHash) return candidate;
        }
  throw new Error('captcha not solved');
}

describe('captcha', () => {
  test('after failures a captcha is required (code 1001), single use and bound to the client', async () => {
    await setPolicy({ captchaAfterFailures: 2, maxFailures: 10, captchaKind: 'NUMBER', captchaLength: 4 });
    await createUser('captcha-user', 'Secret123');
    const client = server.client();
    await client.login('captcha-user', 'Wrong1234');
    const second = await client.login('captcha-user', 'Wrong1234');
    assert.equal(second.status, 401);
    assert.equal((second.body.data as { captchaImageUrl?: string }).captchaImageUrl, '/api/captcha/image/display');
    const missing = await client.login('captcha-user', 'Secret123');
    assert.equal(missing.status, 400);
    assert.equal(missing.body.code, 1001);

    const image = await client.raw('GET', '/api/captcha/image/display?r=1');
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('content-type'), 'image/png');
    assert.equal(image.headers.get('cache-control'), 'no-store', 'every load is a new captcha: never from a cache');
    assert.match(image.headers.get('content-security-policy') ?? '', /sandbox/);
    // A raster image (pixels, not outlines a program reads: attack-b.test.ts).
    assert.deepEqual([...new Uint8Array(await image.arrayBuffer()).subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const answer = await solveCaptcha();

    const stranger = server.client();
    assert.equal((await stranger.login('captcha-user', 'Secret123', { captcha: answer })).status, 401, 'another client cannot use it');
    // The stranger's attempt did not consume our captcha (bound to our cookie), so it still works here.
    const ok = await client.login('captcha-user', 'Secret123', { captcha: answer });
    assert.equal(ok.body.data?.loginSuccess, true, JSON.stringify(ok.body));

    await client.login('captcha-user', 'Wrong1234');
    await client.login('captcha-user', 'Wrong1234');
    await client.raw('GET', '/api/captcha/image/display?r=2');
    const reused = await solveCaptcha();
    const wrong = await client.login('captcha-user', 'Secret123', { captcha: reused === '2222' ? '3333' : '2222' });
    assert.equal(wrong.status, 401, 'wrong captcha');
    const again = await client.login('captcha-user', 'Secret123', { captcha: reused });
    assert.equal(again.status, 401, 'a captcha is used up by one attempt');
  });

  test('a cross-site page binds the captcha with its key instead of a cookie; it expires', async () => {
    const key = 'k'.repeat(24);
    const client = server.client();
    await client.raw('GET', `/api/captcha/image/display?key=${key}`);
    client.cookies.clear();
    const answer = await solveCaptcha();
    const ok = await client.login('captcha-user', 'Secret123', { captcha: answer, captchaKey: key });
    assert.equal(ok.body.data?.loginSuccess, true, JSON.stringify(ok.body));

    await setPolicy({ captchaEnabled: true });
    const late = server.client();
    await late.raw('GET', `/api/captcha/image/display?key=${key}`);
    const lateAnswer = await solveCaptcha();
    server.clock.advance(3 * 60_000);
    assert.equal((await late.login('captcha-user', 'Secret123', { captcha: lateAnswer, captchaKey: key })).status, 401, 'expired');
    await setPolicy({ captchaEnabled: false, captchaAfterFailures: 3, maxFailures: 5, captchaKind: 'NUMBER_LETTER' });
    admin = await server.admin();
  });
});

describe('second step', () => {
  test('with PHONE_CAPTCHA the password answers a next step; the code completes the sign-in', async () => {
    const id = await createUser('two-step', 'Secret123', { mobilePhone: '13800138000' });
    await setPolicy({ secondAuth: 'PHONE_CAPTCHA' });
    try {
      const client = server.client();
      const first = await client.login('two-step', 'Secret123');
      assert.equal(first.status, 200);
      assert.equal(first.body.data.hasNextStep, true);
      assert.equal(first.body.data.nextStep, 'PHONE_CAPTCHA');
      assert.equal(first.body.data.loginSuccess, false);
      assert.equal(client.cookies.has('iam_session'), false, 'no session before the second step');
      const message = await server.app.ctx.db
        .selectFrom('messages')
        .select(['content', 'address'])
        .where('recipientId', '=', id)
        .orderBy('createdAt', 'desc')
        .executeTakeFirstOrThrow();
      assert.equal(message.address, '13800138000');
      const code = /(\d{6})/.exec(message.content)![1]!;
      const wrong = await client.login('two-step', 'Secret123', { nextStep: 'PHONE_CAPTCHA', code: code === '000000' ? '111111' : '000000' });
      assert.equal(wrong.status, 401);
      const done = await client.login('two-step', 'Secret123', { nextStep: 'PHONE_CAPTCHA', code });
      assert.equal(done.body.data.loginSuccess, true);
      assert.equal((await client.get('/api/cas/session')).status, 200);
      const reuse = await server.client().login('two-step', 'Secret123', { nextStep: 'PHONE_CAPTCHA', code });
      assert.equal(reuse.status, 401, 'a code works once');
    } finally {
      await setPolicy({ secondAuth: null });
    }
  });
});

describe('token mode, CSRF and CORS', () => {
  test('token mode: only for an allowed origin that asks; the token then works in the token header', async () => {
    const portal = server.client({ origin: CORS_ORIGIN });
    const answer = await portal.login(ADMIN.username, ADMIN.password, {}, { 'x-iam-auth-mode': 'token' });
    const token = answer.body.data.token as string;
    assert.equal(typeof token, 'string');
    assert.equal(portal.cookies.has('iam_session'), false, 'no cookie in token mode');
    assert.equal(answer.headers.get('access-control-allow-origin'), CORS_ORIGIN);
    const bare = server.client({ origin: CORS_ORIGIN });
    const session = await bare.get<{ user: { username: string } }>('/api/cas/session', { token });
    assert.equal(session.body.data.user.username, ADMIN.username);
    const viaCookie = server.client();
    viaCookie.cookies.set('iam_session', token);
    assert.equal((await viaCookie.get('/api/cas/session')).status, 401, 'a token is not a cookie');

    const evil = server.client({ origin: 'http://evil.test' });
    const refused = await evil.login(ADMIN.username, ADMIN.password, {}, { 'x-iam-auth-mode': 'token' });
    assert.equal(refused.status, 403);
    const sameOrigin = await server.client().login(ADMIN.username, ADMIN.password, {}, { 'x-iam-auth-mode': 'token' });
    assert.equal(sameOrigin.body.data.token, undefined, 'own origin not listed: cookie mode');
  });

  test('state-changing cookie calls need our Origin (or a configured one)', async () => {
    const signedIn = await server.admin();
    const body = { realName: 'Admin_Name' };
    const evil = await signedIn.put('/api/user/profile', body, { origin: 'http://evil.test' });
    assert.equal(evil.status, 403);
    const cookie = signedIn.cookies.get('iam_session')!;
    const response = await fetch(`${server.base}/api/user/profile`, {
      method: 'PUT',
      headers: { cookie: `iam_session=${cookie}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.equal(response.status, 403, 'no Origin with a cookie');
    const own = await signedIn.put('/api/user/profile', body);
    assert.equal(own.status, 200, JSON.stringify(own.body));
    const configured = await signedIn.put('/api/user/profile', body, { origin: CORS_ORIGIN });
    assert.equal(configured.status, 200);
  });

  test('CORS answers preflights only for configured origins', async () => {
    const allowed = await fetch(`${server.base}/api/cas/session`, {
      method: 'OPTIONS',
      headers: { origin: CORS_ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'token' },
    });
    assert.equal(allowed.headers.get('access-control-allow-origin'), CORS_ORIGIN);
    assert.equal(allowed.headers.get('access-control-allow-credentials'), 'true');
    const other = await fetch(`${server.base}/api/cas/session`, {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.test', 'access-control-request-method': 'GET' },
    });
    assert.equal(other.headers.get('access-control-allow-origin'), null);
  });

  test('sign-in is rate limited per client', async () => {
    const limited = await startServer({ rateLimits: { login: { max: 3, timeWindow: 60_000 } } });
    try {
      const client = limited.client();
      const statuses = [];
      for (let attempt = 0; attempt < 4; attempt += 1) statuses.push((await client.login('nobody', 'Wrong1234')).status);
      assert.deepEqual(statuses.slice(0, 3), [401, 401, 401]);
      const last = await client.login('nobody', 'Wrong1234');
      assert.equal(last.status, 429);
      assert.equal(last.body.code, 429);
    } finally {
      await limited.stop();
    }
  });
});
