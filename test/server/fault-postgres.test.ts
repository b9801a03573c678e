// Faults on PostgreSQL, on a throwaway cluster of this file's own (so it can be restarted): a
// SELECT whose connection the database terminated is retried on a fresh one; and two production
// server processes under a stream of user creates and updates survive a database restart, the
// termination of their connections, kill -9 of one (started again) and SIGTERM of the other (it
// finishes its requests in flight first): no acknowledged write is lost, no answer is a 5xx other
// than 503, /api/health/ready answers 503 while the database is away and 200 after, and both
// processes serve again by themselves once it is back. Runs in the PostgreSQL pass of the suite.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { sql } from 'kysely';
import { startPostgres, type ThrowawayPostgres } from '../../scripts/postgres.mjs';
import { openDatabase, type Db } from '../../server/db/connect';
import { databaseUnavailable } from '../../server/db/availability';
import { ADMIN, Client, transform, type TestDatabase } from './harness';
import { spawnServer, type ChildServer } from './crash-process';

const onPostgres = process.env.IAM_TEST_DB === 'postgres';
const WORKERS = 4;
/** How long the processes have to serve again after a fault, without outside help. */
const RECOVERY_MS = 10_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let cluster: ThrowawayPostgres;
let database: TestDatabase;

before(async () => {
  if (!onPostgres) return;
  cluster = await startPostgres();
  database = { options: { databaseUrl: cluster.url }, drop: async () => {} };
});
after(async () => {
  await cluster?.stop();
});

/** Runs `sqlText` as the cluster's superuser (outside the server's pool). */
async function asSuperuser(sqlText: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  try {
    return await client.query(sqlText);
  } finally {
    await client.end();
  }
}

describe('PostgreSQL faults', { skip: onPostgres ? false : 'runs in the PostgreSQL pass (it starts its own cluster)' }, () => {
  test('a SELECT, and a write not yet sent, on a connection the database terminated are retried on a fresh one', async () => {
    const db: Db = await openDatabase({ dataDir: '', databaseUrl: cluster.url });
    try {
      await db.kysely.connection().execute(async (connection) => {
        const terminated = await terminateOwnConnection(connection);
        // The terminated connection is dead now: the next queries on it are retried elsewhere.
        const fresh = await backendPid(connection);
        assert.notEqual(fresh, terminated, 'the SELECT answered on a fresh connection');
      });
      await db.kysely.connection().execute(async (connection) => {
        await terminateOwnConnection(connection);
        await connection
          .insertInto('captchas')
          .values({ id: 'fault-retry', clientHash: 'x', answerHash: 'x', expiresAt: Date.now() + 60_000 })
          .execute();
      });
      const stored = await db.kysely.selectFrom('captchas').select('id').where('id', '=', 'fault-retry').execute();
      assert.equal(stored.length, 1, 'the write was sent once, on a fresh connection');
    } finally {
      await db.close();
    }
  });

  test('a SELECT whose connection is terminated while it runs is run again; a write is not, and its error means 503', async () => {
    const db: Db = await openDatabase({ dataDir: '', databaseUrl: cluster.url });
    try {
      await db.kysely.connection().execute(async (connection) => {
        const pid = await backendPid(connection);
        // Sleeps on this backend only (its retry on a fresh one answers at once), long enough to be
        // terminated while it runs however slow the machine is.
        const slowRead = connection
          .selectNoFrom((eb) => [
            sql<number>`pg_sleep(case when pg_backend_pid() = ${pid} then 60 else 0 end)`.as('slept'),
            eb.fn<number>('pg_backend_pid').as('pid'),
          ])
          .executeTakeFirstOrThrow();
        await terminateWhenSleeping(pid);
        const answered = await slowRead;
        assert.notEqual(Number(answered.pid), pid, 'answered by a fresh connection');
      });
      await db.kysely.connection().execute(async (connection) => {
        const pid = await backendPid(connection);
        const slowWrite = connection
          .insertInto('captchas')
          .values({ id: 'fault-in-flight', clientHash: 'x', answerHash: sql<string>`(select 'x' from pg_sleep(60))`, expiresAt: Date.now() + 60_000 })
          .execute()
          .then(
            () => undefined,
            (error: unknown) => error,
          );
        await terminateWhenSleeping(pid);
        const error = await slowWrite;
        assert.ok(error, 'the write may have been applied: it is not repeated');
        assert.ok(databaseUnavailable(error), String(error));
      });
    } finally {
      await db.close();
    }
  });

  test('two processes under load survive a database restart, terminated connections, kill -9 and SIGTERM', async () => {
    const servers: ChildServer[] = [await spawnServer(database)];
    servers.push(await spawnServer(database));
    const admin = new Client(servers[0]!.base, servers[0]!.base);
    assert.equal((await admin.login(ADMIN.username, ADMIN.password)).body.data?.loginSuccess, true);
    const cookies = admin.cookies;
    const up = [true, true];
    const clientOf = (index: number) => Object.assign(new Client(servers[index]!.base, servers[index]!.base), { cookies });

    /** Every HTTP status answered during the run, with the request, for the failure message. */
    const answered: string[] = [];
    let acknowledged = 0;
    const created = new Map<string, { id: string; version: number; acked: string; unsure: Set<string> }>();
    let loading = true;
    let probes = 0;

    async function send<T>(method: string, path: string, body?: unknown, index?: number) {
      const target = index ?? (Math.random() < 0.5 ? 0 : 1);
      if (!up[target]) return undefined;
      try {
        const answer = await clientOf(target).request<T>(method, path, body);
        answered.push(`${answer.status} ${method} ${path} via ${target}: ${answer.body.message}`);
        return answer;
      } catch {
        return undefined; // the process was killed or is draining: no answer, nothing acknowledged
      }
    }

    const worker = async (index: number) => {
      for (let n = 0; loading; n += 1) {
        const username = `fault-${index}-${n}`;
        const made = await send<{ id: string; version: number }>('POST', '/api/user', {
          username,
          realName: `Fault_${index}_${n}`,
          password: transform('Secret123'),
        });
        if (made?.status !== 200) continue;
        acknowledged += 1;
        const user = { id: made.body.data.id, version: made.body.data.version, acked: `Fault_${index}_${n}`, unsure: new Set<string>() };
        created.set(username, user);
        for (let edit = 0; edit < 3 && loading; edit += 1) {
          const realName = `Edit_${index}_${n}_${edit}`;
          const saved = await send<{ version: number }>('PUT', `/api/user/${user.id}`, { realName, version: user.version });
          if (saved?.status === 200) {
            acknowledged += 1;
            Object.assign(user, { acked: realName, version: saved.body.data.version });
            user.unsure.clear();
          } else if (saved?.status === 409) {
            // An update answered 503 (or not at all) was applied after all: continue from what is stored.
            for (let reread = 0; reread < 50; reread += 1) {
              const stored = await send<{ version: number }>('GET', `/api/user/${user.id}`);
              if (stored?.status === 200) {
                user.version = stored.body.data.version;
                break;
              }
              await sleep(100);
            }
          } else user.unsure.add(realName);
        }
      }
    };

    /** Resolves once /api/health/ready answers 200 and a write succeeds through every process. */
    async function serving(what: string) {
      const deadline = Date.now() + RECOVERY_MS;
      for (const index of [0, 1]) {
        for (;;) {
          assert.equal(servers[index]!.child.exitCode, null, `process ${index} exited after ${what}:\n${servers[index]!.output().slice(-2000)}`);
          assert.equal(servers[index]!.child.signalCode, null, `process ${index} died after ${what}`);
          const ready = await fetch(`${servers[index]!.base}/api/health/ready`).catch(() => undefined);
          probes += 1;
          const write =
            ready?.status === 200
              ? await send('POST', '/api/user', { username: `probe-${probes}`, realName: 'Probe_User', password: transform('Secret123') }, index)
              : undefined;
          if (write?.status === 200) break;
          assert.ok(Date.now() < deadline, `process ${index} not serving ${RECOVERY_MS} ms after ${what}`);
          await sleep(100);
        }
      }
    }

    const faults = async () => {
      while (acknowledged < 20) await sleep(20);

      // A database restart with two seconds of outage: readiness says so, the processes stay up.
      const readyWhileAway: number[] = [];
      let restarted = false;
      const restart = cluster.restart(2_000).finally(() => {
        restarted = true;
      });
      await sleep(800);
      while (!restarted) {
        for (const server of servers)
          readyWhileAway.push(
            await fetch(`${server.base}/api/health/ready`).then(
              (answer) => answer.status,
              () => 0,
            ),
          );
        await sleep(100);
      }
      await restart;
      assert.ok(readyWhileAway.includes(503), `readiness while the database was away: ${readyWhileAway.join(',')}`);
      assert.ok(
        readyWhileAway.every((status) => status === 503 || status === 200),
        readyWhileAway.join(','),
      );
      const live = await fetch(`${servers[0]!.base}/api/health/live`);
      assert.equal(live.status, 200);
      await serving('the database restart');

      // Every connection of the server processes terminated by the database.
      const terminated = await asSuperuser("select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'iam-console'");
      assert.ok(terminated.rowCount! >= 2, `terminated ${terminated.rowCount} connections`);
      await serving('pg_terminate_backend');

      // kill -9 of process 0, started again.
      up[0] = false;
      await servers[0]!.kill9();
      servers[0] = await spawnServer(database);
      up[0] = true;

      // SIGTERM of process 1 with requests in flight: each is answered before it exits.
      const inFlight = Array.from({ length: 8 }, (_, n) =>
        clientOf(1).request('POST', '/api/user', { username: `drain-${n}`, realName: 'Drain_Test', password: transform('Secret123') }),
      );
      await Promise.race(inFlight);
      up[1] = false;
      const stopped = servers[1]!.stop();
      const drained = await Promise.allSettled(inFlight);
      await stopped;
      assert.equal(
        servers[1]!.child.exitCode,
        0,
        `${servers[1]!
          .output()
          .split('\n')
          .filter((line) => !line.startsWith('{'))
          .join('\n')
          .slice(-3000)}\nSIGTERM exits cleanly: exit ${servers[1]!.child.exitCode} signal ${servers[1]!.child.signalCode}`,
      );
      assert.deepEqual(
        drained.map((result) => (result.status === 'fulfilled' ? result.value.status : String(result.reason))),
        Array(8).fill(200),
        'every request in flight was answered',
      );
      servers[1] = await spawnServer(database);
      up[1] = true;
      await serving('the restarts of both processes');
      await sleep(500);
    };

    try {
      await Promise.all([
        faults().finally(() => {
          loading = false;
        }),
        ...Array.from({ length: WORKERS }, (_, index) => worker(index)),
      ]);

      const serverErrors = answered.filter((line) => Number(line.slice(0, 3)) >= 500 && !line.startsWith('503'));
      assert.deepEqual(serverErrors, [], 'no 5xx other than 503');
      const unexpected = answered.filter((line) => !/^(200|409|503) /.test(line));
      assert.deepEqual(unexpected, [], 'only successes, stale versions and 503');
      assert.ok(
        answered.some((line) => line.startsWith('503')),
        'some writes met the outage',
      );

      const db = await openDatabase({ dataDir: '', databaseUrl: cluster.url });
      try {
        const rows = await db.kysely.selectFrom('users').select(['username', 'realName', 'version']).where('username', 'like', 'fault-%').execute();
        const stored = new Map(rows.map((row) => [row.username, row]));
        const lost = [...created].flatMap(([username, user]) => {
          const row = stored.get(username);
          if (!row) return [`${username} missing`];
          if (row.realName !== user.acked && !user.unsure.has(row.realName)) return [`${username}: ${row.realName}, acknowledged ${user.acked}`];
          return row.version >= user.version ? [] : [`${username}: version ${row.version} < ${user.version}`];
        });
        console.log(
          `faults: ${acknowledged} writes acknowledged, ${answered.length} answers, ${answered.filter((line) => line.startsWith('503')).length} of them 503`,
        );
        assert.deepEqual(lost, [], 'every acknowledged create and update is stored');
      } finally {
        await db.close();
      }
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  });
});

/** Has the database terminate the connection `connection` runs on, and waits until the client saw it:
 *  the backend sends its FATAL error before it leaves pg_stat_activity, and the client marks itself
 *  unqueryable as that message is read (during the polls' own network waits). */
async function terminateOwnConnection(connection: Db['kysely']): Promise<number> {
  const pid = await backendPid(connection);
  const { rows } = await asSuperuser(`select pg_terminate_backend(${pid}) as done`);
  assert.equal(rows[0]?.done, true);
  await backendState(pid, (state) => state === undefined, 'to end');
  return pid;
}

/** Terminates backend `pid` once it is inside pg_sleep (a statement in flight, whatever the load). */
async function terminateWhenSleeping(pid: number): Promise<void> {
  await backendState(pid, (state) => state === 'PgSleep', 'to sleep');
  await asSuperuser(`select pg_terminate_backend(${pid})`);
}

/** Polls pg_stat_activity until backend `pid`'s wait event (undefined: gone) satisfies `wanted`. */
async function backendState(pid: number, wanted: (waitEvent: string | null | undefined) => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { rows } = await asSuperuser(`select wait_event from pg_stat_activity where pid = ${pid}`);
    if (wanted((rows[0] as { wait_event: string | null } | undefined)?.wait_event)) return;
    assert.ok(Date.now() < deadline, `backend ${pid} waited 30 s ${what}`);
    await sleep(20);
  }
}

/** The id of the PostgreSQL backend serving `connection` (a SELECT). */
async function backendPid(connection: Db['kysely']): Promise<number> {
  const row = await connection.selectNoFrom((eb) => eb.fn<number>('pg_backend_pid').as('pid')).executeTakeFirstOrThrow();
  return Number(row.pid);
}
