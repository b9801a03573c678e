// The health checks at /health/live and /health/ready (and their aliases under /api): ready only
// while the database answers and every migration has run, 503 with the reason otherwise; on
// PostgreSQL also while the database is down (a throwaway cluster of this file's own, stopped for
// a few seconds), and ready again by itself once it is back; 503 "shutting down" while the
// process drains after SIGTERM (server/http/draining.ts).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startPostgres } from '../../scripts/postgres.mjs';
import { buildApp } from '../../server/app';
import { ADMIN, startServer, type TestServer } from './harness';

const onPostgres = process.env.IAM_TEST_DB === 'postgres';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let server: TestServer;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.stop();
});

async function health(base: string, path: string) {
  const answer = await fetch(`${base}${path}`);
  return {
    status: answer.status,
    cacheControl: answer.headers.get('cache-control'),
    body: (await answer.json()) as { code: number; message: string; data: Record<string, unknown> | null },
  };
}

describe('health checks', () => {
  test('live and ready answer at the root and under /api, without sign-in, saying nothing but the status', async () => {
    for (const prefix of ['', '/api']) {
      for (const [path, status] of [
        ['/health/live', 'live'],
        ['/health/ready', 'ready'],
      ] as const) {
        const answer = await health(server.base, prefix + path);
        assert.equal(answer.status, 200, prefix + path);
        assert.equal(answer.cacheControl, 'no-store');
        assert.deepEqual(answer.body, { code: 0, message: 'ok', data: { status } });
      }
    }
  });

  test('ready answers 503 naming the migrations the database has not run, and 200 once they are there', async () => {
    const db = server.app.ctx.db;
    const name = '0018_sso_apps';
    const row = await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration where name = ${name}`.execute(db);
    assert.equal(row.rows.length, 1);
    await sql`delete from kysely_migration where name = ${name}`.execute(db);
    try {
      const answer = await health(server.base, '/health/ready');
      assert.equal(answer.status, 503);
      assert.deepEqual(answer.body.data, { status: 'unready', reason: 'migrations pending', pending: [name] });
      assert.equal((await health(server.base, '/api/health/ready')).status, 503, 'the alias agrees');
      assert.equal((await health(server.base, '/health/live')).status, 200, 'still live');
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${name}, ${row.rows[0]!.timestamp})`.execute(db);
    }
    assert.equal((await health(server.base, '/health/ready')).status, 200);
  });

  test('while draining after SIGTERM: ready 503 "shutting down" in the envelope, everything else still served, every answer closing its connection', async () => {
    server.app.lifecycle.draining = true;
    try {
      for (const prefix of ['', '/api']) {
        const ready = await fetch(`${server.base}${prefix}/health/ready`);
        assert.equal(ready.status, 503, prefix);
        assert.equal(ready.headers.get('connection'), 'close');
        assert.equal(ready.headers.get('retry-after'), '2');
        const body = (await ready.json()) as { code: number; data: unknown };
        assert.equal(body.code, 503);
        assert.deepEqual(body.data, { status: 'unready', reason: 'shutting down' });
      }
      const config = await fetch(`${server.base}/api/config`);
      assert.equal(config.status, 200, 'still serving');
      assert.equal(config.headers.get('connection'), 'close');
    } finally {
      server.app.lifecycle.draining = false;
    }
    const ready = await fetch(`${server.base}/health/ready`);
    assert.equal(ready.status, 200);
    assert.notEqual(ready.headers.get('connection'), 'close');
  });
});

describe('health checks with the database down', { skip: onPostgres ? false : 'runs in the PostgreSQL pass (it stops a cluster of its own)' }, () => {
  test('ready answers 503 "database unreachable" while PostgreSQL is stopped, live stays 200, ready is 200 again after', async () => {
    const cluster = await startPostgres();
    const app = await buildApp({ databaseUrl: cluster.url, adminUsername: ADMIN.username, adminPassword: ADMIN.password });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      assert.equal((await health(base, '/health/ready')).status, 200);
      let stopped = false;
      const restart = cluster.restart(3_000).finally(() => {
        stopped = true;
      });
      const whileDown: Array<Awaited<ReturnType<typeof health>>> = [];
      await sleep(500);
      while (!stopped) {
        whileDown.push(await health(base, '/health/ready'));
        assert.equal((await health(base, '/health/live')).status, 200, 'live while the database is down');
        await sleep(200);
      }
      await restart;
      const refused = whileDown.filter((answer) => answer.status === 503);
      assert.ok(refused.length > 0, `statuses while down: ${whileDown.map((answer) => answer.status).join(',')}`);
      for (const answer of refused) assert.deepEqual(answer.body.data, { status: 'unready', reason: 'database unreachable' });
      const deadline = Date.now() + 10_000;
      while ((await health(base, '/health/ready')).status !== 200) {
        assert.ok(Date.now() < deadline, 'ready again within 10 s of the restart');
        await sleep(200);
      }
    } finally {
      await app.close();
      await cluster.stop();
    }
  });
});
