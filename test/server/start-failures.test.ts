// Every way the production server fails to start says so in ONE line on stderr naming the cause
// and the setting to change (never a stack, nor the compiled bundle's source line an uncaught error
// prints): PostgreSQL unreachable, a data directory it may not write, a port in use, a bad setting.
// The server runs as a child process, as an operator starts it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { openDatabase } from '../../server/db/connect';
import { freePort, serverCommand } from './crash-process';

const root = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'iam-start-'));
/** Root writes anywhere: the unwritable directory is tried as `nobody`. */
const asRoot = process.getuid?.() === 0;

let holder: Server;
let heldPort = 0;
before(async () => {
  chmodSync(work, 0o755);
  holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  heldPort = (holder.address() as { port: number }).port;
});
after(() => {
  holder?.close();
  rmSync(work, { recursive: true, force: true });
});

/** Starts the server with `env` (over a clean environment) and resolves when it exits. */
async function start(env: Record<string, string>, options: { uid?: number; gid?: number } = {}) {
  const [command, args] = serverCommand();
  // The server's settings are left out; IAM_BETTER_SQLITE3 is not one: it names the SQLite driver
  // built for the Node.js the suite runs on (scripts/node-runtime.mjs).
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(IAM_(?!BETTER_SQLITE3$)|DATABASE_URL$|PORT$|HOST$)/.test(name)));
  const childEnv = { ...clean, IAM_LOG: '0', HOST: '127.0.0.1', PORT: String(await freePort()), IAM_ADMIN_PASSWORD: 'Start-failure-1', ...env };
  return promisify(command, args, childEnv, options);
}

function promisify(command: string, args: string[], env: NodeJS.ProcessEnv, options: { uid?: number; gid?: number }) {
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = execFile(command, args, { cwd: root, env, timeout: 60_000, ...options }, (error, _stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : child.exitCode) : 0, stderr });
    });
  });
}

/** One line, short, "Cannot start: …", naming `setting`. */
function assertOneLine(answer: { code: number | null; stderr: string }, setting: string, cause: RegExp) {
  assert.equal(answer.code, 1, answer.stderr.slice(0, 2000));
  const text = answer.stderr.trim();
  assert.equal(text.split('\n').length, 1, `one line:\n${text.slice(0, 2000)}`);
  assert.ok(text.length < 400, `short: ${text.length} characters`);
  assert.match(text, /^Cannot start: /);
  assert.ok(text.includes(setting), `names ${setting}: ${text}`);
  assert.match(text, cause);
}

describe(
  'a server that cannot start says why in one line',
  { skip: process.env.IAM_TEST_DB === 'postgres' && 'no database of the suite is used: the SQLite pass' },
  () => {
    test('PostgreSQL unreachable: its address and DATABASE_URL, never the password', async () => {
      const port = await freePort();
      const answer = await start({ DATABASE_URL: `postgres://iam:Sekrit-pw@127.0.0.1:${port}/iam` });
      assertOneLine(answer, 'DATABASE_URL', new RegExp(`127\\.0\\.0\\.1:${port}/iam.*ECONNREFUSED`));
      assert.doesNotMatch(answer.stderr, /Sekrit-pw/);
    });

    test('a data directory the server may not write: its path and IAM_DATA_DIR', async () => {
      const dir = mkdtempSync(join(work, 'read-only-'));
      chmodSync(dir, 0o555);
      const answer = await start({ IAM_DATA_DIR: dir }, asRoot ? { uid: 65534, gid: 65534 } : {});
      // The server creates the database file owner-only before SQLite opens it (server/db/connect.ts):
      // the refusal is the file system's (EACCES), or SQLite's on a file that exists.
      assertOneLine(answer, 'IAM_DATA_DIR', new RegExp(`${dir}.*(EACCES|SQLITE_CANTOPEN|SQLITE_READONLY)`));
    });

    test('a port in use: PORT', async () => {
      const answer = await start({ IAM_DATA_DIR: mkdtempSync(join(work, 'data-')), PORT: String(heldPort) });
      assertOneLine(answer, 'PORT', new RegExp(`port ${heldPort} on 127\\.0\\.0\\.1 is already in use`));
    });

    test('a database a newer server migrated (a downgrade): refused, naming the migrations it does not know', async () => {
      const data = mkdtempSync(join(work, 'data-'));
      const db = await openDatabase({ dataDir: data, databaseUrl: undefined });
      await sql`insert into kysely_migration (name, timestamp) values ('0999_from_a_newer_server', '2099-01-01T00:00:00.000Z')`.execute(db.kysely);
      await db.close();
      const answer = await start({ IAM_DATA_DIR: data });
      assertOneLine(answer, 'newer', /does not know \(0999_from_a_newer_server\).*restore the backup taken before the upgrade/);
    });

    test('a bad setting: the setting and what it takes', async () => {
      const data = mkdtempSync(join(work, 'data-'));
      assertOneLine(await start({ IAM_DATA_DIR: data, IAM_SHUTDOWN_GRACE_MS: 'ten seconds' }), 'IAM_SHUTDOWN_GRACE_MS', /milliseconds/);
      assertOneLine(await start({ IAM_DATA_DIR: data, PORT: 'http' }), 'PORT', /not a port number/);
    });
  },
);

describe(
  "a DATABASE_URL asking for TLS that PostgreSQL does not offer (libpq's sslmode=prefer is verify-full to node-postgres)",
  { skip: process.env.IAM_TEST_DB !== 'postgres' && 'the PostgreSQL pass: its cluster has no TLS' },
  () => {
    test('one line naming the sslmode to write', async () => {
      const url = new URL(process.env.IAM_TEST_DATABASE_URL!);
      // verify-full: node-postgres warns on stderr about prefer, require and verify-ca (its own words, not one line).
      url.searchParams.set('sslmode', 'verify-full');
      const answer = await start({ DATABASE_URL: url.href });
      assertOneLine(answer, 'sslmode=disable', /disagree on TLS \(The server does not support SSL connections\)/);
    });
  },
);
