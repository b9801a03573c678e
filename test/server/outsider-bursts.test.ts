// The outsider's suite for counters: parallel bursts (Promise.all, from several loopback source
// addresses) against every counter that stops guessing — the sign-in lockout (in one process and
// across two processes on one database), the captcha after failures, the phone sign-in code, the
// second-step code, the password reset code, the codes sent per person, and the authenticator app
// (TOTP). Each attempt must take its place in the count before it is checked, so a burst gets no
// more checks than the limit, the right answer racing behind the burst is refused, and a code or
// captcha is used once.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Agent, request } from 'node:http';
import { sql } from 'kysely';
import { TOTP, URI } from 'otpauth';
import { ADMIN, Client, createTestDatabase, startServer, transform, type TestServer } from './harness';
import { spawnServer } from './crash-process';
import { openDatabase } from '../../server/db/connect';
import { SettingsStore } from '../../server/settings';
import { until } from './receivers';
import type { LoginSettings } from '../../src/core/schemas/settings';

const SOURCES = ['127.0.0.1', '127.0.0.2', '127.0.0.3'];
const BURST = 30;
const MAX_FAILURES = 5;
/** The wrong-guess limit of a one-time code and of an authenticator per window (server/auth). */
const CODE_TRIES = 5;

interface Shot {
  status: number;
  body: { code: number; message: string; data: Record<string, unknown> | null };
}

/** Kept-alive connections per source address: a burst sent over connections opened beforehand
 *  (see `warm`) reaches the server in one go instead of one handshake after another. */
const agents = new Map(SOURCES.map((from) => [from, new Agent({ keepAlive: true })]));

/** One JSON call from `from` (a loopback address), like a browser of our origin. */
function send(base: string, method: string, path: string, body: unknown, from: string, cookie?: string): Promise<Shot> {
  const url = new URL(path, base);
  const payload = body === undefined ? '' : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const call = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        localAddress: from,
        agent: agents.get(from),
        headers: {
          ...(payload ? { 'content-type': 'application/json' } : {}),
          'content-length': Buffer.byteLength(payload),
          origin: base,
          ...(cookie ? { cookie } : {}),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as Shot['body'] }));
      },
    );
    call.on('error', reject);
    call.end(payload);
  });
}

/** Opens `connections` kept-alive connections to `base`, spread over the source addresses. */
async function warm(base: string, connections = BURST + 2): Promise<void> {
  await Promise.all(Array.from({ length: connections }, (_, n) => send(base, 'GET', '/api/cas/login', undefined, SOURCES[n % SOURCES.length]!)));
}

const login = (base: string, n: number, body: Record<string, unknown>) => send(base, 'POST', '/api/authc/login', body, SOURCES[n % SOURCES.length]!);
const statuses = (shots: Shot[]) => shots.map((shot) => shot.status).join(',');
const count = (shots: Shot[], status: number) => shots.filter((shot) => shot.status === status).length;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Six-digit codes other than `right`, all different. */
const wrongCodes = (right: string, n: number) =>
  Array.from({ length: n + 1 }, (_, i) => String(100_000 + i * 7_919))
    .filter((code) => code !== right)
    .slice(0, n);

/** Sends the burst, then `follow` while the burst is still in flight: as soon as its first guess is
 *  answered or the stored counter is full, whichever comes first. */
async function burstThen(base: string | string[], burst: (() => Promise<Shot>)[], follow: () => Promise<Shot[]>, full: () => Promise<boolean>) {
  for (const one of [base].flat()) await warm(one);
  let answered = false;
  const guesses = burst.map((go) => go().finally(() => (answered = true)));
  const deadline = Date.now() + 10_000;
  while (!answered && !(await full()) && Date.now() < deadline) await sleep(2);
  const followers = follow();
  return { guesses: await Promise.all(guesses), followers: await followers };
}

after(() => {
  for (const agent of agents.values()) agent.destroy();
});

describe('one server process', () => {
  let server: TestServer;
  let admin: Client;

  before(async () => {
    server = await startServer();
    admin = await server.admin();
  });
  after(async () => {
    await server.stop();
  });

  async function setPolicy(changes: Partial<LoginSettings>) {
    const { version } = await server.app.ctx.settings.get('login');
    await server.app.ctx.settings.update('login', version, (current) => ({ ...current, ...changes }));
  }

  async function createUser(username: string, password: string, extra: Record<string, unknown> = {}) {
    const answer = await admin.post<{ id: string }>('/api/user', { username, realName: 'Burst_User', password: transform(password), ...extra });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.data.id;
  }

  const throttleRow = (key: string) =>
    server.app.ctx.db.selectFrom('loginThrottle').select(['failures', 'lockedUntil']).where('username', '=', key).executeTakeFirst();

  /** The six-digit code in the newest message to `userId`, newer than `after` (ms). */
  async function codeSentTo(userId: string, after: number): Promise<string> {
    const message = await until(
      () =>
        server.app.ctx.db
          .selectFrom('messages')
          .select('content')
          .where('recipientId', '=', userId)
          .where('createdAt', '>', after)
          .orderBy('createdAt', 'desc')
          .executeTakeFirst(),
      'a code message',
      5_000,
    );
    return /(\d{6})/.exec(message.content)![1]!;
  }

  /** Wrong tries stored on the user's newest code of `purpose`. */
  async function codeAttempts(userId: string, purpose: string): Promise<number> {
    const { rows } = await sql<{
      attempts: number;
    }>`select attempts from one_time_codes where user_id = ${userId} and purpose = ${purpose} order by created_at desc limit 1`.execute(server.app.ctx.db);
    return Number(rows[0]?.attempts ?? 0);
  }

  test('sign-in lockout: a burst of wrong passwords gets at most maxFailures checks, and the right password racing behind it is refused', async () => {
    await setPolicy({ captchaEnabled: false, captchaAfterFailures: 0, maxFailures: MAX_FAILURES, lockMinutes: 15 });
    const id = await createUser('burst-lock', 'Secret123');
    const wrong = Array.from({ length: 24 }, (_, n) => () => login(server.base, n, { username: 'burst-lock', password: transform(`Wrong${n}`) }));
    const right = () => Promise.all([login(server.base, 1, { username: 'burst-lock', password: transform('Secret123') })]);
    const {
      guesses,
      followers: [last],
    } = await burstThen(server.base, wrong, right, async () => ((await throttleRow('username:burst-lock'))?.failures ?? 0) >= MAX_FAILURES);

    assert.notEqual(last!.body.data?.loginSuccess, true, `the right password signed in after the burst: ${JSON.stringify(last!.body)}`);
    assert.equal(last!.status, 429, 'the right password is refused as locked');
    const stored = await throttleRow('username:burst-lock');
    assert.ok(stored && stored.failures <= MAX_FAILURES, `failures counted ${stored?.failures}, at most ${MAX_FAILURES}`);
    assert.ok(stored.lockedUntil !== null, 'locked');
    assert.ok(count(guesses, 401) <= MAX_FAILURES - 1, `at most ${MAX_FAILURES - 1} answered 401: ${statuses(guesses)}`);
    assert.equal(count(guesses, 401) + count(guesses, 429), guesses.length, statuses(guesses));

    // The unlock call still lets the person in.
    assert.equal((await admin.delete(`/api/authc/user/${id}/login/unlock`)).status, 200);
    assert.equal((await server.client().login('burst-lock', 'Secret123')).body.data.loginSuccess, true);
  });

  test('captcha after failures: every attempt racing past the threshold needs the captcha', async () => {
    await setPolicy({ captchaEnabled: false, captchaAfterFailures: 2, maxFailures: 100, captchaKind: 'NUMBER', captchaLength: 4 });
    await createUser('burst-captcha', 'Secret123');
    const guesses = await Promise.all(
      Array.from({ length: 24 }, (_, n) => login(server.base, n, { username: 'burst-captcha', password: transform(`Wrong${n}`) })),
    );
    assert.equal(count(guesses, 401), 2, `only the first two are checked without a captcha: ${statuses(guesses)}`);
    assert.ok(
      guesses.filter((shot) => shot.status === 400).every((shot) => shot.body.code === 1001),
      'the others are asked for the captcha',
    );
    assert.equal((await throttleRow('username:burst-captcha'))?.failures, 2, 'the refused attempts are not counted');
  });

  test('a captcha answer is used by one of many parallel attempts only', async () => {
    await setPolicy({ captchaEnabled: true, captchaAfterFailures: 0, maxFailures: 100, captchaKind: 'NUMBER', captchaLength: 4 });
    try {
      const key = 'burst-captcha-key-000001';
      assert.equal((await fetch(`${server.base}/api/captcha/image/display?key=${key}`)).status, 200);
      const row = await server.app.ctx.db.selectFrom('captchas').select('answerHash').orderBy('expiresAt', 'desc').executeTakeFirstOrThrow();
      const digits = '23456789';
      const answer = [...digits]
        .flatMap((a) => [...digits].flatMap((b) => [...digits].flatMap((c) => [...digits].map((d) => a + b + c + d))))
        .find((candidate) => createHash('sha256').update(candidate).digest('hex') === row.answerHash)!;
      const shots = await Promise.all(
        Array.from({ length: 10 }, (_, n) =>
          login(server.base, n, { username: 'burst-captcha', password: transform('Secret123'), captcha: answer, captchaKey: key }),
        ),
      );
      assert.equal(shots.filter((shot) => shot.body.data?.loginSuccess === true).length, 1, `one sign-in with one captcha: ${statuses(shots)}`);
    } finally {
      await setPolicy({ captchaEnabled: false });
    }
  });

  test('phone sign-in code: a burst of wrong codes gets at most five tries; a code signs in once', async () => {
    await setPolicy({ loginMethod: 'PHONE_CAPTCHA', captchaEnabled: false, captchaAfterFailures: 0, maxFailures: 100 });
    try {
      const id = await createUser('burst-phone', 'Secret123', { mobilePhone: '13700000001' });
      const askCode = async () => {
        const asked = server.clock.now();
        assert.equal((await send(server.base, 'POST', '/api/authc/login/code', { phone: '13700000001' }, SOURCES[0]!)).status, 200);
        return codeSentTo(id, asked - 1);
      };
      const code = await askCode();
      const {
        guesses,
        followers: [right],
      } = await burstThen(
        server.base,
        wrongCodes(code, BURST).map((guess, n) => () => login(server.base, n, { username: '13700000001', code: guess })),
        () => Promise.all([login(server.base, 0, { username: '13700000001', code })]),
        async () => (await codeAttempts(id, 'phone-login')) >= CODE_TRIES,
      );
      assert.equal(count(guesses, 200), 0, statuses(guesses));
      assert.notEqual(right!.body.data?.loginSuccess, true, 'the code died after five wrong tries, however parallel');
      assert.ok((await codeAttempts(id, 'phone-login')) <= CODE_TRIES, 'tries counted within the limit');

      server.clock.advance(61_000);
      const fresh = await askCode();
      const shots = await Promise.all(Array.from({ length: 8 }, (_, n) => login(server.base, n, { username: '13700000001', code: fresh })));
      assert.equal(shots.filter((shot) => shot.body.data?.loginSuccess === true).length, 1, `one sign-in per code: ${statuses(shots)}`);
    } finally {
      await setPolicy({ loginMethod: 'USERNAME_PASSWORD' });
    }
  });

  test('second-step code: a burst of wrong codes gets at most five tries; a code completes one sign-in', async () => {
    await setPolicy({ secondAuth: 'PHONE_CAPTCHA', captchaEnabled: false, captchaAfterFailures: 0, maxFailures: 100 });
    try {
      const id = await createUser('burst-second', 'Secret123', { mobilePhone: '13700000002' });
      const askCode = async () => {
        const asked = server.clock.now();
        const first = await login(server.base, 0, { username: 'burst-second', password: transform('Secret123') });
        assert.equal(first.body.data?.nextStep, 'PHONE_CAPTCHA', JSON.stringify(first.body));
        return codeSentTo(id, asked - 1);
      };
      const code = await askCode();
      await warm(server.base);
      const guesses = await Promise.all(
        wrongCodes(code, 24).map((guess, n) =>
          login(server.base, n, { username: 'burst-second', password: transform('Secret123'), nextStep: 'PHONE_CAPTCHA', code: guess }),
        ),
      );
      assert.equal(count(guesses, 200), 0, statuses(guesses));
      const right = await login(server.base, 0, { username: 'burst-second', password: transform('Secret123'), nextStep: 'PHONE_CAPTCHA', code });
      assert.notEqual(right.body.data?.loginSuccess, true, 'the code died after five wrong tries');
      assert.ok((await codeAttempts(id, 'second-step')) <= CODE_TRIES, 'tries counted within the limit');

      server.clock.advance(61_000);
      const fresh = await askCode();
      const shots = await Promise.all(
        Array.from({ length: 8 }, (_, n) =>
          login(server.base, n, { username: 'burst-second', password: transform('Secret123'), nextStep: 'PHONE_CAPTCHA', code: fresh }),
        ),
      );
      assert.equal(shots.filter((shot) => shot.body.data?.loginSuccess === true).length, 1, `one sign-in per code: ${statuses(shots)}`);
    } finally {
      await setPolicy({ secondAuth: null });
    }
  });

  test('password reset code: a burst of wrong codes gets at most five tries; a code resets once', async () => {
    const id = await createUser('burst-reset', 'Secret123', { email: 'burst-reset@example.com' });
    const askCode = async () => {
      const asked = server.clock.now();
      assert.equal((await send(server.base, 'POST', '/api/user/password/reset-code', { identifier: 'burst-reset@example.com' }, SOURCES[0]!)).status, 200);
      return codeSentTo(id, asked - 1);
    };
    const reset = (n: number, code: string, password: string) =>
      send(
        server.base,
        'PUT',
        '/api/user/password/reset',
        { identifier: 'burst-reset@example.com', code, password: transform(password) },
        SOURCES[n % SOURCES.length]!,
      );
    const code = await askCode();
    const {
      guesses,
      followers: [right],
    } = await burstThen(
      server.base,
      wrongCodes(code, BURST).map((guess, n) => () => reset(n, guess, `Burst${n}x1`)),
      () => Promise.all([reset(0, code, 'Right123x')]),
      async () => (await codeAttempts(id, 'password-reset')) >= CODE_TRIES,
    );
    assert.equal(count(guesses, 200), 0, statuses(guesses));
    assert.equal(right!.status, 400, 'the code died after five wrong tries, however parallel');
    assert.ok((await codeAttempts(id, 'password-reset')) <= CODE_TRIES, 'tries counted within the limit');

    server.clock.advance(61_000);
    const fresh = await askCode();
    const shots = await Promise.all(Array.from({ length: 8 }, (_, n) => reset(n, fresh, `Parallel${n}x`)));
    assert.equal(count(shots, 200), 1, `one reset per code: ${statuses(shots)}`);
  });

  test('asking for a code in a burst queues one message (one a minute per person and purpose)', async () => {
    const id = await createUser('burst-send', 'Secret123', { email: 'burst-send@example.com' });
    await warm(server.base);
    const asks = await Promise.all(
      Array.from({ length: BURST }, (_, n) =>
        send(server.base, 'POST', '/api/user/password/reset-code', { identifier: 'burst-send@example.com' }, SOURCES[n % SOURCES.length]!),
      ),
    );
    assert.equal(count(asks, 200), BURST, 'answered alike');
    await codeSentTo(id, 0);
    await sleep(500); // the codes are sent after the answers
    const queued = await server.app.ctx.db.selectFrom('messages').select('id').where('recipientId', '=', id).execute();
    assert.equal(queued.length, 1, `one code sent, not ${queued.length}`);
  });

  test('authenticator app: a burst of wrong codes gets a bounded number of tries; a code signs in once', async () => {
    await setPolicy({ captchaEnabled: false, captchaAfterFailures: 0, maxFailures: 100 });
    await createUser('burst-totp', 'Secret123');
    const person = server.client();
    assert.equal((await person.login('burst-totp', 'Secret123')).body.data.loginSuccess, true);
    const { uri } = (await person.post<{ uri: string }>('/api/user/totp', { password: transform('Secret123') })).body.data;
    const codeFor = () => (URI.parse(uri) as TOTP).generate({ timestamp: server.clock.now() });
    assert.equal((await person.post('/api/user/totp/confirm', { code: codeFor() })).status, 200);
    server.clock.advance(30_000);

    const cookie = [...person.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const disable = (n: number, code: string) => send(server.base, 'POST', '/api/user/totp/disable', { code }, SOURCES[n % SOURCES.length]!, cookie);
    await warm(server.base);
    const guesses = await Promise.all(wrongCodes(codeFor(), BURST).map((guess, n) => disable(n, guess)));
    assert.equal(count(guesses, 200), 0, statuses(guesses));
    assert.equal((await disable(0, codeFor())).status, 400, 'too many wrong codes: even the right one waits for the next window');
    const { rows } = await sql<{
      failures: number;
    }>`select failures from user_totp where user_id = (select id from users where username = 'burst-totp')`.execute(server.app.ctx.db);
    assert.ok(Number(rows[0]!.failures) <= CODE_TRIES, `wrong codes counted ${rows[0]!.failures}, at most ${CODE_TRIES}`);

    server.clock.advance(15 * 60_000);
    const code = codeFor();
    const shots = await Promise.all(
      Array.from({ length: 8 }, (_, n) => login(server.base, n, { username: 'burst-totp', password: transform('Secret123'), nextStep: 'TOTP', code })),
    );
    assert.equal(shots.filter((shot) => shot.body.data?.loginSuccess === true).length, 1, `a code is accepted once: ${statuses(shots)}`);
  });
});

test('sign-in lockout across two processes on one database: the burst and the right password on both', async () => {
  const database = await createTestDatabase();
  const servers = await Promise.all([spawnServer(database), spawnServer(database)]);
  const db = await openDatabase({ dataDir: database.options.dataDir ?? '', databaseUrl: database.options.databaseUrl });
  try {
    const bases = servers.map((server) => server.base);
    const settings = new SettingsStore(db.kysely, Date.now);
    const { version } = await settings.get('login');
    await settings.update('login', version, (current) => ({
      ...current,
      captchaEnabled: false,
      captchaAfterFailures: 0,
      maxFailures: MAX_FAILURES,
      lockMinutes: 15,
    }));
    const admin = new Client(bases[0]!, bases[0]!);
    assert.equal((await admin.login(ADMIN.username, ADMIN.password)).body.data.loginSuccess, true);
    const created = await admin.post('/api/user', { username: 'burst-two', realName: 'Burst_Two', password: transform('Secret123') });
    assert.equal(created.status, 200, JSON.stringify(created.body));

    const failures = async () =>
      (await db.kysely.selectFrom('loginThrottle').select('failures').where('username', '=', 'username:burst-two').executeTakeFirst())?.failures ?? 0;
    const wrong = Array.from({ length: 24 }, (_, n) => () => login(bases[n % 2]!, n, { username: 'burst-two', password: transform(`Wrong${n}`) }));
    const right = () => Promise.all(bases.map((base, n) => login(base, n, { username: 'burst-two', password: transform('Secret123') })));
    const { guesses, followers } = await burstThen(bases, wrong, right, async () => (await failures()) >= MAX_FAILURES);

    for (const [n, answer] of followers.entries()) {
      assert.notEqual(answer.body.data?.loginSuccess, true, `process ${n} signed the right password in after the burst`);
      assert.equal(answer.status, 429, `process ${n}: locked`);
    }
    assert.ok((await failures()) <= MAX_FAILURES, `failures counted ${await failures()}, at most ${MAX_FAILURES}`);
    assert.ok(count(guesses, 401) <= MAX_FAILURES - 1, `at most ${MAX_FAILURES - 1} answered 401: ${statuses(guesses)}`);
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await db.close();
    await database.drop();
  }
});
