// Another Node.js for the test suites (scripts/test.mjs): `node@<major>` from the npm registry (the
// `node` package installs the official binary), kept in node_modules/.cache, with the
// better-sqlite3 that runs on it. The installed better-sqlite3 (12.x, what Node.js 20 needs) is
// built against one Node.js version and, rebuilt for Node.js 24.19 and later, aborts the process
// when a statement is collected (Node's ObjectWrap change); better-sqlite3 13 uses Node-API, ships
// its builds in the package and runs on Node.js 22 and 24, but not on 20. The first run downloads
// both (seconds); later runs reuse them.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The better-sqlite3 for Node.js 22 and later. */
export const sqliteForNewerNode = 'better-sqlite3@^13.0.3';

/**
 * Node.js `major` ready to run the suites: answers its binary, its version, and the environment
 * that makes it load the better-sqlite3 installed beside it (scripts/sqlite-for-runtime.mjs).
 */
export function nodeRuntime(major) {
  const runtime = join(root, 'node_modules/.cache', `iam-node-${major}`);
  const node = join(runtime, 'node_modules/node/bin/node');
  const sqlite = join(runtime, 'node_modules/better-sqlite3/lib/index.js');
  if (!existsSync(node) || !existsSync(sqlite)) {
    execFileSync('npm', ['install', '--prefix', runtime, '--no-save', '--no-audit', '--no-fund', '--prefer-offline', `node@${major}`, sqliteForNewerNode], {
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
