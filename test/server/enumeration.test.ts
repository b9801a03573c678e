// No user enumeration at sign-in: an unknown account, a wrong password, a disabled account and a
// locked one are told apart neither by status, message, answer shape nor time. The password KDF
// runs for every unlocked attempt (server/auth/login.ts verifies against a dummy hash when the
// account is unknown), so those answers take alike; a lock is kept per typed identifier whether
// or not the account exists (server/auth/throttle.ts), so a locked unknown name answers exactly
// like a locked account — fast, without the KDF — and the lock itself reveals nothing.
// The code calls (forgot password, phone sign-in code) answer alike, in comparable time, for an
// account, a disabled account and nobody; a wrong reset code is refused alike.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer } from './harness';

const ROUNDS = 15;
const PASSWORD = 'Right1234';

let server: TestServer;
let admin: Client;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  await setPolicy({ maxFailures: 100, captchaAfterFailures: 0, captchaEnabled: false });
  for (const [username, status, phone] of [
    ['enum-active', 1, '13900000001'],
    ['enum-disabled', 2, '13900000002'],
    ['enum-locked', 1, '13900000003'],
    ['enum-fresh', 1, '13900000004'],
  ] as const) {
    const created = await admin.post('/api/user', {
      username,
      realName: 'Enum_User',
      password: transform(PASSWORD),
      email: `${username}@example.com`,
      mobilePhone: phone,
      availabilityStatus: status,
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
  }
});
after(async () => {
  await server.stop();
});

async function setPolicy(fields: Record<string, unknown>): Promise<void> {
  const current = await admin.get<{ version: number }>('/api/settings/login');
  const saved = await admin.put('/api/settings/login', { ...fields, version: current.body.data.version });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
}

interface Attempt {
  status: number;
  answer: string;
  ms: number;
}

async function attempt(username: string, password: string): Promise<Attempt> {
  const started = process.hrtime.bigint();
  const { status, body } = await server.client().login(username, password);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { status, answer: JSON.stringify(body), ms };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/** Runs each case ROUNDS times, interleaved (so a slow moment of the machine hits every case). */
async function measure(cases: Record<string, [string, string]>): Promise<Record<string, { answers: Set<string>; statuses: Set<number>; median: number }>> {
  const results = Object.fromEntries(Object.keys(cases).map((name) => [name, [] as Attempt[]]));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, [username, password]] of Object.entries(cases)) results[name]!.push(await attempt(username, password));
  }
  return Object.fromEntries(
    Object.entries(results).map(([name, attempts]) => [
      name,
      {
        answers: new Set(attempts.map((one) => one.answer)),
        statuses: new Set(attempts.map((one) => one.status)),
        median: median(attempts.map((one) => one.ms)),
      },
    ]),
  );
}

function assertAlike(results: Awaited<ReturnType<typeof measure>>, ratio: number): void {
  const names = Object.keys(results);
  const reference = results[names[0]!]!;
  for (const name of names) {
    assert.deepEqual([...results[name]!.answers], [...reference.answers], `${name}: another answer than ${names[0]}`);
    assert.deepEqual([...results[name]!.statuses], [...reference.statuses], `${name}: another status than ${names[0]}`);
  }
  const medians = names.map((name) => results[name]!.median);
  const spread = Math.max(...medians) / Math.min(...medians);
  console.log(`enumeration: medians ${names.map((name) => `${name} ${results[name]!.median.toFixed(1)} ms`).join(', ')} (max/min ${spread.toFixed(2)})`);
  assert.ok(spread < ratio, `timings tell the cases apart: ${medians.map((ms) => ms.toFixed(1)).join(' / ')} ms`);
}

describe('no user enumeration at sign-in', () => {
  test('unknown account, wrong password, disabled account: one status, one answer, comparable time', async () => {
    // Warm-up: the first KDF runs and query compilations are not part of the comparison.
    for (let i = 0; i < 3; i += 1) await attempt('enum-active', 'Warm1234');
    const results = await measure({
      unknown: ['enum-nobody', 'Wrong1234'],
      'wrong password': ['enum-active', 'Wrong1234'],
      'disabled, wrong password': ['enum-disabled', 'Wrong1234'],
    });
    assert.deepEqual([...results.unknown!.statuses], [401]);
    assert.equal(results.unknown!.answers.size, 1, 'one answer for every attempt');
    assertAlike(results, 3);
  });

  test('a locked account and a locked unknown name answer alike (status, message, time)', async () => {
    await setPolicy({ maxFailures: 3, lockMinutes: 15 });
    for (const username of ['enum-locked', 'enum-ghost']) {
      for (let i = 0; i < 3; i += 1) await attempt(username, 'Wrong1234');
    }
    const results = await measure({ 'locked account': ['enum-locked', PASSWORD], 'locked unknown name': ['enum-ghost', PASSWORD] });
    assert.deepEqual([...results['locked account']!.statuses], [429]);
    assertAlike(results, 3);
    await setPolicy({ maxFailures: 100 });
  });

  test('the locking attempt itself answers alike for an account and an unknown name', async () => {
    await setPolicy({ maxFailures: 2, lockMinutes: 15 });
    const answers: Record<string, Attempt[]> = {};
    for (const username of ['enum-fresh', 'enum-phantom']) {
      answers[username] = [await attempt(username, 'Wrong1234'), await attempt(username, 'Wrong1234')];
    }
    for (const step of [0, 1]) {
      assert.equal(answers['enum-fresh']![step]!.status, answers['enum-phantom']![step]!.status, `attempt ${step + 1}`);
      assert.equal(answers['enum-fresh']![step]!.answer, answers['enum-phantom']![step]!.answer, `attempt ${step + 1}`);
    }
    assert.equal(answers['enum-fresh']![1]!.status, 429, 'the second failure locks');
    await setPolicy({ maxFailures: 100 });
  });
});

/** Each case ROUNDS times, interleaved: its answers (status + body) and median time. */
async function answersOf(
  cases: Record<string, () => Promise<{ status: number; body: unknown }>>,
): Promise<Record<string, { answers: Set<string>; median: number }>> {
  const results = Object.fromEntries(Object.keys(cases).map((name) => [name, { answers: new Set<string>(), times: [] as number[] }]));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, call] of Object.entries(cases)) {
      const started = process.hrtime.bigint();
      const { status, body } = await call();
      results[name]!.times.push(Number(process.hrtime.bigint() - started) / 1e6);
      results[name]!.answers.add(`${status} ${JSON.stringify(body)}`);
    }
  }
  return Object.fromEntries(Object.entries(results).map(([name, { answers, times }]) => [name, { answers, median: median(times) }]));
}

/** One answer for every case; with `ratio`, medians within that factor of each other too. */
function assertSameAnswers(what: string, results: Awaited<ReturnType<typeof answersOf>>, ratio?: number): void {
  const names = Object.keys(results);
  const medians = names.map((name) => results[name]!.median);
  const spread = Math.max(...medians) / Math.min(...medians);
  console.log(
    `enumeration: ${what}: ${[...results[names[0]!]!.answers].join(' | ').slice(0, 80)}; medians ${names.map((name) => `${name} ${results[name]!.median.toFixed(1)} ms`).join(', ')} (max/min ${spread.toFixed(2)})`,
  );
  for (const name of names)
    assert.deepEqual([...results[name]!.answers], [...results[names[0]!]!.answers], `${what}: ${name} answers otherwise than ${names[0]}`);
  // Calls of a few milliseconds jitter by more than their own length on a shared machine: a gap
  // under 25 ms passes whatever the ratio; sending the mail or SMS inline would not.
  const gap = Math.max(...medians) - Math.min(...medians);
  if (ratio) assert.ok(spread < ratio || gap < 25, `${what}: timings tell the cases apart: ${medians.map((ms) => ms.toFixed(1)).join(' / ')} ms`);
}

describe('no account enumeration through the code calls', () => {
  test('forgot password: the same answer for an account, a disabled one and nobody, by email or phone', async () => {
    const results = await answersOf({
      'known email': () => server.client().post('/api/user/password/reset-code', { identifier: 'enum-active@example.com' }),
      'disabled email': () => server.client().post('/api/user/password/reset-code', { identifier: 'enum-disabled@example.com' }),
      'unknown email': () => server.client().post('/api/user/password/reset-code', { identifier: 'enum-nobody@example.com' }),
      'known phone': () => server.client().post('/api/user/password/reset-code', { identifier: '13900000001' }),
      'unknown phone': () => server.client().post('/api/user/password/reset-code', { identifier: '13900000099' }),
    });
    assertSameAnswers('reset code', results, 3);
    assert.match([...results['unknown email']!.answers][0]!, /^200 /);
  });

  test('forgot password: a wrong code is refused alike for an account and for nobody', async () => {
    const results = await answersOf({
      known: () => server.client().put('/api/user/password/reset', { identifier: 'enum-active@example.com', code: '000000', password: transform('Other1234') }),
      unknown: () =>
        server.client().put('/api/user/password/reset', { identifier: 'enum-nobody@example.com', code: '000000', password: transform('Other1234') }),
    });
    assertSameAnswers('reset with a wrong code', results);
    assert.match([...results.known!.answers][0]!, /^400 /);
  });

  test('phone sign-in code: the same answer for an account, a disabled one and nobody', async () => {
    await setPolicy({ loginMethod: 'PHONE_CAPTCHA' });
    try {
      const results = await answersOf({
        known: () => server.client().post('/api/authc/login/code', { phone: '13900000004' }),
        disabled: () => server.client().post('/api/authc/login/code', { phone: '13900000002' }),
        unknown: () => server.client().post('/api/authc/login/code', { phone: '13900000098' }),
      });
      assertSameAnswers('phone sign-in code', results, 3);
      assert.match([...results.unknown!.answers][0]!, /^200 /);
    } finally {
      await setPolicy({ loginMethod: 'USERNAME_PASSWORD' });
    }
  });
});
