// The production server as a child process (dist-server/main.js, or server/main.ts through tsx
// when the compiled copy is absent or older than its sources) on a database the test owns, for kill -9 and two-process tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { openDatabase, type Db } from '../../server/db/connect';
import { ADMIN, Client, createTestDatabase, type TestDatabase } from './harness';

const root = fileURLToPath(new URL('../..', import.meta.url));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface ChildServer {
  base: string;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** SIGKILL: no drain, no close of the database. */
  kill9(): Promise<void>;
  /** SIGTERM and wait (SIGKILL after 10 s). */
  stop(): Promise<void>;
}

/** Newest modification time of the files under `dir`. */
function newest(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((latest, item) => {
    const path = join(dir, item.name);
    return Math.max(latest, item.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }, 0);
}

/** The server's command line as [node, arguments] (the backup command and start-failure tests run it too). */
export function serverCommand(): [string, string[]] {
  return [process.execPath, entry()];
}

/** The compiled server when it is newer than its sources (npm run build), else the sources through tsx. */
function entry(): string[] {
  const compiled = join(root, 'dist-server/main.js');
  const fresh = existsSync(compiled) && statSync(compiled).mtimeMs >= Math.max(newest(join(root, 'server')), newest(join(root, 'src/core')));
  // tsx by its resolved address: the process may run from a folder without node_modules.
  return fresh ? [compiled] : ['--import', import.meta.resolve('tsx'), join(root, 'server/main.ts')];
}

/** Starts the server on a free port over `database`, from the folder `cwd` (default: the
 *  repository); resolves once it answers. A port taken by someone else between the probe and the
 *  listen is retried on another. */
export async function spawnServer(database: TestDatabase, env: Record<string, string> = {}, cwd = root): Promise<ChildServer> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await spawnOnce(database, env, cwd);
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

async function spawnOnce(database: TestDatabase, env: Record<string, string>, cwd: string): Promise<ChildServer> {
  // env.PORT: a port the test chose (a process started again where a proxy expects it).
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { dataDir, databaseUrl } = database.options;
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    IAM_ADMIN_USERNAME: ADMIN.username,
    IAM_ADMIN_PASSWORD: ADMIN.password,
    IAM_LOG: '0',
    // SIGTERM stops at once unless a test asks for the grace period a proxy needs (server/main.ts).
    IAM_SHUTDOWN_GRACE_MS: '0',
    ...env,
  };
  delete childEnv.DATABASE_URL;
  delete childEnv.IAM_DATA_DIR;
  if (databaseUrl) childEnv.DATABASE_URL = databaseUrl;
  else if (dataDir) childEnv.IAM_DATA_DIR = dataDir;
  const child = spawn(process.execPath, entry(), {
    cwd,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const waitExit = async (ms: number) => {
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, ms))]);
  };
  const server: ChildServer = {
    base,
    child,
    output: () => output,
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await waitExit(10_000);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await waitExit(10_000);
      if (child.exitCode === null && child.signalCode === null) await server.kill9();
    },
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${base}/api/config`)).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await server.kill9();
  throw new Error(`the server did not answer within 60 s:\n${output}`);
}

/** Two server processes on one fresh database, an administrator signed in on each, and the test's
 *  own connection to that database. */
export interface ProcessPair {
  servers: ChildServer[];
  db: Db;
  admins: Client[];
  stop(): Promise<void>;
}

export async function startProcessPair(env: Record<string, string> = {}): Promise<ProcessPair> {
  const database = await createTestDatabase();
  // Both started at once; if one fails, the other is stopped too (a running child would keep the
  // test process alive after its failure).
  const started = await Promise.allSettled([spawnServer(database, env), spawnServer(database, env)]);
  const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const giveUp = async (error: unknown): Promise<never> => {
    await Promise.all(servers.map((server) => server.stop()));
    await database.drop();
    throw error;
  };
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) return giveUp(failed.reason);
  const db = await openDatabase({ dataDir: database.options.dataDir ?? '', databaseUrl: database.options.databaseUrl });
  const admins: Client[] = [];
  try {
    for (const server of servers) {
      const client = new Client(server.base, server.base);
      assert.equal((await client.login(ADMIN.username, ADMIN.password)).body.data?.loginSuccess, true);
      admins.push(client);
    }
  } catch (error) {
    await db.close();
    return giveUp(error);
  }
  return {
    servers,
    db,
    admins,
    async stop() {
      await Promise.all(servers.map((server) => server.stop()));
      await db.close();
      await database.drop();
    },
  };
}
