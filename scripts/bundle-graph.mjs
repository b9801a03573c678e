// The built bundle (dist/) as a page pays for it, min+gzip (zlib level 9): an entry costs itself
// plus its static imports, recursively; dynamically imported chunks are paid later, each on its
// own (minus what the entry already loaded). One computation for the budget check
// (scripts/check-bundle.mjs) and the benchmark (bench/main.mjs).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseAst } from 'rollup/parseAst';

function jsFilesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsFilesUnder(path);
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

/** The bundle's module graph with each file's minified and min+gzip size. */
export function bundleGraph(distDir) {
  const dist = resolve(distDir);
  const modules = new Map();
  for (const file of jsFilesUnder(dist)) {
    const code = readFileSync(file, 'utf8');
    modules.set(file, { file, name: relative(dist, file), code, size: Buffer.byteLength(code), gzip: gzipSync(code, { level: 9 }).length, ...importsOf(file, code) });
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
    /** Each chunk the entry's first load imports dynamically, with what it adds. */
    lazyChunks(entry) {
      const first = staticClosure([join(dist, entry)]);
      const roots = new Set([...first].flatMap((file) => [...modules.get(file).dynamics]));
      return [...roots].map((root) => ({
        name: relative(dist, root),
        bytes: gzipOf([...staticClosure([root])].filter((file) => !first.has(file))),
      }));
    },
    /** The size of a set of files named relative to dist/ (e.g. the ones a browser fetched). */
    sizeOf(names) {
      const unknown = names.filter((name) => !modules.has(join(dist, name)));
      if (unknown.length) throw new Error(`not in ${distDir}: ${unknown.join(', ')}`);
      return gzipOf(new Set(names.map((name) => join(dist, name))));
    },
  };
}
