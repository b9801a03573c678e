// `npm test`: every check of the project, then a table of each suite's result and wall time, then
// one summary line `N passed, N failed`; each node suite also prints its slowest files with their wall
// times (scripts/file-times-reporter.mjs).
// Usage: node scripts/test.mjs [suite …]   suites: typecheck lint format unit server runtime browser
// e2e hosts (no argument runs all); `runtime` runs the unit tests on Node.js 24 and a few files
// (`signInFiles`) on 22 and 26 (`otherNodeMajors`), `runtime@26` on that one alone. Node suites use the node:test runner through tsx; the
// browser suite uses web-test-runner against the built bundle; e2e drives Debian's Chromium with
// playwright-core; hosts packs the packages and builds fresh Vite host projects on them (test/hosts).
//
// The machine has two cores and one node:test file keeps about one busy, so the node suites run
// two files at once (every file starts its own server on a free port over its own temp dir or
// PostgreSQL database), except the files that measure time or load the machine (`alone`), which
// run one at a time after the others; the build and the static checks run two at a time too. The
// server files run in two processes that each run their share one after another
// (scripts/test-files-together.mjs): a process of its own cost each file 2.5-4 s of CPU to load the
// server through tsx before its first test; the `alone` files, after them, share a process of
// their own likewise (one file at a time: nothing runs beside it). The e2e and host files run two
// at once, the longest first (`slowFirst`) so that no long file runs on alone at the end: each
// starts its own server (free port, temp data dir); the host files
// each their own Chromium and pack into and install in temp folders of their own. The e2e files run
// like the server files, in two processes that each run their share one after another (e2eTests),
// and each process keeps one Chromium for its files (every file's pages in contexts of its own): a
// process and a Chromium of its own cost each file 4-6 s of CPU before its first test. Not three at
// once: on a quiet machine an e2e file keeps about a core busy while it runs (its server, its Chromium
// and the test process together), so two files already fill both cores.
//
// The server suite runs on SQLite on Node.js 24 (`sqliteNodeMajor`), then again on PostgreSQL on
// Node.js 22 (`postgresNodeMajor`), except the files in `sqliteOnly`; so every server file runs on
// two Node.js lines without running twice on one engine, and a few (`sqliteOnThisNode`) run on
// SQLite on this Node.js (20, the lowest supported, which the host suite's compiled server runs on;
// the e2e suite's runs on 24) too, for its own SQLite driver. The
// rule for that list: a file may run on one engine only when everything it checks is decided before
// or beside the database — HTTP parsing and headers, the CSRF and Origin gates, redirects, static
// files, logs, the KDF, translations, documents compared with the running server — and it reads or
// writes nothing whose answer could depend on the engine. A file that touches SQL differences stays
// on both: queries, transactions, locks, migrations, search, pagination, imports, the audit log,
// counters and concurrency, hostile input that reaches a column (fuzzing), and any file not listed.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync, readFileSync, mkdtempSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { findChromium } from './chromium.mjs';
import { nodeRuntime } from './node-runtime.mjs';
import { requireSupportedNode } from './node-version.mjs';
import { startPostgres } from './postgres.mjs';
import { otherNodeMajors, postgresNodeMajor, signInOnlyNodeMajors, sqliteNodeMajor } from './test-node-lines.mjs';
import { ensureSystemPackages } from './system-packages.mjs';

requireSupportedNode('npm test');

/**
 * Server files that also run on SQLite on this Node.js, whose SQLite driver (better-sqlite3 12) the
 * SQLite pass on `sqliteNodeMajor` does not load: a sign-in, the file locked by another process
 * (busy timeout, 503) and the online backup (VACUUM INTO).
 */
const sqliteOnThisNode = ['smoke', 'fault-sqlite', 'backup-restore'].map((name) => `test/server/${name}.test.ts`);

/** What the `runtime` suite runs on Node.js 24: the unit tests (seconds); the server files run there in the server suite. */
const runtimeFiles = ['test/unit'];

/**
 * On Node.js 22 (where the PostgreSQL pass runs every server file) and 26 (`signInOnlyNodeMajors`),
 * in seconds: a sign-in on SQLite (the SQLite driver for Node.js 22 and later, Argon2, the session)
 * and the engines check (npm and the one message on an unsupported Node.js, run by this line).
 */
const signInFiles = ['test/unit/engines.test.ts', 'test/server/smoke.test.ts'];

/**
 * Server files that run in the SQLite pass only (the rule is in this file's header); each with why
 * its outcome cannot depend on the database engine.
 */
const sqliteOnly = new Set(
  [
    ['answer-check', 'the response-schema check on answers, in the HTTP layer'],
    ['bundle-serving', 'static files of the build, compression and cache headers'],
    ['client-paths', "the client's source against the OpenAPI document"],
    ['csrf', 'the Origin/Referer gate refuses before any handler runs'],
    ['data-dir-owner-only', 'file modes of the SQLite data directory (nothing on PostgreSQL)'],
    ['fault-sqlite', 'the SQLite file locked by another process'],
    ['invisible-characters', 'input validation refuses before the database'],
    ['logging', 'the log lines and what they leave out'],
    ['messages-language', 'the translation of messages'],
    ['oidc-cors', "CORS preflights answered from the apps' redirect origins"],
    ['outbound-allow-list', 'the outbound address guard, a setting checked at start'],
    ['outsider-headers', 'forged Origin, Host and X-Forwarded-* refused at the CSRF gate'],
    ['perf-kdf', 'the KDF concurrency cap'],
    ['requests-without-host', "Node's and Fastify's answer to a request without Host"],
    ['request-hygiene', 'issuer, proxy headers and the redirect gate'],
    [
      'saml-samlify-service-provider-attack',
      "samlify's messages, signatures and bindings (the SAML storage runs on both engines in saml-sign-in and saml-single-logout)",
    ],
    ['security-headers', 'headers on every kind of answer'],
    ['sso-discovery-docs', 'docs/sso.md against the discovery document'],
    ['svg-paint-bounds', 'the SVG sanitiser'],
  ].map(([name]) => `test/server/${name}.test.ts`),
);

/**
 * Files that run one at a time after the others: they time answers against each other, count
 * resources, hold locks or processes for seconds, or load the machine on purpose.
 */
const alone = new Set(
  [
    'enumeration',
    'auth',
    'load',
    'perf-kdf',
    'perf-search',
    'perf-session',
    'perf-statements',
    'outsider-bursts',
    'concurrency-two-processes',
    'crash-kill9',
    'fault-sqlite',
    'fault-postgres',
    'timeouts-postgres',
    'rolling-restart-nginx',
    'backup-restore',
    'start-failures',
  ].map((name) => `test/server/${name}.test.ts`),
);

/**
 * The e2e and host files that took longest in CI, longest first (their wall times in the last CI
 * run beside them, in seconds). The e2e and host suites start them first and then the others,
 * largest file first: a long file started last would run on alone at the end while the other place
 * stays idle (the host files in name order ran the 87 s React host after the 18 s package check,
 * beside the 97 s document hosts: 128 s where 118 s do). A new slow file belongs here; a stale entry
 * only costs a little of that balance.
 */
const slowFirstSeconds = new Map(
  [
    ['e2e/a11y-screens', 93],
    ['e2e/keyboard-first-week', 83],
    ['e2e/sso-idp', 76],
    ['e2e/passkeys', 71],
    ['e2e/elements-demos', 60],
    ['e2e/settings-login', 56],
    ['e2e/a11y-focus', 49],
    ['e2e/sign-in-flows', 46],
    ['e2e/feedback-messages', 46],
    ['e2e/xss', 45],
    ['hosts/document-hydrating-hosts', 88],
    ['hosts/react-host', 86],
    ['hosts/svelte-host', 60],
    ['hosts/vue-host', 45],
    ['hosts/package', 39],
  ].map(([name, seconds]) => [`test/${name}.test.ts`, seconds]),
);
const slowFirst = [...slowFirstSeconds.keys()];

/** Node test files run at once within a suite (see above). */
const concurrency = { unit: 2, server: 2, e2e: 2, hosts: 2 };

const allSuites = ['typecheck', 'lint', 'format', 'unit', 'server', 'runtime', 'browser', 'e2e', 'hosts'];
const wanted = process.argv.slice(2).length ? process.argv.slice(2) : allSuites;
// A renamed or removed file must leave these lists too (else it would silently run with the others, or not at all).
const listedMissing = [...runtimeFiles, ...signInFiles, ...sqliteOnThisNode, ...alone, ...sqliteOnly, ...slowFirst].filter((path) => !existsSync(path));
if (listedMissing.length) {
  console.error(`scripts/test.mjs names files that do not exist: ${listedMissing.join(', ')}`);
  process.exit(1);
}
const results = [];

function run(command, args, env = {}, { quiet = false } = {}) {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => {
      output += d;
      if (!quiet) process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      output += d;
      if (!quiet) process.stderr.write(d);
    });
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

function filesUnder(path, pattern = /\.test\.(ts|mjs|js)$/) {
  if (statSync(path, { throwIfNoEntry: false })?.isFile()) return [path];
  let entries;
  try {
    entries = readdirSync(path);
  } catch {
    return [];
  }
  return entries
    .flatMap((name) => {
      const child = join(path, name);
      if (statSync(child).isDirectory()) return filesUnder(child, pattern);
      return pattern.test(name) ? [child] : [];
    })
    .sort();
}

/** Records a suite's result; `failures` name what failed (files, tests), repeated at the end of the
 *  output so that the tail of a CI log says it. */
function count(name, passed, failed, started, failures = []) {
  const seconds = (performance.now() - started) / 1000;
  results.push({ name, passed, failed, seconds, failures });
  console.log(`\n[${name}] ${passed} passed, ${failed} failed (${seconds.toFixed(0)} s)\n`);
}

/** A check that is pass/fail as a whole (typecheck, lint, build); `quiet` prints its output once it ends. */
async function check(name, command, args, { quiet = false } = {}) {
  const started = performance.now();
  if (!quiet) console.log(`\n=== ${name}: ${command} ${args.join(' ')}`);
  const { code, output } = await run(command, args, {}, { quiet });
  if (quiet) console.log(`\n=== ${name}: ${command} ${args.join(' ')}\n${output}`);
  count(name, code === 0 ? 1 : 0, code === 0 ? 0 : 1, started);
  return code === 0;
}

/** Runs `tasks` (functions answering promises) at most `limit` at once. */
async function atMost(limit, tasks) {
  const queue = [...tasks];
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (queue.length) await queue.shift()();
    }),
  );
}

const fileTimesReporter = fileURLToPath(new URL('./file-times-reporter.mjs', import.meta.url));
const testFilesTogether = fileURLToPath(new URL('./test-files-together.mjs', import.meta.url));

/**
 * node:test files at `concurrency` at once, on `node` (by default this Node.js), each in a process of
 * its own, or with `together` all in this one process, one after another
 * (scripts/test-files-together.mjs): passed and failed, from a TAP copy of the run, and each file's
 * wall time and outcome (scripts/file-times-reporter.mjs).
 */
async function nodeRun(files, { env = {}, node = process.execPath, concurrency = 1, quiet = false, together = false } = {}) {
  const folder = mkdtempSync(join(tmpdir(), 'iam-test-'));
  const tap = join(folder, 'report.tap');
  const times = join(folder, 'file-times.jsonl');
  const { code, output } = await run(
    node,
    [
      '--import',
      'tsx',
      ...(together ? [] : ['--test', `--test-concurrency=${concurrency}`]),
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      `--test-reporter=${fileTimesReporter}`,
      `--test-reporter-destination=${times}`,
      ...(together ? [testFilesTogether] : []),
      ...files,
    ],
    env,
    { quiet },
  );
  const report = existsSync(tap) ? readFileSync(tap, 'utf8') : '';
  const passed = Number(/^# pass (\d+)/m.exec(report)?.[1] ?? 0);
  const failed = Number(/^# fail (\d+)/m.exec(report)?.[1] ?? 0) + Number(/^# cancelled (\d+)/m.exec(report)?.[1] ?? 0);
  const fileTimes = existsSync(times)
    ? readFileSync(times, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];
  return { passed, failed: failed || (code === 0 ? 0 : 1), fileTimes, output };
}

/**
 * The files `concurrency` at once in the order given, each in a node:test run of its own (node:test
 * sorts the files it is given by name), its output printed when it ends; the results summed.
 */
async function nodeRunInOrder(files, { env, node, concurrency }) {
  const sum = { passed: 0, failed: 0, fileTimes: [] };
  await atMost(
    concurrency,
    files.map((file) => async () => {
      const result = await nodeRun([file], { env, node, quiet: true });
      process.stdout.write(result.output);
      sum.passed += result.passed;
      sum.failed += result.failed;
      sum.fileTimes.push(...result.fileTimes);
    }),
  );
  return sum;
}

/**
 * `files` split into `count` lists of about the same `weight` (by default the size in bytes: the
 * server files' sizes follow their times), each in name order or, with `inOrder`, longest first.
 */
function balanced(files, count, { weight = (file) => statSync(file).size, inOrder = false } = {}) {
  const shards = Array.from({ length: count }, () => ({ files: [], weight: 0 }));
  for (const file of [...files].sort((a, b) => weight(b) - weight(a))) {
    const lightest = shards.reduce((min, shard) => (shard.weight < min.weight ? shard : min));
    lightest.files.push(file);
    lightest.weight += weight(file);
  }
  return shards.map((shard) => (inOrder ? shard.files : shard.files.sort())).filter((shard) => shard.length);
}

/**
 * The files in `processes` processes, each running its share one after another (nodeRun's
 * `together`), its output printed when it ends; the results summed. A process that ends before all its
 * files did (a crash, an exit) counts as one failure naming the file it ended in, and its unfinished
 * files run again, each in a process of its own.
 */
async function nodeRunTogether(files, { env, node, processes, weight, inOrder }) {
  const sum = { passed: 0, failed: 0, fileTimes: [] };
  const add = (result) => {
    process.stdout.write(result.output);
    sum.passed += result.passed;
    sum.failed += result.failed;
    sum.fileTimes.push(...result.fileTimes);
  };
  await atMost(
    processes,
    balanced(files, processes, { weight, inOrder }).map((share) => async () => {
      const result = await nodeRun(share, { env, node, quiet: true, together: true });
      add(result);
      const finished = new Set(result.fileTimes.map(({ file }) => file));
      const unfinished = share.filter((file) => !finished.has(resolve(file)));
      if (!unfinished.length) return;
      console.error(
        `\nThe process running ${share.length} files together ended in ${unfinished[0]}; each unfinished file runs again alone: ${unfinished.join(' ')}`,
      );
      sum.failed += 1;
      for (const file of unfinished) add(await nodeRun([file], { env, node, quiet: true }));
    }),
  );
  return sum;
}

/**
 * A file's expected wall time in seconds: slowFirst's, else from its size at the rate of the listed
 * files of its suite (in that suite's files, `files`); for balancing shares (nodeRunTogether).
 */
function expectedSeconds(files) {
  const listed = files.filter((file) => slowFirstSeconds.has(file));
  const perByte =
    listed.reduce((sum, file) => sum + slowFirstSeconds.get(file), 0) /
    Math.max(
      1,
      listed.reduce((sum, file) => sum + statSync(file).size, 0),
    );
  return (file) => slowFirstSeconds.get(file) ?? statSync(file).size * perByte;
}

/** `files` with the known slow ones first (slowFirst's order), then the others largest first. */
function longestFirst(files) {
  const rank = (file) => slowFirst.indexOf(file);
  const known = files.filter((file) => rank(file) >= 0).sort((a, b) => rank(a) - rank(b));
  const others = files.filter((file) => rank(file) < 0).sort((a, b) => statSync(b).size - statSync(a).size);
  return [...known, ...others];
}

/** How many of a suite's slowest files it prints (with each file's wall time), for the CI log. */
const slowestShown = 10;

/** The files of `fileTimes` that failed, relative to the repository. */
function failedFiles(fileTimes) {
  return fileTimes.filter(({ passed }) => passed === false).map(({ file }) => relative(process.cwd(), file));
}

function printSlowest(name, fileTimes) {
  if (!fileTimes.length) return;
  const failed = failedFiles(fileTimes);
  if (failed.length) console.log(`\n[${name}] failed files: ${failed.join(' ')}`);
  const slowest = [...fileTimes].sort((a, b) => b.ms - a.ms).slice(0, slowestShown);
  const total = fileTimes.reduce((sum, { ms }) => sum + ms, 0);
  console.log(`\n[${name}] slowest ${slowest.length} of ${fileTimes.length} files (their wall times add up to ${(total / 1000).toFixed(0)} s):`);
  for (const { file, ms } of slowest) console.log(`${(ms / 1000).toFixed(1).padStart(8)} s  ${relative(process.cwd(), file)}`);
}

/**
 * The node:test files under `paths` but not in `except`: the `alone` ones one at a time after the
 * others, which run `concurrency` at once (with `inOrder`, longest first: see longestFirst; with
 * `shareProcesses`, in `concurrency` processes that each run their share one after another, and the
 * `alone` ones after them in one process: see nodeRunTogether).
 */
async function nodeTests(name, paths, { env, node, concurrency = 1, except = new Set(), inOrder = false, shareProcesses = false } = {}) {
  const files = paths.flatMap((path) => filesUnder(path)).filter((file) => !except.has(file));
  if (!files.length) {
    console.log(`\n=== ${name}: no test files under ${paths.join(' ')}`);
    return;
  }
  const started = performance.now();
  const together = files.filter((file) => !alone.has(file));
  const separate = files.filter((file) => alone.has(file));
  console.log(`\n=== ${name}: ${files.length} files (${together.length} ${concurrency} at once, then ${separate.length} one at a time)`);
  let passed = 0;
  let failed = 0;
  const fileTimes = [];
  for (const [batch, atOnce] of [
    [together, concurrency],
    [separate, 1],
  ]) {
    if (!batch.length) continue;
    const result = shareProcesses
      ? await nodeRunTogether(batch, { env, node, processes: atOnce, ...(inOrder ? { weight: expectedSeconds(batch), inOrder } : {}) })
      : inOrder && atOnce > 1
        ? await nodeRunInOrder(longestFirst(batch), { env, node, concurrency: atOnce })
        : await nodeRun(batch, { env, node, concurrency: atOnce });
    passed += result.passed;
    failed += result.failed;
    fileTimes.push(...result.fileTimes);
  }
  printSlowest(name, fileTimes);
  count(name, passed, failed, started, failedFiles(fileTimes));
}

/** web-test-runner against the built bundle; it prints "N passed, N failed" and a `failed:` line per
 *  failed test or file (web-test-runner.config.mjs). */
async function browserTests() {
  if (!filesUnder('test/browser', /\.test\.(js|ts)$/).length) return;
  const started = performance.now();
  console.log('\n=== browser: web-test-runner');
  const { code, output } = await run('npx', ['web-test-runner'], { CHROME_PATH: findChromium() });
  const match = [...output.matchAll(/(\d+) passed, (\d+) failed/g)].pop();
  const passed = Number(match?.[1] ?? 0);
  const failed = Number(match?.[2] ?? 0);
  const failures = [...output.matchAll(/^failed: (.*)$/gm)].map(([, what]) => what);
  count('browser', passed, failed || (code === 0 ? 0 : 1), started, failures);
}

/** Node.js `major` ready to run tests (scripts/node-runtime.mjs), or undefined after counting a failed `suite`. */
function preparedNode(major, suite) {
  try {
    return nodeRuntime(major);
  } catch (error) {
    console.error(`Node.js ${major} could not be prepared: ${error.message}`);
    count(suite, 0, 1, performance.now());
    return undefined;
  }
}

/** The runtime-sensitive files on each other Node.js major (or `majors`), on SQLite. */
async function onOtherNodes(majors = otherNodeMajors) {
  for (const major of majors) {
    if (Number(process.versions.node.split('.')[0]) === major) continue;
    const runtime = preparedNode(major, `runtime (Node.js ${major})`);
    if (!runtime) continue;
    await nodeTests(`runtime files (Node.js ${runtime.version}, SQLite)`, signInOnlyNodeMajors.includes(major) ? signInFiles : runtimeFiles, {
      env: { IAM_TEST_DB: 'sqlite', ...runtime.env },
      node: runtime.node,
      concurrency: concurrency.server,
    });
  }
}

/**
 * The server suite: SQLite on `sqliteNodeMajor` (and `sqliteOnThisNode` here), then PostgreSQL on
 * `postgresNodeMajor`; the files share `concurrency.server` processes (`shareProcesses` in nodeTests).
 */
async function serverTests() {
  const runtime = preparedNode(sqliteNodeMajor, `server (SQLite, Node.js ${sqliteNodeMajor})`);
  if (runtime) {
    await nodeTests(`server (SQLite, Node.js ${runtime.version})`, ['test/server'], {
      env: { IAM_TEST_DB: 'sqlite', ...runtime.env },
      node: runtime.node,
      concurrency: concurrency.server,
      shareProcesses: true,
    });
  }
  await nodeTests(`server (SQLite, Node.js ${process.version})`, sqliteOnThisNode, { env: { IAM_TEST_DB: 'sqlite' }, concurrency: concurrency.server });
  const postgresNode = preparedNode(postgresNodeMajor, `server (PostgreSQL, Node.js ${postgresNodeMajor})`);
  if (!postgresNode) return;
  const postgres = await startPostgres();
  try {
    await nodeTests(`server (PostgreSQL, Node.js ${postgresNode.version})`, ['test/server'], {
      env: { IAM_TEST_DB: 'postgres', IAM_TEST_DATABASE_URL: postgres.url, ...postgresNode.env },
      node: postgresNode.node,
      concurrency: concurrency.server,
      except: sqliteOnly,
      shareProcesses: true,
    });
  } finally {
    await postgres.stop();
  }
}

/**
 * The e2e suite: the files on `sqliteNodeMajor` in `concurrency.e2e` processes that each run their
 * share one after another, longest first (nodeTests' `shareProcesses` and `inOrder`), each process
 * with one Chromium for its files (test/e2e/harness.ts); the compiled server every file starts runs
 * on that Node.js too, the line production runs (a browser's passkey failed there alone: Chromium
 * took the ML-DSA-44 key the library offered on 24 only). Node.js 20 cannot run files together with
 * their hooks and tests kept per file (a file's tests declared after its top-level await land
 * outside its suite); the compiled server on 20 is the host suite's.
 */
async function e2eTests() {
  const runtime = preparedNode(sqliteNodeMajor, `e2e (Node.js ${sqliteNodeMajor})`);
  if (!runtime) return;
  await nodeTests(`e2e (files and server on Node.js ${runtime.version})`, ['test/e2e'], {
    env: { CHROME_PATH: findChromium(), ...runtime.env },
    node: runtime.node,
    concurrency: concurrency.e2e,
    inOrder: true,
    shareProcesses: true,
  });
}

// Only the browser, end-to-end and host suites need the build; the others run whatever it says.
const builtSuites = ['browser', 'e2e', 'hosts'];
const staticChecks = {
  typecheck: [
    ['typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']],
    ['typecheck (browser tests)', 'npx', ['tsc', '--noEmit', '-p', 'test/browser/tsconfig.json']],
  ],
  lint: [
    ['lint', 'npx', ['eslint', '.', '--max-warnings=0']],
    // Unused files, exports and dependencies, and imports of undeclared ones (knip.json).
    ['unused code and dependencies (knip)', 'npx', ['knip', '--no-progress']],
  ],
  format: [['format', 'npx', ['prettier', '--check', '.']]],
};
const totalStarted = performance.now();
// The real parts the test suites drive (Chromium, PostgreSQL, nginx, slapd, SAML libraries …).
if (wanted.some((suite) => !staticChecks[suite])) ensureSystemPackages();
const needsBuild = wanted.some((suite) => builtSuites.includes(suite));
/**
 * The build's and the static checks' wall times in the last CI run, in seconds: they start longest
 * first, so that no long one starts last beside an idle place (lint after the build and the
 * typecheck ended 140 s in, where 123 s do).
 */
const checkSeconds = new Map([
  ['lint', 81],
  ['build', 60],
  ['typecheck', 52],
  ['format', 35],
  ['unused code and dependencies (knip)', 10],
  ['typecheck (browser tests)', 7],
]);
// The build and the static checks read the sources, and the build writes only what the checks skip
// (dist/, dist-server/, packages/*/dist, custom-elements.json: see .prettierignore, eslint.config.js
// and tsconfig.json), so they share the two places, longest first (checkSeconds). Each prints its
// output once it ends.
let built = false;
const buildAndChecks = [...(needsBuild ? [['build', 'npm', ['run', 'build', '--silent']]] : []), ...wanted.flatMap((suite) => staticChecks[suite] ?? [])].sort(
  ([a], [b]) => (checkSeconds.get(b) ?? 0) - (checkSeconds.get(a) ?? 0),
);
await atMost(
  2,
  buildAndChecks.map(([name, command, args]) => async () => {
    const ok = await check(name, command, args, { quiet: true });
    if (name === 'build') built = ok;
  }),
);
for (const suite of wanted.filter((suite) => !staticChecks[suite])) {
  const runtimeMajor = /^runtime(?:@(\d+))?$/.exec(suite);
  if (runtimeMajor) await onOtherNodes(runtimeMajor[1] ? [Number(runtimeMajor[1])] : undefined);
  else if (suite === 'unit') await nodeTests('unit', ['test/unit'], { concurrency: concurrency.unit });
  else if (suite === 'server') await serverTests();
  else if (builtSuites.includes(suite)) {
    if (!built) {
      console.error(`The build failed: the ${suite} suite cannot run.`);
      count(suite, 0, 1, performance.now());
    } else if (suite === 'browser') await browserTests();
    else if (suite === 'e2e') await e2eTests();
    else await nodeTests(suite, [`test/${suite}`], { env: { CHROME_PATH: findChromium() }, concurrency: concurrency[suite], inOrder: true });
  } else {
    console.error(`unknown suite: ${suite} (known: ${allSuites.join(' ')} runtime@<major>)`);
    count(suite, 0, 1, performance.now());
  }
}

const totals = results.reduce((sum, { passed, failed }) => ({ passed: sum.passed + passed, failed: sum.failed + failed }), { passed: 0, failed: 0 });
console.log('\nsuite                                        passed  failed  wall time');
for (const { name, passed, failed, seconds } of results)
  console.log(`${name.padEnd(44)} ${String(passed).padStart(6)}  ${String(failed).padStart(6)}  ${seconds.toFixed(0).padStart(6)} s`);
console.log(`${'total'.padEnd(44)} ${''.padStart(6)}  ${''.padStart(6)}  ${((performance.now() - totalStarted) / 1000).toFixed(0).padStart(6)} s`);
const failedSuites = results.filter(({ failed }) => failed);
if (failedSuites.length) console.log(`failed suites: ${failedSuites.map(({ name }) => name).join(', ')}`);
for (const { name, failures } of failedSuites) for (const what of failures) console.log(`  ${name}: ${what}`);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed ? 1 : 0);
