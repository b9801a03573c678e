// The published typings (tsconfig.types.json) are emitted from sources that import without file
// extensions, as a bundler resolves them. A host whose TypeScript resolves like Node
// (`moduleResolution: node16` or `nodenext`, the package being `"type": "module"`) needs the full
// path of every relative import: `./x` becomes `./x.js` or `./x/index.js`, whichever file the
// typings hold. The typed text keys (src/core/i18n/resources.ts) import the English texts as
// JSON, which a host could only read with `resolveJsonModule`: the typings get a declaration of
// each file's shape instead (`./locales/en/login.json` becomes `./locales/en/login.js`).
// test/hosts/react-host.test.ts checks a host under each resolution.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const relativeImport = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.\.?\/[^'"]*)\2/g;

/** The specifier with its extension, for an import in `file`; unchanged when it has one. */
function withExtension(file, specifier) {
  if (specifier.endsWith('.js')) return specifier;
  const base = specifier.replace(/\.json$/, '');
  const target = join(dirname(file), base);
  if (existsSync(`${target}.d.ts`)) return `${base}.js`;
  if (existsSync(join(target, 'index.d.ts'))) return `${base}/index.js`;
  throw new Error(`${file}: no typings for ${specifier}`);
}

/** The type of a texts file: its keys, every text a string. */
function shapeOf(value, indent = '') {
  if (typeof value === 'string') return 'string';
  const inner = `${indent}  `;
  const members = Object.entries(value).map(([key, child]) => `${inner}${JSON.stringify(key)}: ${shapeOf(child, inner)};`);
  return `{\n${members.join('\n')}\n${indent}}`;
}

/** A `<name>.d.ts` in `destination` for every `<name>.json` of `folder`. */
export function declareTexts(folder, destination) {
  mkdirSync(destination, { recursive: true });
  for (const name of readdirSync(folder).filter((file) => file.endsWith('.json'))) {
    const texts = JSON.parse(readFileSync(join(folder, name), 'utf8'));
    writeFileSync(join(destination, name.replace(/\.json$/, '.d.ts')), `declare const texts: ${shapeOf(texts)};\nexport default texts;\n`);
  }
}

/** Rewrites every .d.ts under `folder`; answers how many files changed. */
export function addTypingExtensions(folder) {
  let changed = 0;
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
    const file = join(entry.parentPath, entry.name);
    const text = readFileSync(file, 'utf8');
    const rewritten = text.replace(relativeImport, (_, keyword, quote, specifier) => `${keyword}${quote}${withExtension(file, specifier)}${quote}`);
    if (rewritten !== text) {
      writeFileSync(file, rewritten);
      changed += 1;
    }
  }
  return changed;
}

/**
 * Deletes every .d.ts under `folder` that no entry reaches through its imports. tsc declares each
 * module the entries import at run time (the typed call contract, the schemas behind it), though
 * the public types name only some of them; a host never reads the rest.
 */
export function pruneUnreachableTypings(folder, entries) {
  const reached = new Set();
  const pending = entries.map((entry) => join(folder, entry));
  while (pending.length > 0) {
    const file = pending.pop();
    if (reached.has(file)) continue;
    reached.add(file);
    for (const [, , , specifier] of readFileSync(file, 'utf8').matchAll(relativeImport)) {
      pending.push(join(dirname(file), specifier.replace(/\.js$/, '.d.ts')));
    }
  }
  let removed = 0;
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    const file = join(entry.parentPath, entry.name);
    if (!entry.isFile() || !entry.name.endsWith('.d.ts') || reached.has(file)) continue;
    rmSync(file);
    removed += 1;
  }
  return removed;
}
