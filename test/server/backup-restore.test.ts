// `iam-console-server backup <file>` on a running server under writes (SQLite): the file is readable
// by its owner only, and a server started on it (the restore of docs/deployment.md, "Backups") lets
// the administrator sign in, keeps the sessions that existed, publishes the same OIDC signing key
// and holds every write acknowledged before the backup began. On PostgreSQL the command refuses
// in one line and names pg_dump, and the documented pg_dump -Fc / pg_restore does the same.
// A restore is the database as it was at the backup, credentials included (docs/deployment.md,
// "What a restore brings back"): a session ended and a SCIM token revoked after the backup work
// again on the restored copy until they are revoked again, as the page tells the operator to.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ADMIN, Client, createTestDatabase, transform, type TestDatabase } from './harness';
import { serverCommand, spawnServer, type ChildServer } from './crash-process';
import { createToken, rootTenantId, scimClient } from './scim-support';

/** Debian's PostgreSQL client programs (the newest installed version). */
function postgresBin(): string {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  return join('/usr/lib/postgresql', versions[0]!, 'bin');
}

const onPostgres = process.env.IAM_TEST_DB === 'postgres';
const root = fileURLToPath(new URL('../..', import.meta.url));
const WRITERS = 3;

let database: TestDatabase;
let server: ChildServer;
const work = mkdtempSync(join(tmpdir(), 'iam-backup-'));

before(async () => {
  database = await createTestDatabase();
  server = await spawnServer(database);
});
after(async () => {
  await server?.stop();
  await database?.drop();
  rmSync(work, { recursive: true, force: true });
});

/** Runs the server's backup command as an operator would, with the server's settings. */
async function backup(file: string) {
  const [command, args] = serverCommand();
  const env: NodeJS.ProcessEnv = { ...process.env, IAM_LOG: '0' };
  delete env.DATABASE_URL;
  delete env.IAM_DATA_DIR;
  if (database.options.databaseUrl) env.DATABASE_URL = database.options.databaseUrl;
  else env.IAM_DATA_DIR = database.options.dataDir;
  return promisify(execFile)(command, [...args, 'backup', file], { cwd: root, env, timeout: 60_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

const jwks = async (base: string) => (await fetch(`${base}/api/oidc/jwks`)).json();

const signedInAdmin = async (base: string) => {
  const admin = new Client(base, base);
  assert.equal((await admin.login(ADMIN.username, ADMIN.password)).body.data?.loginSuccess, true);
  return admin;
};
const scimStatus = async (base: string, secret: string) => (await scimClient(base, secret)('GET', '/Users?count=1')).status;

/** Signs in, records the signing key, and runs `takeBackup` while three clients create users; then
 *  ends a session and revokes a SCIM token that the backup holds live. Resolves to what the restored
 *  copy must hold. */
async function backupUnderWrites(takeBackup: () => Promise<void>) {
  const admin = await signedInAdmin(server.base);
  const keys = await jwks(server.base);
  const laptop = await signedInAdmin(server.base);
  const laptopSession = (await laptop.get<{ id: string; current: boolean }[]>('/api/cas/sessions')).body.data.find((row) => row.current)!.id;
  const scim = await createToken(admin, await rootTenantId(admin));
  const acknowledged: string[] = [];
  let writing = true;
  const writer = async (index: number) => {
    for (let n = 0; writing; n += 1) {
      const username = `backup-${index}-${n}`;
      const made = await admin.post('/api/user', { username, realName: 'Backup_Test', password: transform('Secret123') });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      acknowledged.push(username);
    }
  };
  const writers = Array.from({ length: WRITERS }, (_, index) => writer(index));
  while (acknowledged.length < 6) await new Promise((resolve) => setTimeout(resolve, 20));
  const before = [...acknowledged];
  try {
    await takeBackup();
  } finally {
    writing = false;
    await Promise.all(writers);
  }
  // Revoked after the backup: on the running server they stop working.
  assert.equal((await admin.delete(`/api/cas/sessions/${laptopSession}`)).status, 200);
  assert.equal((await admin.delete(`/api/scim-tokens/${scim.token.id}`)).status, 200);
  assert.equal((await laptop.get('/api/cas/session')).status, 401);
  assert.equal(await scimStatus(server.base, scim.secret), 401);
  return { keys, cookies: admin.cookies, before, revokedSince: { laptop: { cookies: laptop.cookies, session: laptopSession }, scim } };
}

/** A server on the restored database: the same signing key, the old session, a fresh sign-in, every write acknowledged before the backup. */
async function assertRestored(restored: TestDatabase, expected: Awaited<ReturnType<typeof backupUnderWrites>>) {
  const started = await spawnServer(restored);
  try {
    assert.deepEqual(await jwks(started.base), expected.keys, 'the same OIDC signing key');
    const session = Object.assign(new Client(started.base, started.base), { cookies: expected.cookies });
    const me = await session.get<{ user: { username: string } }>('/api/cas/session');
    assert.equal(me.status, 200, 'the session made before the backup works');
    assert.equal(me.body.data.user.username, ADMIN.username);
    const fresh = new Client(started.base, started.base);
    assert.equal((await fresh.login(ADMIN.username, ADMIN.password)).body.data?.loginSuccess, true);
    const missing: string[] = [];
    for (const username of expected.before) {
      // The search is by prefix: backup-0-1 also finds backup-0-10 and after.
      const found = await fresh.get<{ list: { username: string }[] }>(`/api/user?searchProp=username&searchValue=${username}&size=100`);
      if (!found.body.data.list.some((user) => user.username === username)) missing.push(username);
    }
    assert.deepEqual(missing, [], `every write acknowledged before the backup (${expected.before.length}, the last ${expected.before.at(-1)}) is in it`);

    // What docs/deployment.md says of a restore: credentials revoked after the backup work again
    // (the copy is the database as it was), until the operator revokes them again.
    const { laptop, scim } = expected.revokedSince;
    const laptopAgain = Object.assign(new Client(started.base, started.base), { cookies: laptop.cookies });
    assert.equal((await laptopAgain.get('/api/cas/session')).status, 200, 'the session ended after the backup is live on the restored copy');
    assert.equal(await scimStatus(started.base, scim.secret), 200, 'the SCIM token revoked after the backup is live on the restored copy');
    assert.equal((await fresh.delete(`/api/cas/sessions/${laptop.session}`)).status, 200);
    assert.equal((await fresh.delete(`/api/scim-tokens/${scim.token.id}`)).status, 200);
    assert.equal((await laptopAgain.get('/api/cas/session')).status, 401, 'ended again');
    assert.equal(await scimStatus(started.base, scim.secret), 401, 'revoked again');
  } finally {
    await started.stop();
  }
}

test(
  'a backup taken under writes restores: sign-in, the same sessions and signing key, every write acknowledged before it',
  { skip: onPostgres && 'SQLite: the PostgreSQL pass restores pg_dump' },
  async () => {
    const file = join(work, 'iam-backup.sqlite');
    const expected = await backupUnderWrites(async () => {
      const made = await backup(file);
      assert.equal(made.code, 0, made.stderr);
      assert.match(made.stdout, /^Backup written to .*iam-backup\.sqlite/);
    });
    assert.equal(statSync(file).mode & 0o777, 0o600, 'readable by its owner only');
    assert.notEqual((await backup(file)).code, 0, 'an existing file is not overwritten');
    // The restore: the file as iam.sqlite of a fresh data directory, a server started on it.
    const restoredDir = mkdtempSync(join(work, 'restored-'));
    copyFileSync(file, join(restoredDir, 'iam.sqlite'));
    await assertRestored({ options: { dataDir: restoredDir }, drop: async () => {} }, expected);
  },
);

test(
  'PostgreSQL: the documented pg_dump -Fc under writes and pg_restore into an empty database restore the same',
  { skip: !onPostgres && 'the PostgreSQL pass' },
  async () => {
    const bin = postgresBin();
    const url = database.options.databaseUrl!;
    const file = join(work, 'iam.dump');
    const expected = await backupUnderWrites(async () => {
      await promisify(execFile)('sh', ['-c', 'umask 077 && "$0" -Fc --no-owner -d "$1" -f "$2"', join(bin, 'pg_dump'), url, file]);
    });
    assert.equal(statSync(file).mode & 0o777, 0o600, 'readable by its owner only (umask 077)');
    const restored = await createTestDatabase({ empty: true });
    try {
      await promisify(execFile)(join(bin, 'pg_restore'), ['--no-owner', '-d', restored.options.databaseUrl!, file]);
      await assertRestored(restored, expected);
    } finally {
      await restored.drop();
    }
  },
);

test('the backup command refuses a PostgreSQL database in one line naming pg_dump', { skip: !onPostgres && 'the PostgreSQL pass' }, async () => {
  const made = await backup(join(work, 'refused.sqlite'));
  assert.equal(made.code, 1);
  assert.equal(made.stderr.trim().split('\n').length, 1, made.stderr);
  assert.match(made.stderr, /DATABASE_URL is set; back up PostgreSQL with pg_dump -Fc/);
});
