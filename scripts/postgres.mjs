// A throwaway PostgreSQL cluster for tests: Debian's `postgresql` binaries, a temp data dir owned
// by the `postgres` user (initdb refuses root), trust auth on 127.0.0.1 and a free port.
// Installs Debian's package when it is missing and this process is root with apt-get.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readdirSync, chmodSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function binDir() {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const version = versions.find((v) => existsSync(join(root, v, 'bin', 'initdb')));
  return version ? join(root, version, 'bin') : undefined;
}

function ensureInstalled() {
  const dir = binDir();
  if (dir) return dir;
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    throw new Error('PostgreSQL is missing. Install it with:  sudo apt-get install -y postgresql');
  }
  console.log("PostgreSQL not found: installing Debian's postgresql with apt-get …");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', 'postgresql'], { stdio: 'inherit', env });
  const installed = binDir();
  if (!installed) throw new Error('apt-get installed postgresql but no initdb was found');
  return installed;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** As root, a PostgreSQL binary runs as the `postgres` user; otherwise as ourselves. */
function pgCommand(bin, args) {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
}

function runPg(bin, args) {
  const [command, commandArgs] = pgCommand(bin, args);
  execFileSync(command, commandArgs, { stdio: ['ignore', 'ignore', 'inherit'], cwd: tmpdir() });
}

/** runPg without blocking the event loop (a test keeps serving requests meanwhile). */
async function runPgAsync(bin, args) {
  const [command, commandArgs] = pgCommand(bin, args);
  await promisify(execFile)(command, commandArgs, { cwd: tmpdir() });
}

/**
 * Starts a cluster; resolves to { url, stop, restart } where url reaches the `iam` superuser's
 * database. restart(downMs) is `pg_ctl stop -m fast` (every session is terminated), a pause of
 * downMs with no server, then a start on the same data and port (fault tests).
 */
export async function startPostgres() {
  const bin = ensureInstalled();
  const dir = mkdtempSync(join(tmpdir(), 'iam-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres', dir]);
  runPg(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'iam', '--no-sync']);
  const startArgs = ['-D', data, '-l', join(dir, 'log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, '-w', 'start'];
  runPg(join(bin, 'pg_ctl'), startArgs);
  const url = `postgres://iam@127.0.0.1:${port}/postgres`;
  return {
    url,
    async stop() {
      try {
        runPg(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    async restart(downMs = 0) {
      await runPgAsync(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await runPgAsync(join(bin, 'pg_ctl'), startArgs);
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const pg = await startPostgres();
  console.log(pg.url);
  await pg.stop();
  console.log('stopped');
}
