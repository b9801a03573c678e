// Checks the built bundle in dist/ (run by scripts/build.mjs after rollup; also runnable alone):
// 1. no CSS import and no <style> injection is left in the JavaScript (CSP `style-src 'self'`:
//    styles are adopted as one constructed stylesheet, see src/react/theme/sheet.ts);
// 2. every JavaScript file has its source map;
// 3. the size budgets (docs/architecture.md), min+gzip (zlib level 9), computed by scripts/bundle-graph.mjs
//    (the benchmark uses the same functions): what a page loads for an entry is the entry plus its
//    static imports, recursively; the console's first visit adds the lazy chunks that signing in
//    and the home screen fire at once; every dynamic import, at any depth, is measured as what the
//    browser fetches when it fires (beyond the first load and the chain of chunks that led to it).
// Prints the size of every entry and chunk; exits 1 when a check fails.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { bundleGraph, chunkName } from './bundle-graph.mjs';

const KiB = 1024;

/**
 * The budgets. `entry`: a file of dist/ (a budget whose entry was not built is skipped, so the
 * table can name entries before they exist). `firstLoad`: limit of the entry and its static
 * imports, and, when `firstVisit` names chunks, of the entry plus those chunks (the lazy chunks a
 * first visit fires at once; bench/main.mjs checks the same figure against what Chromium fetched).
 * `eachLazy`: limit of every dynamic import of the entry's graph, at any depth. `keepHeadroom`: the
 * share of `firstLoad` the entry's own first load must leave free (so the next feature has room).
 */
export const budgets = [
  // The sign-in form itself; the rarely used steps (second factor, passkey, captcha, provider
  // linking, expired password, …) load when needed, and the texts are looked up without a
  // translation framework (src/core/i18n): 10% of the budget stays free.
  { label: '<iam-login> (login entry)', entry: 'login.js', firstLoad: 100 * KiB, keepHeadroom: 0.1 },
  {
    label: 'console (elements entry)',
    entry: 'elements.js',
    // The console namespace holds what the shell, the sign-in and the home screen show; texts of
    // other screens live in their screens' namespaces (the app's OIDC client texts in `admin`, the
    // authenticator app's in `account`: 140.1 → 139.2 KiB). The shell's valibot and field rules
    // stay: every form dialog needs them, and each dialog's lazy load is held to eachLazy.
    firstLoad: 140 * KiB,
    // Signed out at `/`: the sign-in screen and its texts; signed in: the home screen and the top
    // bar's account menu (the shell's own texts come with the sign-in ones). A wide screen: the
    // narrow screens' menu drawer is not loaded.
    firstVisit: ['LoginScreen', 'locale-en-common', 'locale-en-login', 'locale-en-console', 'HomeScreen', 'UserMenu'],
    // The first dialog opened also brings the modal-dialog code (Radix Dialog, ≈10 KiB) that the
    // shell no longer loads on wide screens.
    eachLazy: 35 * KiB,
  },
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
  /** What is left under a budget, in KiB and as a share of it (negative when over). */
  const headroom = (bytes, budget) => `headroom ${((budget - bytes) / KiB).toFixed(1)} KiB, ${(((budget - bytes) / budget) * 100).toFixed(1)}%`;

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
    const loads = [{ what: 'entry + static imports', ...graph.firstLoad(budget.entry) }];
    // A chunk of the first visit that is gone (renamed screen) is a problem to fix here, not a crash.
    try {
      if (budget.firstVisit) loads.push({ what: `first visit (+ ${budget.firstVisit.join(', ')})`, ...graph.firstVisit(budget.entry, budget.firstVisit) });
    } catch (error) {
      problems.push(`${budget.label}: ${error.message} (update firstVisit in scripts/check-bundle.mjs)`);
    }
    for (const load of loads) {
      const ok = load.bytes <= budget.firstLoad;
      console.log(
        `  ${ok ? 'ok  ' : 'OVER'} ${budget.label}, ${load.what}: ${kib(load.bytes)} of ${kib(budget.firstLoad)}, ${headroom(load.bytes, budget.firstLoad)} (${load.files} files)`,
      );
      if (!ok) problems.push(`${budget.label}, ${load.what}: ${kib(load.bytes)} exceeds ${kib(budget.firstLoad)}`);
    }
    const kept = budget.firstLoad * (1 - (budget.keepHeadroom ?? 0));
    if (loads[0].bytes <= budget.firstLoad && loads[0].bytes > kept) {
      problems.push(
        `${budget.label}: ${kib(loads[0].bytes)} leaves less than ${budget.keepHeadroom * 100}% of ${kib(budget.firstLoad)} free (at most ${kib(kept)})`,
      );
    }
    if (!budget.eachLazy) continue;
    console.log(`    lazy loads (what the browser fetches when the import fires, after the chain shown):`);
    for (const lazy of graph.lazyLoads(budget.entry)) {
      const ok = lazy.bytes <= budget.eachLazy;
      const name = [...lazy.via, lazy.name].map(chunkName).join(' > ');
      console.log(`    ${ok ? 'ok  ' : 'OVER'} ${name}: ${kib(lazy.bytes)} of ${kib(budget.eachLazy)}, ${headroom(lazy.bytes, budget.eachLazy)}`);
      if (!ok) problems.push(`lazy chunk ${name} of ${budget.entry}: ${kib(lazy.bytes)} exceeds ${kib(budget.eachLazy)}`);
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
