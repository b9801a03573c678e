// The published packages (packages/*) hold manifests, not code: the code they ship is the root's
// (src/, server/), which declares what it imports in the root package.json, where knip checks it
// (knip.json). So each dependency a package declares is one the root declares, with the same range:
// a dependency the code stops importing (knip reports it) leaves both lists, and an update of one
// range cannot leave the published package on another.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

type Manifest = { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
const read = (path: string) => JSON.parse(readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8')) as Manifest;
const root = read('package.json');
const declaredAtRoot = { ...root.devDependencies, ...root.dependencies };

for (const name of ['iam-console', 'server']) {
  test(`packages/${name}/package.json declares only dependencies the root declares, with the same ranges`, () => {
    const published = read(`packages/${name}/package.json`).dependencies ?? {};
    assert.ok(Object.keys(published).length > 0, 'the package declares dependencies');
    const differing = Object.entries(published)
      .filter(([dependency, range]) => declaredAtRoot[dependency] !== range)
      .map(([dependency, range]) => `${dependency}@${range} (root: ${declaredAtRoot[dependency] ?? 'not declared'})`);
    assert.deepEqual(differing, []);
  });
}
