// The built bundle (dist/) as a page pays for it, min+gzip (zlib level 9): an entry costs itself
// plus its static imports, recursively; dynamically imported chunks are paid later, each on its
// own (minus what the entry already loaded). One computation for the budget check
// (scripts/check-bundle.mjs) and the benchmark (bench/main.mjs).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseAst } from 'rollup/parseAst';

/** The demo pages' own scripts (dist/demo/, scripts/demo-build.mjs) are no part of the bundle. */
const notBundle = new Set(['demo']);

function jsFilesUnder(dir, top = true) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return top && notBundle.has(name) ? [] : jsFilesUnder(path, false);
    return name.endsWith('.js') ? [path] : [];
  });
}

/** Relative modules `code` imports, statically and dynamically (absolute paths). */
function importsOf(file, code) {
  const statics = new Set();
  const dynamics = new Set();
  const visit = (node) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(visit);
    const source = node.source?.type === 'Literal' && typeof node.source.value === 'string' ? node.source.value : undefined;
    if (source?.startsWith('.')) {
      const target = resolve(dirname(file), source);
      if (node.type === 'ImportExpression') dynamics.add(target);
      else if (['ImportDeclaration', 'ExportNamedDeclaration', 'ExportAllDeclaration'].includes(node.type)) statics.add(target);
    }
    for (const value of Object.values(node)) if (value && typeof value === 'object') visit(value);
  };
  visit(parseAst(code));
  return { statics, dynamics };
}

/** A chunk's name without folder and hash, for tables: `chunks/UserDialog-D9WNEr2Z.js` → `UserDialog`. */
export const chunkName = (name) => name.replace(/^chunks\//, '').replace(/-[\w-]{8}\.js$/, '');

/** The bundle's module graph with each file's minified and min+gzip size. */
export function bundleGraph(distDir) {
  const dist = resolve(distDir);
  const modules = new Map();
  for (const file of jsFilesUnder(dist)) {
    const code = readFileSync(file, 'utf8');
    modules.set(file, {
      file,
      name: relative(dist, file),
      code,
      size: Buffer.byteLength(code),
      gzip: gzipSync(code, { level: 9 }).length,
      ...importsOf(file, code),
    });
  }
  const missing = new Set();
  const staticClosure = (roots) => {
    const seen = new Set();
    const stack = [...roots];
    while (stack.length) {
      const file = stack.pop();
      if (seen.has(file)) continue;
      if (!modules.has(file)) {
        missing.add(relative(dist, file));
        continue;
      }
      seen.add(file);
      stack.push(...modules.get(file).statics);
    }
    return seen;
  };
  const gzipOf = (files) => [...files].reduce((sum, file) => sum + (modules.get(file)?.gzip ?? 0), 0);
  return {
    /** Every JavaScript file of dist/: `{ file, name, code, size, gzip }`, by name. */
    modules: () => [...modules.values()].sort((a, b) => a.name.localeCompare(b.name)),
    /** Files some walked graph imports but dist/ lacks. */
    missing: () => [...missing],
    has: (name) => modules.has(join(dist, name)),
    /** What importing `entry` loads at once: bytes and files. */
    firstLoad(entry) {
      const files = staticClosure([join(dist, entry)]);
      return { bytes: gzipOf(files), files: files.size };
    },
    /**
     * What the entry plus the chunks a first visit fires at once (named by `firstVisit`, chunk
     * names without their hash, e.g. `HomeScreen` or `locale-en-console`) load: bytes and files.
     */
    firstVisit(entry, firstVisit) {
      const first = staticClosure([join(dist, entry)]);
      const roots = firstVisit.map((chunk) => {
        const matches = [...modules.keys()].filter((file) => relative(dist, file).startsWith('chunks/') && chunkName(relative(dist, file)) === chunk);
        if (matches.length !== 1) throw new Error(`first visit of ${entry}: ${matches.length} chunks named ${chunk} in ${distDir}`);
        return matches[0];
      });
      const files = staticClosure([...first, ...roots]);
      return { bytes: gzipOf(files), files: files.size, names: [...files].map((file) => relative(dist, file)).sort() };
    },
    /**
     * Every dynamic import the entry's graph can fire, at any depth, with the bytes the browser
     * fetches when it fires: the target and its static imports minus what is already loaded, i.e.
     * the entry's first load plus the chain of dynamic imports that loaded the importer. A target
     * reached through several chains is reported once, with the chain that costs most.
     * `{ name, via: [chunk names of the chain], bytes }`, largest first.
     */
    lazyLoads(entry) {
      const worst = new Map();
      const walk = (loaded, added, chain) => {
        const targets = new Set([...added].flatMap((file) => [...(modules.get(file)?.dynamics ?? [])]));
        for (const target of targets) {
          if (chain.includes(target) || loaded.has(target)) continue;
          const closure = staticClosure([target]);
          const fetched = new Set([...closure].filter((file) => !loaded.has(file)));
          const bytes = gzipOf(fetched);
          const known = worst.get(target);
          if (!known || bytes > known.bytes) worst.set(target, { name: relative(dist, target), via: chain.map((file) => relative(dist, file)), bytes });
          walk(new Set([...loaded, ...fetched]), fetched, [...chain, target]);
        }
      };
      const first = staticClosure([join(dist, entry)]);
      walk(first, first, []);
      return [...worst.values()].sort((a, b) => b.bytes - a.bytes || a.name.localeCompare(b.name));
    },
    /** The size of a set of files named relative to dist/ (e.g. the ones a browser fetched). */
    sizeOf(names) {
      const unknown = names.filter((name) => !modules.has(join(dist, name)));
      if (unknown.length) throw new Error(`not in ${distDir}: ${unknown.join(', ')}`);
      return gzipOf(new Set(names.map((name) => join(dist, name))));
    },
  };
}
