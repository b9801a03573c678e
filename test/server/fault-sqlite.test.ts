// The health checks on SQLite, and the SQLite file held by another process: the server process
// waits for the write lock (busy timeout, 5 s) and answers once it is free; when the lock is held
// longer, it answers 503 with Retry-After in the envelope, not 500. Runs in the SQLite pass.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SQLite } from '../../server/db/sqlite-driver';
import { ADMIN, Client, createTestDatabase, transform, type TestDatabase } from './harness';
import { spawnServer, type ChildServer } from './crash-process';

const onSqlite = process.env.IAM_TEST_DB !== 'postgres';

let database: TestDatabase;
let server: ChildServer;
let admin: Client;

before(async () => {
  if (!onSqlite) return;
  database = await createTestDatabase();
  server = await spawnServer(database);
  admin = new Client(server.base, server.base);
  assert.equal((await admin.login(ADMIN.username, ADMIN.password)).body.data?.loginSuccess, true);
});
after(async () => {
  await server?.stop();
  await database?.drop();
});

/**
 * Holds the database's write lock from this process (as another process would) while `during` runs,
 * for at most `ms`: a write that waits for the lock is answered after it is released; one that gives
 * up first is answered while it is held, and the lock goes with that answer.
 */
async function holdingWriteLock<T>(ms: number, during: () => Promise<T>): Promise<T> {
  const other = new SQLite(join(database.options.dataDir!, 'iam.sqlite'));
  other.exec('BEGIN IMMEDIATE');
  const release = () => {
    clearTimeout(timer);
    if (!other.open) return;
    other.exec('COMMIT');
    other.close();
  };
  const timer = setTimeout(release, ms);
  try {
    return await during();
  } finally {
    release();
  }
}

const createUser = (username: string) => admin.post('/api/user', { username, realName: 'Busy_Test', password: transform('Secret123') });

describe('SQLite file locked by another process', { skip: onSqlite ? false : 'runs in the SQLite pass' }, () => {
  test('the health checks answer without sign-in, and say nothing but the status', async () => {
    for (const [path, status] of [
      ['/api/health/live', 'live'],
      ['/api/health/ready', 'ready'],
    ] as const) {
      const answer = await fetch(`${server.base}${path}`);
      assert.equal(answer.status, 200, path);
      assert.equal(answer.headers.get('cache-control'), 'no-store');
      assert.deepEqual(await answer.json(), { code: 0, message: 'ok', data: { status } });
    }
  });

  test('a write waits for a lock held 1 s and succeeds', async () => {
    const started = Date.now();
    const answer = await holdingWriteLock(1_000, () => createUser('busy-wait'));
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.ok(Date.now() - started >= 900, 'it waited for the lock');
  });

  test('a write meeting a lock held past the busy timeout answers 503 with Retry-After, and the next one succeeds', async () => {
    // Held until the answer (15 s at most), well past the busy timeout: the insert comes after the
    // password's KDF (slow on a loaded machine) and after the session's own bookkeeping, which may
    // wait out a busy timeout of its own first; held only 6 s, an insert starting after 1 s got the
    // lock when it was freed.
    const answer = await holdingWriteLock(15_000, () => createUser('busy-timeout'));
    assert.equal(answer.status, 503, JSON.stringify(answer.body));
    assert.equal(answer.body.code, 503);
    assert.match(answer.body.message, /database is unavailable/);
    assert.equal(answer.headers.get('retry-after'), '2');
    const again = await createUser('busy-timeout');
    assert.equal(again.status, 200, 'served again once the lock is free');
  });
});
