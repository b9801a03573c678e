// A rolling restart behind nginx open source, as docs/deployment.md ("Rolling restarts") describes
// it, with its nginx configuration: two production server processes on one PostgreSQL database,
// each stopped with SIGTERM, started again and waited for in turn, under a steady load of reads,
// creates and updates through nginx. No client sees an error (nginx's 502 included), and every
// acknowledged write is stored. While a process drains, /health/ready answers 503 "shutting down"
// in the envelope and its answers close their connections. Runs once, in the PostgreSQL pass. And
// the HAProxy and Kubernetes readiness probes the same page gives.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveConfig } from '../../server/config';
import { openDatabase } from '../../server/db/connect';
import { ADMIN, Client, createTestDatabase, transform, type TestDatabase } from './harness';
import { freePort, spawnServer, type ChildServer } from './crash-process';
import { documentedNginxConfig, startNginx, type NginxProxy } from './nginx-proxy';

const onPostgres = process.env.IAM_TEST_DB === 'postgres';
const WORKERS = 4;
/** Short for the test; the default (10 s) gives probes every few seconds time to see the 503. */
const GRACE_MS = 1_500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let database: TestDatabase;
let nginx: NginxProxy | undefined;
const servers: ChildServer[] = [];
let ports: number[] = [];
let env: Record<string, string> = {};

/** nginx's fail_timeout in the documented configuration: how long a failed process stays avoided. */
function documentedFailTimeoutMs(): number {
  const seconds = /fail_timeout=(\d+)s/.exec(documentedNginxConfig())?.[1];
  assert.ok(seconds, 'the documented upstream names its fail_timeout');
  return Number(seconds) * 1000;
}

describe('rolling restart behind nginx', { skip: onPostgres ? false : 'runs once, in the PostgreSQL pass (two processes on one database)' }, () => {
  before(async () => {
    if (!onPostgres) return;
    database = await createTestDatabase();
    ports = [await freePort(), await freePort()];
    nginx = await startNginx(ports);
    env = { IAM_SHUTDOWN_GRACE_MS: String(GRACE_MS), IAM_PUBLIC_URL: nginx.base, IAM_TRUST_PROXY: '127.0.0.1' };
    servers.push(await spawnServer(database, { ...env, PORT: String(ports[0]) }));
    servers.push(await spawnServer(database, { ...env, PORT: String(ports[1]) }));
  });
  after(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await nginx?.stop();
    await database?.drop();
  });

  test('both processes restarted in turn under reads and writes: no client error, no lost write', async () => {
    const admin = new Client(nginx!.base, nginx!.base);
    assert.equal((await admin.login(ADMIN.username, ADMIN.password)).body.data?.loginSuccess, true);
    const errors: string[] = [];
    const acked = new Map<string, { id: string; realName: string }>();
    let loading = true;
    let answers = 0;

    async function send<T>(method: string, path: string, body?: unknown) {
      try {
        const answer = await admin.request<T>(method, path, body);
        answers += 1;
        if (answer.status !== 200) errors.push(`${answer.status} ${method} ${path}: ${answer.body.message}`);
        return answer.status === 200 ? answer : undefined;
      } catch (error) {
        errors.push(`${method} ${path}: ${String(error)}`);
        return undefined;
      }
    }

    const worker = async (index: number) => {
      for (let n = 0; loading; n += 1) {
        const username = `roll-${index}-${n}`;
        const made = await send<{ id: string; version: number }>('POST', '/api/user', {
          username,
          realName: `Roll_${index}_${n}`,
          password: transform('Secret123'),
        });
        if (!made) continue;
        const user = { id: made.body.data.id, realName: `Roll_${index}_${n}` };
        acked.set(username, user);
        let version = made.body.data.version;
        for (let edit = 0; edit < 2 && loading; edit += 1) {
          const realName = `Edit_${index}_${n}_${edit}`;
          const saved = await send<{ version: number }>('PUT', `/api/user/${user.id}`, { realName, version });
          if (!saved) break;
          version = saved.body.data.version;
          user.realName = realName;
          await send('GET', `/api/user/${user.id}`);
        }
      }
    };

    const roll = async () => {
      while (acked.size < 8) await sleep(20);
      for (const index of [0, 1]) {
        // SIGTERM: not ready at once (in the envelope), still serving, every answer closing its connection.
        servers[index]!.child.kill('SIGTERM');
        const signalled = Date.now();
        let ready = await fetch(`${servers[index]!.base}/health/ready`);
        // The signal is handled on the process's next turn of its event loop.
        while (ready.status === 200 && Date.now() - signalled < GRACE_MS / 2) ready = await fetch(`${servers[index]!.base}/health/ready`);
        const body = (await ready.json()) as { code: number; data: { reason: string } };
        assert.equal(ready.status, 503, 'not ready once SIGTERM arrived');
        assert.equal(body.data.reason, 'shutting down');
        assert.equal(body.code, 503);
        assert.equal(ready.headers.get('connection'), 'close');
        const live = await fetch(`${servers[index]!.base}/health/live`);
        assert.equal(live.status, 200, 'still serving during the grace period');
        await servers[index]!.stop();
        assert.equal(servers[index]!.child.exitCode, 0, 'SIGTERM exits 0');
        // Started again on its port; the next one waits until nginx may send to it again.
        servers[index] = await spawnServer(database, { ...env, PORT: String(ports[index]) });
        while ((await fetch(`${servers[index].base}/health/ready`)).status !== 200) await sleep(100);
        await sleep(documentedFailTimeoutMs());
      }
    };

    await Promise.all([
      roll().finally(() => {
        loading = false;
      }),
      ...Array.from({ length: WORKERS }, (_, index) => worker(index)),
    ]);

    const upstreamFailures = nginx!
      .errorLog()
      .split('\n')
      .filter((line) => /upstream|no live/.test(line));
    console.log(`rolling restart: ${answers} answers, ${acked.size} users created; nginx logged ${upstreamFailures.length} upstream failures (retried)`);
    console.log(upstreamFailures.map((line) => line.replace(/^.*?\[error\] \S+ /, '').slice(0, 140)).join('\n'));
    assert.deepEqual(errors, [], `no client error through nginx\n${upstreamFailures.join('\n')}`);

    const db = await openDatabase({ dataDir: '', databaseUrl: database.options.databaseUrl });
    try {
      const rows = await db.kysely.selectFrom('users').select(['username', 'realName']).where('username', 'like', 'roll-%').execute();
      const stored = new Map(rows.map((row) => [row.username, row.realName]));
      const lost = [...acked].flatMap(([username, user]) =>
        stored.get(username) === user.realName ? [] : [`${username}: ${stored.get(username)}, acknowledged ${user.realName}`],
      );
      assert.deepEqual(lost, [], 'every acknowledged create and update is stored');
    } finally {
      await db.close();
    }
  });
});

describe('the readiness probes of docs/deployment.md', () => {
  const doc = readFileSync(fileURLToPath(new URL('../../docs/deployment.md', import.meta.url)), 'utf8');
  /** The page's first `language` block that contains `text`. */
  const block = (language: string, text: string) =>
    [...doc.matchAll(/```(\w+)\n([\s\S]*?)```/g)].find((match) => match[1] === language && match[2]!.includes(text))?.[2] ?? '';

  test('the HAProxy backend is valid HAProxy and checks /health/ready', () => {
    const backend = block('haproxy', 'backend iam');
    assert.match(backend, /option httpchk GET \/health\/ready/);
    const dir = mkdtempSync(join(tmpdir(), 'iam-haproxy-'));
    try {
      writeFileSync(
        join(dir, 'haproxy.cfg'),
        `defaults\n    mode http\n    timeout connect 5s\n    timeout client 30s\n    timeout server 30s\nfrontend web\n    bind 127.0.0.1:8443\n    default_backend iam\n${backend}`,
      );
      const binary = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].find((path) => existsSync(path));
      assert.ok(binary, 'haproxy is missing: install it with  sudo apt-get install -y haproxy');
      execFileSync(binary, ['-c', '-q', '-f', join(dir, 'haproxy.cfg')], { stdio: 'pipe' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the Kubernetes probes: the health paths, a grace period they can see, a stop timeout above it', () => {
    const pod = block('yaml', 'readinessProbe');
    assert.match(pod, /readinessProbe:\n\s+httpGet: \{ path: \/health\/ready/);
    assert.match(pod, /livenessProbe:\n\s+httpGet: \{ path: \/health\/live/);
    const grace = Number(/IAM_SHUTDOWN_GRACE_MS, value: "(\d+)"/.exec(pod)?.[1]);
    assert.equal(grace, resolveConfig({}, {}).shutdownGraceMs, 'the default grace period');
    const period = Number(/readinessProbe:[\s\S]*?periodSeconds: (\d+)/.exec(pod)?.[1]);
    const threshold = Number(/readinessProbe:[\s\S]*?failureThreshold: (\d+)/.exec(pod)?.[1]);
    assert.ok(period * threshold * 1000 * 2 <= grace, 'the readiness probe sees the 503 well within the grace period');
    assert.ok(Number(/terminationGracePeriodSeconds: (\d+)/.exec(pod)?.[1]) * 1000 >= grace * 2, 'the pod is not killed during the grace period');
    assert.ok(Number(/livenessProbe:[\s\S]*?timeoutSeconds: (\d+)/.exec(pod)?.[1]) > 5, "above SQLite's 5 s busy timeout");
  });
});
