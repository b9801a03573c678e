// Crash safety: the production server takes a stream of writes (users created by parallel
// clients), is killed with SIGKILL in the middle of it, and restarts on the same data. Every write
// it acknowledged is there; SQLite's file passes PRAGMA integrity_check (PostgreSQL: the restarted
// server reads it all back).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SQLite } from '../../server/db/sqlite-driver';
import { ADMIN, Client, createTestDatabase, transform, type TestDatabase } from './harness';
import { spawnServer, type ChildServer } from './crash-process';

const WORKERS = 4;
/** Kill once this many writes were acknowledged (or after MAX_STREAM_MS, whichever comes first). */
const KILL_AFTER_ACKS = 40;
const MAX_STREAM_MS = 20_000;

let database: TestDatabase;
let running: ChildServer | undefined;
before(async () => {
  database = await createTestDatabase();
});
after(async () => {
  await running?.stop();
  await database.drop();
});

async function signedIn(base: string): Promise<Client> {
  const client = new Client(base, base);
  const answer = await client.login(ADMIN.username, ADMIN.password);
  assert.equal(answer.body.data?.loginSuccess, true, JSON.stringify(answer.body));
  return client;
}

/** Usernames of crash-* users, read through the API page by page. */
async function listedCrashUsers(client: Client): Promise<Set<string>> {
  const names = new Set<string>();
  for (let page = 1; page <= 100; page += 1) {
    const answer = await client.get<{ list: { username: string }[]; pager: { total: number; size: number } }>(
      `/api/user?page=${page}&size=50&searchProp=username&searchValue=crash-`,
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    for (const user of answer.body.data.list) names.add(user.username);
    if (page * answer.body.data.pager.size >= answer.body.data.pager.total) break;
  }
  return names;
}

test('kill -9 during a stream of writes: every acknowledged write survives, the database opens cleanly', async () => {
  running = await spawnServer(database);
  const admin = await signedIn(running.base);
  const acknowledged: string[] = [];
  let sent = 0;
  let stopped = false;
  const started = Date.now();

  const worker = async (index: number) => {
    for (let n = 0; !stopped && n < 10_000 && Date.now() - started < MAX_STREAM_MS; n += 1) {
      const username = `crash-${index}-${n}`;
      sent += 1;
      try {
        const answer = await admin.post('/api/user', { username, realName: 'Crash_Test', password: transform('Secret123') });
        if (answer.status === 200 && answer.body.code === 0) acknowledged.push(username);
        else assert.fail(`refused before the kill: ${answer.status} ${JSON.stringify(answer.body)}`);
      } catch (error) {
        if (stopped) return; // the connection died with the server: not acknowledged
        throw error;
      }
    }
  };
  const killer = (async () => {
    while (acknowledged.length < KILL_AFTER_ACKS && Date.now() - started < MAX_STREAM_MS) await new Promise((resolve) => setTimeout(resolve, 5));
    stopped = true;
    await running.kill9();
  })();
  await Promise.all([killer, ...Array.from({ length: WORKERS }, (_, index) => worker(index))]);
  assert.equal(running.child.signalCode, 'SIGKILL');
  assert.ok(acknowledged.length >= KILL_AFTER_ACKS, `only ${acknowledged.length} writes acknowledged before the kill`);

  if (database.options.dataDir) {
    // Opening the file replays the WAL the killed process left behind.
    const file = new SQLite(join(database.options.dataDir, 'iam.sqlite'));
    try {
      assert.equal(file.pragma('integrity_check', { simple: true }), 'ok');
      const stored = new Set(file.prepare("select username from users where username like 'crash-%'").pluck().all() as string[]);
      assert.deepEqual(
        acknowledged.filter((name) => !stored.has(name)),
        [],
        'acknowledged but missing in the file',
      );
    } finally {
      file.close();
    }
  }

  running = await spawnServer(database);
  const listed = await listedCrashUsers(await signedIn(running.base));
  const missing = acknowledged.filter((name) => !listed.has(name));
  console.log(
    `crash: ${sent} writes sent, ${acknowledged.length} acknowledged, ${acknowledged.length - missing.length} found after kill -9 and restart, ${listed.size} stored in all`,
  );
  assert.deepEqual(missing, [], 'every acknowledged write is there after the restart');
  // Nothing was stored that nobody asked for; unacknowledged writes in flight may or may not have landed.
  assert.ok(listed.size <= sent);
  const write = await (await signedIn(running.base)).post('/api/user', { username: 'after-crash', realName: 'After_Crash', password: transform('Secret123') });
  assert.equal(write.status, 200, 'the restarted server takes writes');
  await running.stop();
  running = undefined;
});
