// Another Node.js for the test suites (scripts/test.mjs): `node@<major>` from the npm registry
// (the `node` package, which installs the official binary and its C headers), kept in
// node_modules/.cache, and a copy of better-sqlite3 compiled against it with npm's node-gyp (the
// installed one is built for the Node.js that ran `npm install`). The first run takes minutes
// (download and compile); later runs reuse both.
import { cpSync, existsSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function run(command, args, cwd) {
  execFileSync(command, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
}

/** npm's own node-gyp (npm ships it for packages like better-sqlite3). */
function nodeGyp() {
  const npmCli = realpathSync(process.env.npm_execpath || execFileSync('which', ['npm'], { encoding: 'utf8' }).trim());
  return join(dirname(npmCli), '../node_modules/node-gyp/bin/node-gyp.js');
}

/**
 * Node.js `major` ready to run the suites: answers its binary and the environment that makes it
 * load the better-sqlite3 built for it.
 */
export function nodeRuntime(major) {
  const cache = join(root, 'node_modules/.cache', `iam-node-${major}`);
  const runtime = join(cache, 'runtime');
  const node = join(runtime, 'node_modules/node/bin/node');
  if (!existsSync(node)) run('npm', ['install', '--prefix', runtime, '--no-save', '--no-audit', '--no-fund', '--prefer-offline', `node@${major}`], root);
  const headers = readdirSync(join(runtime, 'node_modules/node/node_modules'))
    .map((name) => join(runtime, 'node_modules/node/node_modules', name))
    .find((folder) => existsSync(join(folder, 'include/node/node.h')));
  if (!headers) throw new Error(`node@${major} came without its C headers`);

  const installed = join(root, 'node_modules/better-sqlite3');
  const copy = join(cache, 'node_modules/better-sqlite3');
  const versionOf = (folder) => JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).version;
  const built = join(copy, 'build/Release/better_sqlite3.node');
  if (!existsSync(built) || versionOf(copy) !== versionOf(installed)) {
    rmSync(copy, { recursive: true, force: true });
    cpSync(installed, copy, { recursive: true, filter: (path) => path !== join(installed, 'build') });
    console.log(`Compiling better-sqlite3 for Node.js ${major} (once) …`);
    run(node, [nodeGyp(), 'rebuild', '--release', `--nodedir=${headers}`, '-j', '2'], copy);
  }
  const hook = join(root, 'scripts/sqlite-for-runtime.mjs');
  return {
    node,
    env: { IAM_BETTER_SQLITE3: join(copy, 'lib/index.js'), NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${hook}`.trim() },
  };
}
