// The bench itself (bench/run.mjs loads it): sizes of the bundle, cold loads in Chromium, and the
// server under load on SQLite and PostgreSQL, each over freshly seeded data; one table on stdout
// and bench/results.json. Bounded: fixed counts and durations, and a deadline for the whole run.
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_SEED_PASSWORD, seed } from '../server/seed/seed.ts';
import { KDF_PARAMS } from '../server/auth/kdf.ts';
import { startPostgres } from '../scripts/postgres.mjs';
import { bundleGraph } from './sizes.mjs';
import { startBenchServer } from './server-process.mjs';
import { launchBrowser, medianColdLoad, signedInFiles } from './browser.mjs';
import { listLatency, loginBurst, sampleUsers, signIn, throughput } from './load.mjs';
import { median } from './stats.mjs';
import { formatTable, machine, writeResults } from './report.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
process.chdir(root);

const PLAN = {
  users: 100_000,
  postgresUsers: 100_000,
  coldLoads: 7,
  session: { connections: 10, warmupSeconds: 2, runs: 3, seconds: 3 },
  baseline: { connections: 10, warmupSeconds: 1, runs: 3, seconds: 2 },
  listRequests: 240,
  listWarmup: 10,
  loginBursts: 3,
  loginBurstSize: 24,
  idleSeconds: 2,
  deadlineMs: 9.5 * 60_000,
};
const KiB = 1024;
const BUDGET = { loginEntry: 85 * KiB, consoleFirstLoad: 140 * KiB, lazyChunk: 25 * KiB, sessionRps: 3_000, listP95Ms: 30, eventLoopP99Ms: 50, seedSeconds: 60 };

const started = Date.now();
const log = (line) => console.error(`[bench ${String(Math.round((Date.now() - started) / 1000)).padStart(3)} s] ${line}`);

// Everything started here is stopped in reverse order, also on failure, deadline or Ctrl-C.
const stops = [];
function stopLater(stop) {
  let stopped = false;
  const once = async () => {
    if (stopped) return;
    stopped = true;
    await stop();
  };
  stops.push(once);
  return once;
}
async function stopAll() {
  while (stops.length) await stops.pop()().catch((error) => log(`clean-up: ${error.message}`));
}
setTimeout(async () => {
  log(`deadline of ${PLAN.deadlineMs / 60_000} minutes passed: stopping`);
  await stopAll();
  process.exit(1);
}, PLAN.deadlineMs).unref();
process.once('SIGINT', async () => {
  await stopAll();
  process.exit(130);
});

const rows = [];
const notes = [];
const kib = (bytes) => `${(bytes / KiB).toFixed(1)} KiB`;
const fixed = (value, digits = 1) => Number(value.toFixed(digits));

/** One row of the table: `text` is what the table shows; `value`/`unit` go to results.json. */
function row(id, figure, value, unit, { text, budget, pass } = {}) {
  rows.push({ id, figure, value: fixed(value, 2), unit, text: text ?? `${fixed(value)} ${unit}`, ...(budget ? { budget, pass } : {}) });
}

function ensureBuilt() {
  if (existsSync('dist')) return;
  log('dist/ is missing: npm run build');
  const { status } = spawnSync('npm', ['run', 'build', '--silent'], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (status !== 0) throw new Error('npm run build failed');
}

function measureSizes(graph) {
  for (const entry of ['login', 'elements', 'core', 'react']) {
    if (!graph.has(`${entry}.js`)) {
      notes.push(`dist/${entry}.js is not built: no size for it.`);
      continue;
    }
    const { bytes, files } = graph.firstLoad(`${entry}.js`);
    const budget = { login: BUDGET.loginEntry, elements: BUDGET.consoleFirstLoad }[entry];
    row(`size.${entry}`, `${entry} entry + static imports (${files} files), min+gzip`, bytes / KiB, 'KiB', {
      text: kib(bytes), ...(budget ? { budget: `≤ ${kib(budget)}`, pass: bytes <= budget } : {}),
    });
  }
  const lazy = graph.has('elements.js') ? graph.lazyChunks('elements.js') : [];
  if (lazy.length) {
    const largest = lazy.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    row('size.lazyMax', `largest of ${lazy.length} lazy chunks (${largest.name}), min+gzip`, largest.bytes / KiB, 'KiB', {
      text: kib(largest.bytes), budget: `≤ ${kib(BUDGET.lazyChunk)} each`, pass: largest.bytes <= BUDGET.lazyChunk,
    });
  }
}

/** What an administrator types in the user search: the start of a login name, a surname, a full name. */
function searchPaths(users, prop, count) {
  return Array.from({ length: count }, (_, index) => {
    const user = users[index % users.length];
    const broad = index % 2 === 0;
    const value = prop === 'username' ? user.username.slice(0, broad ? 3 + (index % 3) : 20) : broad ? user.realName.slice(0, 1) : user.realName;
    const page = broad ? 1 + (index % 3) : 1;
    return `/api/user?page=${page}&size=10&searchProp=${prop}&searchValue=${encodeURIComponent(value)}`;
  });
}

async function seedAndStart(label, target, users, adminPassword, distDir) {
  log(`${label}: seeding ${users} users`);
  const summary = await seed({ users, password: DEFAULT_SEED_PASSWORD, adminPassword, ...target });
  log(`${label}: seeded in ${summary.seconds.toFixed(1)} s; starting the server`);
  const server = await startBenchServer({ ...target, adminPassword, distDir });
  const admin = await signIn(server.base, 'admin', adminPassword);
  return { summary, server, admin, stop: stopLater(() => server.stop()) };
}

async function measureBrowser(base, adminPassword, graph) {
  const browser = await launchBrowser();
  const close = stopLater(() => browser.close());
  log('Chromium: cold loads of the login entry page');
  const login = await medianColdLoad(browser, `${base}/bench/login.html`, PLAN.coldLoads);
  log('Chromium: cold loads of the console');
  const consoleLoad = await medianColdLoad(browser, `${base}/`, PLAN.coldLoads);
  const homeFiles = await signedInFiles(browser, `${base}/`, await signIn(base, 'admin', adminPassword));
  await close();
  row('load.login', `cold load: <iam-login> username visible (login entry only; median of ${PLAN.coldLoads})`, login.ms, 'ms', { text: `${Math.round(login.ms)} ms` });
  row('load.console', `cold load: console sign-in form visible (median of ${PLAN.coldLoads})`, consoleLoad.ms, 'ms', { text: `${Math.round(consoleLoad.ms)} ms` });
  const firstLoad = graph.sizeOf([...new Set([...consoleLoad.files, ...homeFiles])]);
  row('size.consoleFirstLoad', 'console first load as Chromium fetched it (shell + sign-in + home), min+gzip', firstLoad / KiB, 'KiB', {
    text: kib(firstLoad), budget: `≤ ${kib(BUDGET.consoleFirstLoad)}`, pass: firstLoad <= BUDGET.consoleFirstLoad,
  });
  return { login: login.samples, console: consoleLoad.samples, loginFiles: login.files, consoleFiles: consoleLoad.files, homeFiles };
}

async function measureServer(label, server, admin, queries) {
  log(`${label}: session check throughput`);
  const session = await throughput(`${server.base}/api/cas/session`, admin, PLAN.session);
  log(`${label}: user search latency`);
  const list = {
    username: await listLatency(server.base, admin, queries.username, PLAN.listWarmup),
    realName: await listLatency(server.base, admin, queries.realName, PLAN.listWarmup),
  };
  return { session, list };
}

function serverRows(engine, label, figures, users) {
  const { session, list } = figures;
  row(`${engine}.session.rps`, `${label}: GET /api/cas/session (${PLAN.session.connections} connections, median of ${PLAN.session.runs}×${PLAN.session.seconds} s)`, session.requestsPerSecond, 'req/s', {
    text: `${Math.round(session.requestsPerSecond)} req/s`, budget: `≥ ${BUDGET.sessionRps} req/s`, pass: session.requestsPerSecond >= BUDGET.sessionRps,
  });
  row(`${engine}.session.p99`, `${label}: GET /api/cas/session p99 latency`, session.p99, 'ms', { text: `${session.p99} ms` });
  for (const prop of ['username', 'realName']) {
    const figure = list[prop];
    row(`${engine}.list.${prop}`, `${label}: user search by ${prop}, ${users} users, p50 / p95 of ${figure.requests}`, figure.p95, 'ms (p95)', {
      text: `${figure.p50.toFixed(1)} / ${figure.p95.toFixed(1)} ms`, budget: `p95 ≤ ${BUDGET.listP95Ms} ms`, pass: figure.p95 <= BUDGET.listP95Ms,
    });
  }
}

/** Enabled, unlocked, ordinary seeded users, as the administrator's list shows them. */
async function signInCandidates(server, admin) {
  const users = await sampleUsers(server.base, admin, 3);
  return users.filter((user) => user.availabilityStatus === 1 && !user.isAdmin && !user.locked).map((user) => user.username);
}

async function measureSignIns(label, server, users) {
  const needed = PLAN.loginBurstSize * (PLAN.loginBursts + 1);
  if (users.length < needed) throw new Error(`only ${users.length} enabled seeded users sampled, ${needed} needed`);
  log(`${label}: sign-in bursts (production KDF)`);
  const idle = await server.eventLoopDelay(() => sleep(PLAN.idleSeconds * 1000));
  // Warm-up burst (the KDF's first runs, the decoy hash), not counted.
  await loginBurst(server.base, users.slice(0, PLAN.loginBurstSize), DEFAULT_SEED_PASSWORD);
  const bursts = [];
  for (let burst = 1; burst <= PLAN.loginBursts; burst++) {
    const distinct = users.slice(burst * PLAN.loginBurstSize, (burst + 1) * PLAN.loginBurstSize);
    const { result, delay } = await server.eventLoopDelay(() => loginBurst(server.base, distinct, DEFAULT_SEED_PASSWORD));
    bursts.push({ ...result, eventLoopDelay: delay });
  }
  return {
    perSecond: median(bursts.map((burst) => burst.perSecond)),
    eventLoopP99: median(bursts.map((burst) => burst.eventLoopDelay.p99)),
    idle: idle.delay,
    bursts,
  };
}

function signInRows(engine, label, figures) {
  const kdf = `Argon2id m=${KDF_PARAMS.memoryCost / 1024} MiB t=${KDF_PARAMS.timeCost} p=${KDF_PARAMS.parallelism}`;
  row(`${engine}.signIn.rate`, `${label}: sign-ins per second, ${kdf} (bursts of ${PLAN.loginBurstSize} distinct users, median of ${PLAN.loginBursts})`, figures.perSecond, 'sign-ins/s');
  row(`${engine}.signIn.eventLoopP99`, `${label}: event-loop delay p99 during the bursts (median; idle: ${figures.idle.p99.toFixed(1)} ms)`, figures.eventLoopP99, 'ms', {
    text: `${figures.eventLoopP99.toFixed(1)} ms`, budget: `≤ ${BUDGET.eventLoopP99Ms} ms (bench's bar)`, pass: figures.eventLoopP99 <= BUDGET.eventLoopP99Ms,
  });
}

function ratioRow(id, figure, postgres, sqlite) {
  row(id, figure, postgres / sqlite, '×', { text: `${(postgres / sqlite).toFixed(2)}×` });
}

async function main() {
  const adminPassword = `${randomBytes(12).toString('base64url')}1a`;
  const context = { date: new Date().toISOString(), node: process.version, machine: machine() };
  log(`machine: ${context.machine.cpu}, ${context.machine.cores} cores, load average ${context.machine.loadAverage1m}`);

  // A snapshot of the bundle: sizes and browser loads see the same files even if dist/ is rebuilt meanwhile.
  ensureBuilt();
  const workDir = mkdtempSync(join(tmpdir(), 'iam-bench-'));
  stopLater(() => rmSync(workDir, { recursive: true, force: true }));
  const distDir = join(workDir, 'dist');
  cpSync('dist', distDir, { recursive: true });
  const graph = bundleGraph(distDir);
  measureSizes(graph);

  const sqliteDir = join(workDir, 'data');
  mkdirSync(sqliteDir);
  const sqlite = await seedAndStart('SQLite', { dataDir: sqliteDir }, PLAN.users, adminPassword, distDir);
  row('sqlite.seed', `npm run seed: ${PLAN.users} users into SQLite`, sqlite.summary.seconds, 's', {
    budget: `< ${BUDGET.seedSeconds} s`, pass: sqlite.summary.seconds < BUDGET.seedSeconds,
  });
  const sample = await sampleUsers(sqlite.server.base, sqlite.admin, 3);
  const queries = { username: searchPaths(sample, 'username', PLAN.listRequests + PLAN.listWarmup), realName: searchPaths(sample, 'realName', PLAN.listRequests + PLAN.listWarmup) };
  const browser = await measureBrowser(sqlite.server.base, adminPassword, graph);
  log('SQLite: baseline throughput (same stack, no session, no database)');
  const baseline = await throughput(`${sqlite.server.base}/bench/ping`, sqlite.admin, PLAN.baseline);
  const sqliteFigures = await measureServer('SQLite', sqlite.server, sqlite.admin, queries);
  const sqliteSignIns = await measureSignIns('SQLite', sqlite.server, await signInCandidates(sqlite.server, sqlite.admin));
  await sqlite.stop();
  row('baseline.rps', `baseline: GET /bench/ping, same server stack without session or database (median of ${PLAN.baseline.runs}×${PLAN.baseline.seconds} s)`, baseline.requestsPerSecond, 'req/s', { text: `${Math.round(baseline.requestsPerSecond)} req/s` });
  serverRows('sqlite', 'SQLite', sqliteFigures, PLAN.users);
  ratioRow('ratio.sessionToBaseline', 'SQLite session check ÷ baseline, req/s', sqliteFigures.session.requestsPerSecond, baseline.requestsPerSecond);
  signInRows('sqlite', 'SQLite', sqliteSignIns);

  log('PostgreSQL: starting a throwaway cluster');
  const cluster = await startPostgres();
  const stopCluster = stopLater(() => cluster.stop());
  const postgres = await seedAndStart('PostgreSQL', { databaseUrl: cluster.url }, PLAN.postgresUsers, adminPassword, distDir);
  const postgresFigures = await measureServer('PostgreSQL', postgres.server, postgres.admin, queries);
  const postgresSignIns = await measureSignIns('PostgreSQL', postgres.server, await signInCandidates(postgres.server, postgres.admin));
  await postgres.stop();
  await stopCluster();
  serverRows('postgres', 'PostgreSQL', postgresFigures, PLAN.postgresUsers);
  signInRows('postgres', 'PostgreSQL', postgresSignIns);
  ratioRow('ratio.session', 'PostgreSQL ÷ SQLite: session check req/s', postgresFigures.session.requestsPerSecond, sqliteFigures.session.requestsPerSecond);
  for (const prop of ['username', 'realName']) {
    ratioRow(`ratio.list.${prop}`, `PostgreSQL ÷ SQLite: user search by ${prop}, p95`, postgresFigures.list[prop].p95, sqliteFigures.list[prop].p95);
  }
  ratioRow('ratio.signIn', 'PostgreSQL ÷ SQLite: sign-ins per second', postgresSignIns.perSecond, sqliteSignIns.perSecond);
  ratioRow('ratio.eventLoop', 'PostgreSQL ÷ SQLite: event-loop delay p99 during sign-ins', postgresSignIns.eventLoopP99, sqliteSignIns.eventLoopP99);
  ratioRow('ratio.seed', `PostgreSQL ÷ SQLite: seeding ${PLAN.users} users`, postgres.summary.seconds, sqlite.summary.seconds);
  await stopAll();

  const seconds = (Date.now() - started) / 1000;
  notes.push(
    `${context.machine.cores} cores (${context.machine.cpu}) shared with other work: load average ${context.machine.loadAverage1m} at the start, so every figure is noisy; compare ratios from one run, not absolute figures between runs.`,
    'Cold loads: fresh browser context each (empty cache), served by the real server on 127.0.0.1 without compression; time from navigation start to the visible username input, measured in the page.',
    'Event-loop delay: monitorEventLoopDelay in the server process (5 ms resolution, subtracted); DESIGN.md names no number, 50 ms is this bench\'s bar for "responsive".',
    'Load generators (autocannon, fetch) run in the bench process, the server in its own process; user search latency is one request at a time.',
  );
  const results = {
    ...context, durationSeconds: Math.round(seconds), plan: PLAN, rows, notes,
    details: { browser, baseline, sqlite: { ...sqliteFigures, signIns: sqliteSignIns }, postgres: { ...postgresFigures, signIns: postgresSignIns } },
  };
  writeResults(join(root, 'bench/results.json'), results);
  console.log(formatTable(rows.map((item) => ({ figure: item.figure, value: item.text, budget: item.budget, pass: item.pass }))));
  console.log(`\n${context.date} · Node ${context.node} · ${context.machine.cpu} · ${context.machine.cores} cores · ${context.machine.memoryGiB} GiB · ${Math.round(seconds)} s`);
  for (const note of notes) console.log(`- ${note}`);
  const failed = rows.filter((item) => item.pass === false).length;
  console.log(failed ? `\n${failed} figure(s) over budget.` : '\nEvery figure within budget.');
}

try {
  await main();
} catch (error) {
  console.error(error);
  await stopAll();
  process.exitCode = 1;
}
