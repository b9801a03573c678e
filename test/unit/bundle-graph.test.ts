// scripts/bundle-graph.mjs over a small hand-written dist/: first load, first visit and the lazy
// loads at every depth (what the browser fetches when an import fires, given what it has).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { bundleGraph, chunkName } from '../../scripts/bundle-graph.mjs';

/** Each file gets distinct filler so that its min+gzip size is its own. */
const files: Record<string, string> = {
  'entry.js': `import './chunks/shared-AAAAAAAA.js'; export const load = () => import('./chunks/Screen-BBBBBBBB.js');`,
  'chunks/shared-AAAAAAAA.js': `export const shared = ${JSON.stringify('s'.repeat(50))};`,
  'chunks/Screen-BBBBBBBB.js': `import './chunks/shared-AAAAAAAA.js'; import './forms-CCCCCCCC.js'; export const open = () => import('./Dialog-DDDDDDDD.js');`,
  'chunks/forms-CCCCCCCC.js': `export const forms = ${JSON.stringify('f'.repeat(80))};`,
  'chunks/Dialog-DDDDDDDD.js': `import './forms-CCCCCCCC.js'; import './big-EEEEEEEE.js'; export const back = () => import('./Screen-BBBBBBBB.js');`,
  'chunks/big-EEEEEEEE.js': `export const big = ${JSON.stringify('b'.repeat(120))};`,
  'demo/host.js': `export const notBundle = true;`,
};

function withDist(run: (dist: string, gzip: (name: string) => number) => void) {
  const dist = mkdtempSync(join(tmpdir(), 'bundle-graph-'));
  try {
    for (const [name, code] of Object.entries(files)) {
      mkdirSync(join(dist, name, '..'), { recursive: true });
      writeFileSync(join(dist, name), code);
    }
    run(dist, (name) => gzipSync(files[name] ?? '', { level: 9 }).length);
  } finally {
    rmSync(dist, { recursive: true, force: true });
  }
}

test('first load: the entry and its static imports', () => {
  withDist((dist, gzip) => {
    const load = bundleGraph(dist).firstLoad('entry.js');
    assert.deepEqual(load, { bytes: gzip('entry.js') + gzip('chunks/shared-AAAAAAAA.js'), files: 2 });
  });
});

test('lazy loads: a nested import counts only what the entry and its chain have not loaded', () => {
  withDist((dist, gzip) => {
    const loads = bundleGraph(dist).lazyLoads('entry.js');
    // Screen → Dialog → Screen is a cycle: the screen is not counted again inside its own chain.
    assert.deepEqual(loads.map(({ name, via }) => [name, via]).sort(), [
      ['chunks/Dialog-DDDDDDDD.js', ['chunks/Screen-BBBBBBBB.js']],
      ['chunks/Screen-BBBBBBBB.js', []],
    ]);
    const byName = Object.fromEntries(loads.map((load) => [load.name, load.bytes]));
    // The screen brings the shared form chunk, so the dialog adds only itself and `big`.
    assert.equal(byName['chunks/Screen-BBBBBBBB.js'], gzip('chunks/Screen-BBBBBBBB.js') + gzip('chunks/forms-CCCCCCCC.js'));
    assert.equal(byName['chunks/Dialog-DDDDDDDD.js'], gzip('chunks/Dialog-DDDDDDDD.js') + gzip('chunks/big-EEEEEEEE.js'));
    assert.deepEqual(
      loads.map((load) => load.bytes),
      Object.values(byName).sort((a, b) => b - a),
      'largest first',
    );
  });
});

test('first visit: the entry plus the named chunks and their static imports; an unknown name fails', () => {
  withDist((dist, gzip) => {
    const graph = bundleGraph(dist);
    const visit = graph.firstVisit('entry.js', ['Screen']);
    assert.deepEqual(visit.names, ['chunks/Screen-BBBBBBBB.js', 'chunks/forms-CCCCCCCC.js', 'chunks/shared-AAAAAAAA.js', 'entry.js']);
    assert.equal(
      visit.bytes,
      ['entry.js', 'chunks/shared-AAAAAAAA.js', 'chunks/Screen-BBBBBBBB.js', 'chunks/forms-CCCCCCCC.js'].reduce((sum, name) => sum + gzip(name), 0),
    );
    assert.throws(() => graph.firstVisit('entry.js', ['Missing']), /0 chunks named Missing/);
  });
});

test('the demo pages are no part of the bundle; chunk names lose folder and hash', () => {
  withDist((dist) => {
    assert.equal(bundleGraph(dist).has('demo/host.js'), false);
    assert.equal(chunkName('chunks/UserDialog-D9WNEr2Z.js'), 'UserDialog');
  });
});
