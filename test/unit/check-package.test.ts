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
