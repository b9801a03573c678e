// The Node.js versions the packages declare (`engines`) are ones their whole production tree
// declares too: for each LTS line a package accepts, its lowest accepted version satisfies the
// `engines.node` of every package a production install can bring (package-lock.json: every entry
// not marked dev). A dependency update that needs a newer Node (cookie@2, i18next@27) fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

const read = (path: string) => JSON.parse(readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8')) as Record<string, unknown>;
const lock = read('package-lock.json') as { packages: Record<string, { version?: string; dev?: boolean; engines?: { node?: string } | string[] }> };
const LTS_LINES = [20, 22, 24];

/** The lowest `major.minor.0` of `major` that `range` accepts, if any. */
function lowestOf(range: string, major: number): string | undefined {
  for (let minor = 0; minor <= 40; minor += 1) if (semver.satisfies(`${major}.${minor}.0`, range)) return `${major}.${minor}.0`;
  return undefined;
}

// The browser package runs in browsers (and is imported by a host's build tools): only the server
// package and the repository itself name Node.js versions.
for (const path of ['packages/server/package.json']) {
  test(`${path}: every LTS version its engines accept is accepted by the whole production tree`, () => {
    const range = (read(path).engines as { node?: string } | undefined)?.node ?? '*';
    const versions = LTS_LINES.map((major) => lowestOf(range, major)).filter((version) => version !== undefined);
    assert.ok(versions.length > 0, `${path} accepts no LTS line: ${range}`);
    const refused = Object.entries(lock.packages).flatMap(([name, entry]) => {
      const needs = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
      if (entry.dev || !name || !needs) return [];
      return versions.filter((version) => !semver.satisfies(version, needs)).map((version) => `${name}@${entry.version} needs ${needs}, refuses ${version}`);
    });
    assert.deepEqual(refused, [], `${path} declares ${range}`);
  });
}
