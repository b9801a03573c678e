// package-lock.json as `npm ci` on a clean clone needs it: every optional dependency a locked
// package names (rollup's and esbuild's native builds for each platform) has its own entry, or
// npm ci on another platform than the one that wrote the lockfile cannot install it; and both
// workspace packages are locked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

interface LockedPackage {
  version?: string;
  optionalDependencies?: Record<string, string>;
  link?: boolean;
}
const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as { packages: Record<string, LockedPackage> };

/** Where npm finds `name` from the package at `path`: its own node_modules, then each parent's. */
function locate(path: string, name: string): string | undefined {
  for (let from = path; ; from = from.slice(0, from.lastIndexOf('/node_modules/'))) {
    const at = from ? `${from}/node_modules/${name}` : `node_modules/${name}`;
    if (lock.packages[at]) return at;
    if (!from.includes('/node_modules/')) return lock.packages[`node_modules/${name}`] ? `node_modules/${name}` : undefined;
  }
}

test('every optional dependency of a locked package is itself in the lockfile', () => {
  const missing = Object.entries(lock.packages).flatMap(([path, locked]) =>
    Object.keys(locked.optionalDependencies ?? {})
      .filter((name) => !locate(path, name))
      .map((name) => `${path} → ${name}`),
  );
  assert.deepEqual(missing, []);
  for (const platform of ['linux-x64-gnu', 'linux-arm64-gnu', 'darwin-arm64', 'win32-x64-msvc']) {
    assert.ok(lock.packages[`node_modules/@rollup/rollup-${platform}`], `rollup's ${platform} build`);
  }
});

test('the two workspace packages are locked and linked', () => {
  const workspaces = { 'iam-console': 'packages/iam-console', 'iam-console-server': 'packages/server' };
  for (const [name, folder] of Object.entries(workspaces)) {
    assert.ok(lock.packages[folder], folder);
    assert.equal(lock.packages[`node_modules/${name}`]?.link, true, name);
  }
});
