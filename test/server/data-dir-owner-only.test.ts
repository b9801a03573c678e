// The SQLite data directory holds everything a backup holds (the OpenID signing keys, password
// hashes, webhook secrets, sessions): a backup is written owner-only (mode 0600, docs/deployment.md),
// so the live files are too (server/db/connect.ts). Started under the usual umask 022 on a data
// directory it creates (as `npm start` does), the server once left the directory 755 and
// iam.sqlite(-wal, -shm) 644, readable by every local account. Always on SQLite (its own data
// directory), whichever engine the suite runs on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../server/app';
import { ADMIN } from './harness';

const modeOf = (path: string) => statSync(path).mode & 0o777;

/** The database files of `dataDir` that a group or other account may use, with their modes. */
const looseDatabaseFiles = (dataDir: string) =>
  readdirSync(dataDir)
    .filter((file) => file.startsWith('iam.sqlite') && modeOf(join(dataDir, file)) & 0o077)
    .map((file) => `${file} ${modeOf(join(dataDir, file)).toString(8)}`);

/** Runs `check` on a server started on `dataDir` under umask 022, then stops it. */
async function whileRunning(dataDir: string, check: () => void): Promise<void> {
  const before = process.umask(0o022);
  try {
    const app = await buildApp({ dataDir, adminUsername: ADMIN.username, adminPassword: ADMIN.password });
    try {
      check();
    } finally {
      await app.close();
    }
  } finally {
    process.umask(before);
  }
}

test('the SQLite data directory and its database files are readable by their owner only, also files an earlier run left open to others', async () => {
  const parent = mkdtempSync(join(tmpdir(), 'iam-perm-'));
  const dataDir = join(parent, 'data');
  try {
    await whileRunning(dataDir, () => {
      assert.equal(modeOf(dataDir).toString(8), '700', 'the data directory it created');
      assert.ok(readdirSync(dataDir).includes('iam.sqlite-wal'), 'the database runs in WAL mode');
      assert.deepEqual(looseDatabaseFiles(dataDir), [], 'database files others may read');
    });
    // As an older version (or a copy under another umask) left it: the restart narrows the file.
    chmodSync(join(dataDir, 'iam.sqlite'), 0o644);
    await whileRunning(dataDir, () => {
      assert.deepEqual(looseDatabaseFiles(dataDir), [], 'database files others may read after a restart');
    });
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});
