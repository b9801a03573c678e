// Checks the built bundle in dist/ (run by scripts/build.mjs after rollup; also runnable alone):
// 1. no CSS import and no <style> injection is left in the JavaScript (CSP `style-src 'self'`:
//    styles are adopted as one constructed stylesheet, see src/react/theme/sheet.ts);
// 2. every JavaScript file has its source map;
// 3. the size budgets of DESIGN.md, min+gzip (zlib level 9): what a page loads for an entry is
//    the entry plus its static imports, recursively; dynamic imports are loaded later and
//    measured on their own (only the files the entry has not already loaded).
// Prints the size of every entry and chunk; exits 1 when a check fails.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseAst } from 'rollup/parseAst';

const KiB = 1024;

/**
 * The budgets. `entry`: a file of dist/ (a budget whose entry was not built is skipped, so the
 * table can name entries before they exist). `firstLoad`: limit of the entry and its static
 * imports. `eachLazy`: limit of each chunk the entry's graph imports dynamically (with its own
 * static imports, minus what the entry already loaded).
 */
const budgets = [
  { label: '<iam-login> (login entry)', entry: 'login.js', firstLoad: 85 * KiB },
  { label: 'console (elements entry)', entry: 'elements.js', firstLoad: 140 * KiB, eachLazy: 25 * KiB },
];

/**
 * Patterns that must not occur in shipped JavaScript. React's own resource hoisting creates a
 * <style> only when a component renders `<style href precedence>`; `allow` recognises that
 * dormant code by the attribute it writes, and checkSources() makes sure no component does.
 */
const forbidden = [
  { pattern: /\.vanilla\.css/g, why: 'a vanilla-extract CSS import survived the build' },
  { pattern: /\bimport\s*["'`][^"'`]+\.css["'`]/g, why: 'a CSS import survived the build' },
  {
    pattern: /createElement(?:NS)?\([^)]*["'`]style["'`]\s*\)/g,
    why: 'a <style> element is created',
    allow: (code, index) => code.slice(Math.max(0, index - 400), index).includes('"data-precedence"'),
  },
  { pattern: /<style[\s>]/gi, why: '<style> markup is injected' },
];

/** Sources must not render or build <style> (JSX compiles to calls the dist patterns miss). */
const forbiddenInSources = /<style[\s>]|createElement(?:NS)?\([^)]*["'`]style["'`]/;

function filesUnder(dir, pattern) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path, pattern);
    return pattern.test(name) ? [path] : [];
  });
}

/** Good enough for this check: a `//` inside a string only hides the rest of its line. */
const withoutComments = (code) => code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');

function checkSources(srcDir) {
  if (!existsSync(srcDir)) return [];
  return filesUnder(srcDir, /\.tsx?$/)
    .filter((file) => forbiddenInSources.test(withoutComments(readFileSync(file, 'utf8'))))
    .map((file) => `${file}: renders or creates a <style> element`);
}

function forbiddenIn(name, code) {
  return forbidden.flatMap(({ pattern, why, allow }) =>
    [...code.matchAll(pattern)].filter((match) => !allow?.(code, match.index)).map(() => `${name}: ${why} (${pattern.source})`),
  );
}

/** Relative specifiers a module imports, statically and dynamically. */
function importsOf(file, code) {
  const statics = new Set();
  const dynamics = new Set();
  const visit = (node) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(visit);
    const literal = node.source?.type === 'Literal' && typeof node.source.value === 'string' ? node.source.value : undefined;
    if (literal?.startsWith('.')) {
      const target = resolve(dirname(file), literal);
      if (node.type === 'ImportExpression') dynamics.add(target);
      else if (['ImportDeclaration', 'ExportNamedDeclaration', 'ExportAllDeclaration'].includes(node.type)) statics.add(target);
    }
    for (const value of Object.values(node)) if (value && typeof value === 'object') visit(value);
  };
  visit(parseAst(code));
  return { statics, dynamics };
}

export function checkBundle(distDir = 'dist', srcDir = 'src') {
  const dist = resolve(distDir);
  if (!existsSync(dist)) throw new Error(`${distDir}/ does not exist: run the build first`);
  const problems = checkSources(srcDir);
  const modules = new Map();
  for (const file of filesUnder(dist, /\.js$/)) {
    const code = readFileSync(file, 'utf8');
    const name = relative(dist, file);
    problems.push(...forbiddenIn(name, code));
    if (!existsSync(`${file}.map`)) problems.push(`${name}: no source map`);
    modules.set(file, { name, size: Buffer.byteLength(code), gzip: gzipSync(code, { level: 9 }).length, ...importsOf(file, code) });
  }

  const staticGraph = (roots) => {
    const seen = new Set();
    const stack = [...roots];
    while (stack.length) {
      const file = stack.pop();
      if (seen.has(file)) continue;
      const module = modules.get(file);
      if (!module) {
        problems.push(`${relative(dist, file)}: imported but missing from dist/`);
        continue;
      }
      seen.add(file);
      stack.push(...module.statics);
    }
    return seen;
  };
  const gzipOf = (files) => [...files].reduce((sum, file) => sum + modules.get(file).gzip, 0);
  const kib = (bytes) => `${(bytes / KiB).toFixed(1)} KiB`;

  console.log('\nBundle (min / min+gzip):');
  for (const module of [...modules.values()].sort((a, b) => a.name.localeCompare(b.name))) {
    console.log(`  ${module.name.padEnd(44)} ${kib(module.size).padStart(10)} ${kib(module.gzip).padStart(10)}`);
  }

  console.log('\nBudgets (min+gzip of everything the page loads):');
  for (const budget of budgets) {
    const entry = join(dist, budget.entry);
    if (!modules.has(entry)) {
      console.log(`  ${budget.label}: ${budget.entry} not built, skipped`);
      continue;
    }
    const firstLoad = staticGraph([entry]);
    const firstSize = gzipOf(firstLoad);
    const firstOk = firstSize <= budget.firstLoad;
    console.log(`  ${firstOk ? 'ok  ' : 'OVER'} ${budget.label}: ${kib(firstSize)} of ${kib(budget.firstLoad)} (${firstLoad.size} files)`);
    if (!firstOk) problems.push(`${budget.label}: ${kib(firstSize)} exceeds ${kib(budget.firstLoad)}`);
    if (!budget.eachLazy) continue;
    const lazyRoots = new Set([...firstLoad].flatMap((file) => [...modules.get(file).dynamics]));
    for (const lazy of lazyRoots) {
      const added = [...staticGraph([lazy])].filter((file) => !firstLoad.has(file));
      const size = gzipOf(added);
      const ok = size <= budget.eachLazy;
      console.log(`    ${ok ? 'ok  ' : 'OVER'} lazy ${relative(dist, lazy)}: ${kib(size)} of ${kib(budget.eachLazy)}`);
      if (!ok) problems.push(`lazy chunk ${relative(dist, lazy)} of ${budget.entry}: ${kib(size)} exceeds ${kib(budget.eachLazy)}`);
    }
  }
  return problems;
}

/** Runs the checks, prints the verdict, and answers whether the bundle passed. */
export function reportBundle(distDir = 'dist') {
  const problems = checkBundle(distDir);
  if (problems.length) {
    console.error(`\nBundle check failed:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    return false;
  }
  console.log('\nBundle check passed.');
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(reportBundle(process.argv[2]) ? 0 : 1);
