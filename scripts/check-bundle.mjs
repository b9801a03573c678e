// Checks the built bundle in dist/ (run by scripts/build.mjs after rollup; also runnable alone):
// 1. no CSS import and no <style> injection is left in the JavaScript (CSP `style-src 'self'`:
//    styles are adopted as one constructed stylesheet, see src/react/theme/sheet.ts);
// 2. every JavaScript file has its source map;
// 3. the size budgets of DESIGN.md, min+gzip (zlib level 9): what a page loads for an entry is
//    the entry plus its static imports, recursively; dynamic imports are loaded later and
//    measured on their own (only the files the entry has not already loaded).
// Prints the size of every entry and chunk; exits 1 when a check fails.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { bundleGraph } from './bundle-graph.mjs';

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

export function checkBundle(distDir = 'dist', srcDir = 'src') {
  if (!existsSync(distDir)) throw new Error(`${distDir}/ does not exist: run the build first`);
  const problems = checkSources(srcDir);
  const graph = bundleGraph(distDir);
  const kib = (bytes) => `${(bytes / KiB).toFixed(1)} KiB`;

  console.log('\nBundle (min / min+gzip):');
  for (const module of graph.modules()) {
    problems.push(...forbiddenIn(module.name, module.code));
    if (!existsSync(`${module.file}.map`)) problems.push(`${module.name}: no source map`);
    console.log(`  ${module.name.padEnd(44)} ${kib(module.size).padStart(10)} ${kib(module.gzip).padStart(10)}`);
  }

  console.log('\nBudgets (min+gzip of everything the page loads):');
  for (const budget of budgets) {
    if (!graph.has(budget.entry)) {
      console.log(`  ${budget.label}: ${budget.entry} not built, skipped`);
      continue;
    }
    const firstLoad = graph.firstLoad(budget.entry);
    const firstOk = firstLoad.bytes <= budget.firstLoad;
    console.log(`  ${firstOk ? 'ok  ' : 'OVER'} ${budget.label}: ${kib(firstLoad.bytes)} of ${kib(budget.firstLoad)} (${firstLoad.files} files)`);
    if (!firstOk) problems.push(`${budget.label}: ${kib(firstLoad.bytes)} exceeds ${kib(budget.firstLoad)}`);
    if (!budget.eachLazy) continue;
    for (const lazy of graph.lazyChunks(budget.entry)) {
      const ok = lazy.bytes <= budget.eachLazy;
      console.log(`    ${ok ? 'ok  ' : 'OVER'} lazy ${lazy.name}: ${kib(lazy.bytes)} of ${kib(budget.eachLazy)}`);
      if (!ok) problems.push(`lazy chunk ${lazy.name} of ${budget.entry}: ${kib(lazy.bytes)} exceeds ${kib(budget.eachLazy)}`);
    }
  }
  problems.push(...graph.missing().map((name) => `${name}: imported but missing from dist/`));
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
