// Statement and lock timeouts on PostgreSQL: a table locked by another connection for longer than
// the lock timeout no longer starves the process. Requests that need the table answer 503 with
// Retry-After once the lock timeout passes (never 500, never a hang), requests that do not need it
// still answer 200 meanwhile, and everything answers 200 once the lock is released. A statement
// running past the statement timeout is cancelled the same way. Runs in the PostgreSQL pass of the
// suite (SQLite has neither timeout: its one writer waits on busy_timeout).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { sql } from 'kysely';
import { openDatabase } from '../../server/db/connect';
import { databaseUnavailable } from '../../server/db/availability';
import { createTestDatabase, startServer, type Answer, type Client, type TestDatabase, type TestServer } from './harness';

const onPostgres = process.env.IAM_TEST_DB === 'postgres';
/** The lock is released after this long whatever happens, so that the old code's hang ends too. */
const LOCK_HELD_MS = 8_000;

let database: TestDatabase;
let server: TestServer;

before(async () => {
  if (!onPostgres) return;
  database = await createTestDatabase();
  server = await startServer({ databaseUrl: database.options.databaseUrl });
});
after(async () => {
  await server?.stop();
  await database?.drop();
});

const timed = async <T>(request: () => Promise<Answer<T>>) => {
  const started = Date.now();
  const answer = await request();
  return { answer, ms: Date.now() - started };
};

describe('PostgreSQL statement and lock timeouts', { skip: onPostgres ? false : 'PostgreSQL only (IAM_TEST_DB=postgres)' }, () => {
  test('with the sessions table locked elsewhere, signed-in requests answer 503 within the lock timeout and the others 200 meanwhile', async () => {
    const admin: Client = await server.admin();
    const anonymous = server.client();
    const locker = new pg.Client({ connectionString: database.options.databaseUrl });
    await locker.connect();
    let release: NodeJS.Timeout | undefined;
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE sessions IN ACCESS EXCLUSIVE MODE');
      release = setTimeout(() => {
        void locker.query('ROLLBACK');
      }, LOCK_HELD_MS);
      // More signed-in requests than the pool has connections: before, they held all of them.
      const signedIn = Array.from({ length: 12 }, () => timed(() => admin.get('/api/messages/history')));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const others = await Promise.all(Array.from({ length: 5 }, () => timed(() => anonymous.get('/api/config'))));
      for (const { answer, ms } of others) {
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        // At worst it waits for the first connection the lock timeout (3 s) frees; before, 10 s and 503.
        // Bounded by the lock's release, not by 3 s plus a margin a loaded machine can use up.
        assert.ok(ms < LOCK_HELD_MS - 1_000, `a request that needs no locked table answered after ${ms} ms, once the lock was about to be released`);
      }
      for (const { answer, ms } of await Promise.all(signedIn)) {
        assert.equal(answer.status, 503, JSON.stringify(answer.body));
        assert.equal(answer.headers.get('retry-after'), '2');
        assert.ok(ms < LOCK_HELD_MS - 500, `answered 503 after ${ms} ms, not within the lock timeout`);
      }
    } finally {
      clearTimeout(release);
      await locker.query('ROLLBACK');
      await locker.end();
    }
    const released = await Promise.all([admin.get('/api/messages/history'), anonymous.get('/api/config'), admin.get('/api/config')]);
    assert.deepEqual(
      released.map((answer) => answer.status),
      [200, 200, 200],
    );
  });

  test('a statement running past the statement timeout is cancelled as "unavailable"; the server\'s connections carry both timeouts', async () => {
    const db = await openDatabase({ dataDir: '', databaseUrl: database.options.databaseUrl });
    try {
      const settings = await sql<{
        statementTimeout: string;
        lockTimeout: string;
      }>`select current_setting('statement_timeout') as statement_timeout, current_setting('lock_timeout') as lock_timeout`.execute(db.kysely);
      assert.deepEqual(settings.rows[0], { statementTimeout: '5s', lockTimeout: '3s' });
      const started = Date.now();
      // Far longer than the 5 s timeout, so a slow machine's own delays cannot pass for the cancel.
      const error = await sql`select pg_sleep(30)`.execute(db.kysely).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      assert.equal((error as { code?: string } | undefined)?.code, '57014', String(error));
      assert.ok(databaseUnavailable(error), 'answered as 503');
      assert.ok(Date.now() - started < 20_000, 'cancelled at the statement timeout');
    } finally {
      await db.close();
    }
  });
});
