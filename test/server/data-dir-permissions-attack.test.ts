// The SQLite data directory holds everything a backup holds (the OpenID signing keys, password
// hashes, webhook secrets, sessions): a backup is written owner-only (mode 0600, docs/deployment.md),
// so the live files must be too. Started under the usual umask 022 on a data directory it creates
// (as `npm start` does), the server leaves the directory and iam.sqlite(-wal) readable by every
// local account. Always on SQLite (its own data directory), whichever engine the suite runs on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../server/app';
import { ADMIN } from './harness';

test('the SQLite data directory and its database files are readable by their owner only', async () => {
  const parent = mkdtempSync(join(tmpdir(), 'iam-perm-'));
  const dataDir = join(parent, 'data');
  const before = process.umask(0o022);
  try {
    const app = await buildApp({ dataDir, adminUsername: ADMIN.username, adminPassword: ADMIN.password });
    try {
      const loose: string[] = [];
      const modeOf = (path: string) => statSync(path).mode & 0o777;
      const dirMode = modeOf(dataDir);
      for (const name of readdirSync(dataDir).filter((file) => file.startsWith('iam.sqlite'))) {
        const mode = modeOf(join(dataDir, name));
        if (mode & 0o077) loose.push(`${name} ${mode.toString(8)}`);
      }
      // Either the directory keeps others out, or every database file does.
      assert.ok(!(dirMode & 0o077) || loose.length === 0, `data directory ${dirMode.toString(8)}, database files others may read: ${loose.join(', ')}`);
    } finally {
      await app.close();
    }
  } finally {
    process.umask(before);
    rmSync(parent, { recursive: true, force: true });
  }
});
