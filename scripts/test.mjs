// `npm test`: every check of the project, in order, then one summary line `N passed, N failed`.
// Usage: node scripts/test.mjs [suite …]   suites: typecheck lint format unit server browser e2e hosts
// (no argument runs all). Node suites use the node:test runner through tsx; the browser suite
// uses web-test-runner against the built bundle; e2e drives Debian's Chromium with playwright-core;
// hosts packs the packages and builds fresh Vite host projects on them (test/hosts). The unit tests
// and the server suite on SQLite run a second time on Node.js 24 from the npm registry, with the
// better-sqlite3 that runs there (scripts/node-runtime.mjs), unless this already is Node.js 24.
import { spawn } from 'node:child_process';
import { readdirSync, statSync, readFileSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { findChromium } from './chromium.mjs';
import { nodeRuntime } from './node-runtime.mjs';
import { startPostgres } from './postgres.mjs';

const allSuites = ['typecheck', 'lint', 'format', 'unit', 'server', 'browser', 'e2e', 'hosts'];
const wanted = process.argv.slice(2).length ? process.argv.slice(2) : allSuites;
const totals = { passed: 0, failed: 0 };
const failures = [];

function run(command, args, env = {}) {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => {
      output += d;
      process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      output += d;
      process.stderr.write(d);
    });
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

function filesUnder(dir, pattern) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return filesUnder(path, pattern);
      return pattern.test(name) ? [path] : [];
    })
    .sort();
}

function count(name, passed, failed) {
  totals.passed += passed;
  totals.failed += failed;
  if (failed) failures.push(name);
  console.log(`\n[${name}] ${passed} passed, ${failed} failed\n`);
}

/** A check that is pass/fail as a whole (typecheck, lint, build). */
async function check(name, command, args) {
  console.log(`\n=== ${name}: ${command} ${args.join(' ')}`);
  const { code } = await run(command, args);
  count(name, code === 0 ? 1 : 0, code === 0 ? 0 : 1);
  return code === 0;
}

/** node:test files, counted from a TAP copy of the run (on `node`, by default this Node.js). */
async function nodeTests(name, dir, env = {}, node = process.execPath) {
  const files = filesUnder(dir, /\.test\.(ts|mjs|js)$/);
  if (!files.length) {
    console.log(`\n=== ${name}: no test files under ${dir}`);
    return;
  }
  const tap = join(mkdtempSync(join(tmpdir(), 'iam-test-')), 'report.tap');
  console.log(`\n=== ${name}: ${files.length} files`);
  const { code } = await run(
    node,
    [
      '--import',
      'tsx',
      '--test',
      '--test-concurrency=1',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      ...files,
    ],
    env,
  );
  const report = readFileSync(tap, 'utf8');
  const passed = Number(/^# pass (\d+)/m.exec(report)?.[1] ?? 0);
  const failed = Number(/^# fail (\d+)/m.exec(report)?.[1] ?? 0) + Number(/^# cancelled (\d+)/m.exec(report)?.[1] ?? 0);
  count(name, passed, failed || (code === 0 ? 0 : 1));
}

/** web-test-runner against the built bundle; it prints "N passed, N failed". */
async function browserTests() {
  if (!filesUnder('test/browser', /\.test\.(js|ts)$/).length) return;
  console.log('\n=== browser: web-test-runner');
  const { code, output } = await run('npx', ['web-test-runner'], { CHROME_PATH: findChromium() });
  const match = [...output.matchAll(/(\d+) passed, (\d+) failed/g)].pop();
  const passed = Number(match?.[1] ?? 0);
  const failed = Number(match?.[2] ?? 0);
  count('browser', passed, failed || (code === 0 ? 0 : 1));
}

/** The second Node.js the suites run on, prepared at its first use. */
const secondMajor = 24;
let secondRuntime;
async function onSecondNode(name, dir, env = {}) {
  if (Number(process.versions.node.split('.')[0]) === secondMajor) return;
  try {
    secondRuntime ??= nodeRuntime(secondMajor);
  } catch (error) {
    console.error(`Node.js ${secondMajor} could not be prepared: ${error.message}`);
    count(`${name} (Node.js ${secondMajor})`, 0, 1);
    return;
  }
  await nodeTests(`${name} (Node.js ${secondRuntime.version})`, dir, { ...env, ...secondRuntime.env }, secondRuntime.node);
}

// Only the browser, end-to-end and host suites need the build; the others run whatever it says.
const builtSuites = ['browser', 'e2e', 'hosts'];
const needsBuild = wanted.some((suite) => builtSuites.includes(suite));
const built = needsBuild && (await check('build', 'npm', ['run', 'build', '--silent']));
for (const suite of wanted) {
  if (suite === 'typecheck') {
    await check('typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']);
    await check('typecheck (browser tests)', 'npx', ['tsc', '--noEmit', '-p', 'test/browser/tsconfig.json']);
  } else if (suite === 'lint') await check('lint', 'npx', ['eslint', '.', '--max-warnings=0']);
  else if (suite === 'format') await check('format', 'npx', ['prettier', '--check', '.']);
  else if (suite === 'unit') {
    await nodeTests('unit', 'test/unit');
    await onSecondNode('unit', 'test/unit');
  } else if (suite === 'server') {
    await nodeTests('server (SQLite)', 'test/server', { IAM_TEST_DB: 'sqlite' });
    await onSecondNode('server (SQLite)', 'test/server', { IAM_TEST_DB: 'sqlite' });
    const postgres = await startPostgres();
    try {
      await nodeTests('server (PostgreSQL)', 'test/server', { IAM_TEST_DB: 'postgres', IAM_TEST_DATABASE_URL: postgres.url });
    } finally {
      await postgres.stop();
    }
  } else if (builtSuites.includes(suite)) {
    if (!built) {
      console.error(`The build failed: the ${suite} suite cannot run.`);
      count(suite, 0, 1);
    } else if (suite === 'browser') await browserTests();
    else await nodeTests(suite, `test/${suite}`, { CHROME_PATH: findChromium() });
  } else {
    console.error(`unknown suite: ${suite} (known: ${allSuites.join(' ')})`);
    count(suite, 0, 1);
  }
}

if (failures.length) console.log(`failed suites: ${failures.join(', ')}`);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed ? 1 : 0);
