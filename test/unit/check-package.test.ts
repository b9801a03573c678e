// Packing a package before it is built stops (its prepack, scripts/check-package.mjs) and names what
// is missing, instead of shipping exports that point at no code and no typings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = join(root, 'scripts/check-package.mjs');
const manifestOf = (name: string) => readFileSync(join(root, 'packages', name, 'package.json'), 'utf8');

for (const name of ['iam-console', 'server']) {
  test(`packages/${name}: packing it unbuilt fails with what is missing and the command that builds it; built, it passes`, () => {
    const manifest = JSON.parse(manifestOf(name)) as { name: string; scripts?: Record<string, string> };
    assert.equal(manifest.scripts?.prepack, 'node ../../scripts/check-package.mjs', 'npm pack runs the check');
    const folder = mkdtempSync(join(tmpdir(), 'iam-prepack-'));
    try {
      writeFileSync(join(folder, 'package.json'), manifestOf(name));
      const unbuilt = spawnSync(process.execPath, [script], { cwd: folder, encoding: 'utf8' });
      assert.equal(unbuilt.status, 1, unbuilt.stderr);
      assert.match(unbuilt.stderr, new RegExp(`^${manifest.name} is not built: .*missing\\. Run  npm run build  at the repository root`));
      if (name === 'iam-console') assert.match(unbuilt.stderr, /dist\/types\/core\/index\.d\.ts/, 'the typings are named');
      else assert.match(unbuilt.stderr, /dist-server\/main\.js/, 'the command is named');
      // Every named file in place: the check passes (what a build stages).
      const named = unbuilt.stderr.replace(/^.*is not built: (.*) missing\..*$/s, '$1').split(', ');
      for (const path of named) {
        const target = join(folder, path);
        if (/\.\w+$/.test(path)) {
          mkdirSync(dirname(target), { recursive: true });
          writeFileSync(target, '');
        } else mkdirSync(target, { recursive: true });
      }
      const built = spawnSync(process.execPath, [script], { cwd: folder, encoding: 'utf8' });
      assert.equal(built.status, 0, built.stderr);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
}

// The packages are released together under one version; the server names its SQLite driver for
// Node.js 20 (packages/sqlite-node20) by that exact version, so a server installed from the registry
// gets the driver of its own release.
test('a package out of step with the others (its version, or the version it names of a sibling) is not packed', () => {
  const versions = ['iam-console', 'server', 'sqlite-node20'].map((name) => {
    const manifest = JSON.parse(manifestOf(name)) as { version: string; scripts?: Record<string, string> };
    assert.equal(manifest.scripts?.prepack, 'node ../../scripts/check-package.mjs', `packages/${name}: npm pack runs the check`);
    return manifest.version;
  });
  assert.equal(new Set(versions).size, 1, `one version: ${versions.join(', ')}`);
  const server = JSON.parse(manifestOf('server')) as { version: string; optionalDependencies: Record<string, string> };
  assert.equal(server.optionalDependencies['iam-console-sqlite-node20'], server.version);
  const packOf = (manifest: object) => {
    const folder = mkdtempSync(join(tmpdir(), 'iam-prepack-'));
    try {
      writeFileSync(join(folder, 'package.json'), JSON.stringify({ ...manifest, files: [], bin: undefined }));
      return spawnSync(process.execPath, [script], { cwd: folder, encoding: 'utf8' });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  };
  assert.equal(packOf(server).status, 0, 'in step, it packs');
  const otherPin = packOf({ ...server, optionalDependencies: { ...server.optionalDependencies, 'iam-console-sqlite-node20': '^0.0.9' } });
  assert.equal(otherPin.status, 1);
  assert.match(
    otherPin.stderr,
    new RegExp(
      `^iam-console-server is out of step with the packages released beside it: optionalDependencies names iam-console-sqlite-node20@\\^0\\.0\\.9, not its version ${server.version}\\.`,
    ),
  );
  const otherVersion = packOf({ ...server, version: '9.9.9' });
  assert.equal(otherVersion.status, 1);
  assert.match(otherVersion.stderr, /its version 9\.9\.9 is not iam-console's .* Give packages\/\* one version\./);
});
