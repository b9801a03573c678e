// Another Node.js for the test suites (scripts/test.mjs): `node@<major>` from the npm registry (the
// `node` package installs the official binary), kept in node_modules/.cache, with the SQLite driver
// that runs on it. node_modules was installed by this Node.js, so it may lack that driver
// (better-sqlite3 13, `better-sqlite3-node22` in packages/server, which npm skips on Node.js 20:
// server/db/sqlite-driver.ts): it is installed beside that Node.js. The first run downloads both
// (seconds); later runs reuse them.
import { existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The better-sqlite3 for Node.js 22 and later, as packages/server declares it. */
const serverManifest = JSON.parse(readFileSync(join(root, 'packages/server/package.json'), 'utf8'));
export const sqliteForNewerNode = serverManifest.optionalDependencies['better-sqlite3-node22'].replace(/^npm:/, '');

/**
 * Node.js `major` ready to run the suites: answers its binary, its version, and the environment
 * that makes it load the better-sqlite3 installed beside it (scripts/sqlite-for-runtime.mjs), for
 * it and the Node.js processes it starts (a Node.js 20 among them ignores it).
 */
export function nodeRuntime(major) {
  const runtime = join(root, 'node_modules/.cache', `iam-node-${major}`);
  const node = join(runtime, 'node_modules/node/bin/node');
  const sqlite = join(runtime, 'node_modules/better-sqlite3/lib/index.js');
  if (!existsSync(node) || !existsSync(sqlite)) {
    // Not engine-strict (the repository's .npmrc is): these packages are for Node.js `major`, not
    // for the Node.js running npm here (better-sqlite3 13 needs 22, and this may be 20).
    const install = ['install', '--prefix', runtime, '--no-save', '--no-audit', '--no-fund', '--prefer-offline', '--engine-strict=false'];
    execFileSync('npm', [...install, `node@${major}`, sqliteForNewerNode], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  }
  const hook = join(root, 'scripts/sqlite-for-runtime.mjs');
  return {
    node,
    version: execFileSync(node, ['--version'], { encoding: 'utf8' }).trim(),
    env: { IAM_BETTER_SQLITE3: sqlite, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${hook}`.trim() },
  };
}
