// The Node.js versions the packages declare (`engines`) are ones their whole production tree
// declares too: for each LTS line a package accepts, its lowest accepted version satisfies the
// `engines.node` of every package a production install can bring (package-lock.json: every entry
// not marked dev). A dependency update that needs a newer Node (cookie@2, i18next@27) fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

const read = (path: string) => JSON.parse(readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8')) as Record<string, unknown>;
const lock = read('package-lock.json') as {
  packages: Record<string, { version?: string; dev?: boolean; optional?: boolean; engines?: { node?: string } | string[] }>;
};
const LTS_LINES = [20, 22, 24];

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

test('on a Node.js the engines refuse, npm start and npm test stop with one line naming the supported versions', () => {
  const old =
    "data:text/javascript,Object.defineProperty(process.versions,'node',{value:'18.20.0'});Object.defineProperty(process,'version',{value:'v18.20.0'})";
  for (const [script, command] of [
    ['scripts/start.mjs', 'npm start'],
    ['scripts/test.mjs', 'npm test'],
  ] as const) {
    const run = spawnSync(process.execPath, ['--import', old, fileURLToPath(new URL(`../../${script}`, import.meta.url))], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(run.status, 1, run.stderr);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, new RegExp(`^${command} needs Node\\.js \\^20\\.19\\.0, \\^22\\.13\\.0, >=24; this is v18\\.20\\.0\\. .+\\n$`));
  }
});
