// The Node.js versions the packages declare (`engines`) are ones their whole production tree
// declares too: for each LTS line a package accepts, its lowest accepted version satisfies the
// `engines.node` of every package a production install can bring (package-lock.json: every entry
// not marked dev). A dependency update that needs a newer Node (cookie@2, i18next@27) fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

const read = (path: string) => JSON.parse(readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8')) as Record<string, unknown>;
type LockEntry = {
  name?: string;
  version?: string;
  dev?: boolean;
  optional?: boolean;
  engines?: { node?: string } | string[];
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
};
const lock = read('package-lock.json') as { packages: Record<string, LockEntry> };
const LTS_LINES = [20, 22, 24, 26];
/** Loaded with `--import`: the process says it runs on Node.js 18.20.0, which the engines refuse. */
const pretend18 =
  "data:text/javascript,Object.defineProperty(process.versions,'node',{value:'18.20.0'});Object.defineProperty(process,'version',{value:'v18.20.0'})";

/** The lowest `major.minor.0` of `major` that `range` accepts, if any. */
function lowestOf(range: string, major: number): string | undefined {
  for (let minor = 0; minor <= 40; minor += 1) if (semver.satisfies(`${major}.${minor}.0`, range)) return `${major}.${minor}.0`;
  return undefined;
}

/**
 * What npm installs for `range` that refuses one of its versions: production entries only unless
 * `dev`. An optional entry is left out: npm skips it on a Node.js its engines refuse (the SQLite
 * driver for Node.js 22, better-sqlite3-node22, is skipped on 20).
 */
function refusals(range: string, { dev }: { dev: boolean }): string[] {
  const versions = LTS_LINES.map((major) => lowestOf(range, major)).filter((version) => version !== undefined);
  assert.ok(versions.length > 0, `accepts no LTS line: ${range}`);
  return Object.entries(lock.packages).flatMap(([name, entry]) => {
    const needs = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
    if ((entry.dev && !dev) || entry.optional || !name || !needs) return [];
    return versions.filter((version) => !semver.satisfies(version, needs)).map((version) => `${name}@${entry.version} needs ${needs}, refuses ${version}`);
  });
}

// The browser package runs in browsers (and is imported by a host's build tools): only the server
// package and the repository itself name Node.js versions.
test('packages/server/package.json: every LTS version its engines accept is accepted by the whole production tree', () => {
  const range = (read('packages/server/package.json').engines as { node: string }).node;
  assert.deepEqual(refusals(range, { dev: false }), [], `packages/server declares ${range}`);
});

test('package.json (the repository, dev tools included): every LTS version its engines accept is accepted by the whole tree', () => {
  const range = (read('package.json').engines as { node: string }).node;
  assert.deepEqual(refusals(range, { dev: true }), [], `package.json declares ${range}`);
});

// better-sqlite3 12 is the SQLite driver for Node.js 20 only (server/db/sqlite-driver.ts); where its
// build cannot be downloaded it compiles for minutes. npm decides an optional dependency by that
// package's own engines, and 12's accept 20 to 26: it comes through iam-console-sqlite-node20
// (packages/sqlite-node20), whose engines accept Node.js 20 only, so that npm neither installs nor
// builds it on 22 and later.
test('npm installs better-sqlite3 12 on Node.js 20 only, and better-sqlite3 13 on 22 and later only', () => {
  const engines = (entry: LockEntry | undefined) => (entry?.engines && !Array.isArray(entry.engines) ? entry.engines.node : undefined) ?? '*';
  const twelve = lock.packages['node_modules/better-sqlite3'];
  assert.equal(twelve?.version?.split('.')[0], '12');
  const through = Object.entries(lock.packages).filter(([, entry]) => entry.dependencies?.['better-sqlite3'] ?? entry.optionalDependencies?.['better-sqlite3']);
  assert.deepEqual(
    through.map(([path]) => path),
    ['packages/sqlite-node20'],
    'only the Node.js 20 wrapper brings better-sqlite3 12',
  );
  const wrapper = through[0]![1];
  assert.equal(wrapper.optional, true);
  for (const version of ['22.13.0', '24.0.0', '26.0.0']) assert.ok(!semver.satisfies(version, engines(wrapper)), `the wrapper refuses ${version}`);
  assert.ok(semver.satisfies('20.19.0', engines(wrapper)));
  const thirteen = lock.packages['node_modules/better-sqlite3-node22'];
  assert.equal(thirteen?.optional, true);
  assert.ok(!semver.satisfies('20.19.0', engines(thirteen)));
  for (const version of ['22.13.0', '24.0.0', '26.0.0']) assert.ok(semver.satisfies(version, engines(thirteen)), `better-sqlite3 13 accepts ${version}`);
});

/**
 * npm's own script (npm-cli.js), found through the `npm` on PATH without running it: that `npm` runs
 * on the Node.js first on PATH, which may not be this one (scripts/node-runtime.mjs).
 */
function npmCliPath(): string {
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    const found = join(folder, 'npm');
    if (existsSync(found)) return realpathSync(found);
  }
  throw new Error('npm is not on PATH');
}

test("on a Node.js the engines refuse, npm install stops with npm's EBADENGINE naming the supported versions (.npmrc engine-strict)", () => {
  // The repository's .npmrc and engines in a folder of their own (npm refuses before it resolves
  // anything, so the dependencies are left out), npm run on a Node.js that says it is 18.
  const folder = mkdtempSync(join(tmpdir(), 'iam-engines-'));
  try {
    const { engines } = read('package.json') as { engines: { node: string } };
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'iam-console-workspace', version: '0.1.0', private: true, engines }));
    copyFileSync(fileURLToPath(new URL('../../.npmrc', import.meta.url)), join(folder, '.npmrc'));
    const npmCli = npmCliPath();
    const run = spawnSync(process.execPath, ['--import', pretend18, npmCli, 'install', '--offline', '--no-audit', '--no-fund'], {
      cwd: folder,
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.notEqual(run.status, 0, run.stderr);
    assert.match(run.stderr, /npm error code EBADENGINE/);
    assert.ok(run.stderr.includes(`Required: {"node":"${engines.node}"}`), run.stderr);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('on a Node.js the engines refuse, npm start and npm test stop with one line naming the supported versions', () => {
  for (const [script, command] of [
    ['scripts/start.mjs', 'npm start'],
    ['scripts/test.mjs', 'npm test'],
  ] as const) {
    const run = spawnSync(process.execPath, ['--import', pretend18, fileURLToPath(new URL(`../../${script}`, import.meta.url))], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(run.status, 1, run.stderr);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, new RegExp(`^${command} needs Node\\.js \\^20\\.19\\.0, \\^22\\.13\\.0, >=24; this is v18\\.20\\.0\\. .+\\n$`));
  }
});

test('in a clean clone on a Node.js the engines refuse (npm install stopped, no node_modules), npm start and npm test say the same', () => {
  // The scripts and package.json in a folder of their own, run as npm runs them (npm_execpath): the
  // check takes semver from that npm.
  const folder = mkdtempSync(join(tmpdir(), 'iam-clean-clone-'));
  try {
    // The whole scripts folder: what start.mjs and test.mjs import before their check is theirs to choose.
    cpSync(fileURLToPath(new URL('../../scripts', import.meta.url)), join(folder, 'scripts'), { recursive: true });
    for (const path of ['package.json', 'packages/server/package.json']) {
      mkdirSync(dirname(join(folder, path)), { recursive: true });
      copyFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), join(folder, path));
    }
    for (const [script, command] of [
      ['scripts/start.mjs', 'npm start'],
      ['scripts/test.mjs', 'npm test'],
    ] as const) {
      const run = spawnSync(process.execPath, ['--import', pretend18, join(folder, script)], {
        encoding: 'utf8',
        timeout: 30_000,
        env: { ...process.env, npm_execpath: npmCliPath() },
      });
      assert.equal(run.status, 1, run.stderr);
      assert.match(run.stderr, new RegExp(`^${command} needs Node\\.js \\^20\\.19\\.0, \\^22\\.13\\.0, >=24; this is v18\\.20\\.0\\. .+\\n$`));
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
