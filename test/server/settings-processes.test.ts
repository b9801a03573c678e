// Two production server processes on one database (SQLite file or PostgreSQL): a settings save
// through one is never undone by a save through the other, the other follows it from its very
// next request, the first save of a never-saved document answers 409 to the loser (not 500), and
// the sign-in rate limit counts hits on both processes together.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Db } from '../../server/db/connect';
import { ADMIN, Client, transform } from './harness';
import { startProcessPair, type ChildServer, type ProcessPair } from './crash-process';

const TRIALS = 10;
const PORTAL = 'http://portal.example.test';

let servers: ChildServer[] = [];
let db: Db;
let admins: Client[] = [];
let pair: ProcessPair | undefined;

before(async () => {
  // Behind a trusted proxy: the rate-limit case speaks from its own client address.
  // PORTAL may sign in in token mode (the token header case).
  pair = await startProcessPair({ IAM_TRUST_PROXY: 'loopback', IAM_CORS_ORIGINS: PORTAL });
  ({ servers, db, admins } = pair);
});
after(async () => {
  await pair?.stop();
});

const clientOn = (index: number) => new Client(servers[index]!.base, servers[index]!.base);

type LoginPolicy = Record<string, unknown> & { version: number };

const loginPolicy = async (index: number) => (await admins[index]!.get<{ value: LoginPolicy; version: number }>('/api/settings/login')).body.data;

async function saveLoginPolicy(index: number, changes: Record<string, unknown>) {
  const { version } = await loginPolicy(index);
  const saved = await admins[index]!.put<{ version: number }>('/api/settings/login', { ...changes, version });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  return saved.body.data.version;
}

test('a login-policy save through one process is not undone by a save through the other', async () => {
  for (let trial = 0; trial < TRIALS; trial += 1) {
    const maxFailures = 6 + (trial % 5);
    const captchaLength = 4 + (trial % 4);
    // The second process has just read the document (as a console page does before saving).
    await loginPolicy(1);
    const first = await saveLoginPolicy(0, { maxFailures });
    const second = await admins[1]!.put<{ version: number }>('/api/settings/login', { captchaLength, version: first });
    assert.ok(second.status === 200 || second.status === 409, `trial ${trial}: ${second.status} ${JSON.stringify(second.body)}`);
    const stored = (await loginPolicy(0)).value;
    assert.equal(stored.maxFailures, maxFailures, `trial ${trial}: maxFailures kept`);
    if (second.status === 200) assert.equal(stored.captchaLength, captchaLength, `trial ${trial}: captchaLength saved`);
  }
});

test('a configuration save through one process is not undone by a save through the other', async () => {
  for (let trial = 0; trial < TRIALS; trial += 1) {
    const appName = `Console_${trial}`;
    const copyright = `Copyright ${trial}`;
    await admins[1]!.get('/api/config');
    const current = (await admins[0]!.get<{ version: number }>('/api/config')).body.data;
    const first = await admins[0]!.put<{ version: number }>('/api/config', { system: { appName }, version: current.version });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const second = await admins[1]!.put('/api/config', { system: { copyright }, version: first.body.data.version });
    assert.ok(second.status === 200 || second.status === 409, `trial ${trial}: ${second.status}`);
    const stored = (await admins[0]!.get<{ value: { system: Record<string, string> } }>('/api/config')).body.data.value.system;
    assert.equal(stored.appName, appName, `trial ${trial}: appName kept`);
    if (second.status === 200) assert.equal(stored.copyright, copyright, `trial ${trial}: copyright saved`);
  }
});

test('captcha switched on through one process: the very next sign-in through the other asks for it', async () => {
  await clientOn(1).get('/api/settings/login/public');
  await saveLoginPolicy(0, { captchaEnabled: true });
  try {
    const signIn = await clientOn(1).login(ADMIN.username, ADMIN.password);
    assert.equal(signIn.status, 400, JSON.stringify(signIn.body));
    assert.equal(signIn.body.code, 1001, 'captcha required');
  } finally {
    await saveLoginPolicy(0, { captchaEnabled: false });
  }
});

async function saveTokenName(tokenName: string) {
  const { value, version } = (await admins[0]!.get<{ value: { settings: { authConfig: object } }; version: number }>('/api/config')).body.data;
  const saved = await admins[0]!.put('/api/config', { settings: { authConfig: { ...value.settings.authConfig, tokenName } }, version });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
}

// The session lookup takes the token from the header named by the configuration this process read
// last, and confirms the name with the versions that same statement reads (server/auth/gate.ts): a
// rename through another process must hold from the very next request, in both directions.
test('the token header renamed through one process: the next request through the other reads the new header, not the old', async () => {
  const signIn = await new Client(servers[1]!.base, PORTAL).login(ADMIN.username, ADMIN.password, {}, { 'x-iam-auth-mode': 'token' });
  assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
  const { token } = signIn.body.data as { token: string };
  const withHeader = (index: number, header: string) => clientOn(index).get('/api/cas/session', { [header]: token });
  // The second process has read the configuration with the default name.
  assert.equal((await withHeader(1, 'token')).status, 200);
  await saveTokenName('X-Renamed-Token');
  try {
    assert.equal((await withHeader(1, 'token')).status, 401, 'the old header is no longer read');
    assert.equal((await withHeader(1, 'x-renamed-token')).status, 200, 'the new one is');
    await saveTokenName('token');
    assert.equal((await withHeader(1, 'x-renamed-token')).status, 401, 'renamed back: the header read last is no longer read');
    assert.equal((await withHeader(1, 'token')).status, 200);
  } finally {
    await saveTokenName('token');
  }
});

test('maxFailures lowered through one process: the other locks at the new maximum', async () => {
  await saveLoginPolicy(0, { captchaAfterFailures: 0, maxFailures: 10, lockMinutes: 15 });
  await admins[0]!.post('/api/user', { username: 'fresh-lock', realName: 'Fresh_Lock', password: transform('Secret123') });
  // The second process has read the policy with maxFailures 10.
  await loginPolicy(1);
  await saveLoginPolicy(0, { maxFailures: 3 });
  try {
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const wrong = await clientOn(1).login('fresh-lock', `Wrong${1000 + attempt}`);
      // The failure that reaches the maximum locks the account and says so.
      assert.equal(wrong.status, attempt < 3 ? 401 : 429, `failure ${attempt}: ${JSON.stringify(wrong.body)}`);
    }
    const right = await clientOn(1).login('fresh-lock', 'Secret123');
    assert.equal(right.status, 429, `locked after 3 failures: ${JSON.stringify(right.body)}`);
  } finally {
    await saveLoginPolicy(0, { captchaAfterFailures: 3, maxFailures: 5 });
  }
});

test('the first save of a never-saved document from both processes at once: one 200, one 409, never 500', async () => {
  for (let trial = 0; trial < TRIALS; trial += 1) {
    await db.kysely.deleteFrom('settings').where('key', '=', 'login').execute();
    const answers = await Promise.all([0, 1].map((index) => admins[index]!.put('/api/settings/login', { captchaLength: 5 + index, version: 1 })));
    const statuses = answers.map((answer) => answer.status).sort();
    assert.deepEqual(statuses, [200, 409], `trial ${trial}: ${answers.map((answer) => `${answer.status} ${answer.body.message}`).join(', ')}`);
  }
});

test('the sign-in rate limit is counted over both processes together', async () => {
  // Default limit: 30 sign-in calls a minute per client address. Bodies that fail validation are
  // counted too (the limit runs before the handler) and cost no password hashing.
  const headers = { 'x-forwarded-for': '203.0.113.77' };
  const answers = await Promise.all(Array.from({ length: 44 }, (_, n) => clientOn(n % 2).post('/api/authc/login', {}, headers)));
  const accepted = answers.filter((answer) => answer.status !== 429).length;
  assert.ok(
    answers.every((answer) => answer.status === 400 || answer.status === 429),
    answers.map((answer) => answer.status).join(','),
  );
  assert.equal(accepted, 30, `30 accepted in all, not 30 per process: ${accepted}`);
});
