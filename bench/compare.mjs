// `npm run bench`: this tree's compiled server against a baseline's (bench/baseline.mjs), both over
// copies of one seeded SQLite database (a baseline with other migrations over one its own seed made,
// same users and passwords), each case run A B A B … in the same run so that the other
// work on this shared machine weighs on both alike. Reports medians and ratios (current ÷
// baseline, and the session check ÷ the no-database floor of the same build), never pass/fail:
// absolute figures on a shared 2-core machine say more about the machine than about the code.
//
// Cases (10 connections, autocannon unless said): the no-database floor (GET /health/live); the
// console's session check (GET /api/cas/session with a session cookie); an anonymous GET
// /api/cas/login (a page that needs no database); refresh-token grants (10 loops each rotating its
// own chain, bench/sso.mjs); sign-ins (bursts of seeded users, their default KDF). Per case: req/s
// and the server's CPU per request (user + system of its process, all threads: what a request costs
// the server, much less sensitive to other work than req/s). Besides: the session answer's header
// bytes, the server's peak resident memory after the load, and its cold start (spawn until
// /health/ready, over an existing database) and memory at rest.
//
// Ratios are read round by round: each round runs every case once per build, back to back, the
// builds taking turns going first; a ratio is the median over the rounds of the ratio within each
// round, shown with its range. Many short rounds rather than a few long ones: on this machine the
// same build's CPU per request moves by up to 2× over tens of seconds with the other work, and only
// measurements taken seconds apart share those conditions.
//
// Options: --baseline=REF (default: the last tag, else where this branch left main), --seconds=N
// per run (default 3), --runs=N rounds (default 7), --warmup=N s per case and build before the
// rounds (default 3), --users=N seeded (default 100 000), --starts=N (cold starts per build,
// default 5), --cases=session,refresh (only those; the floor always runs), --node=N (the Node.js
// major the servers run on, default the production line, bench/server-node.mjs; the load generators stay
// on this one), --baseline-node=N (the baseline's, default --node's: `--baseline=HEAD
// --baseline-node=20` compares two Node.js lines on the same code).
// IAM_BENCH_CPU_PROF=DIR writes the current build's CPU profile there (with --cases=refresh: where a
// grant's time goes).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { DEFAULT_SEED_PASSWORD, seed } from '../server/seed/seed.ts';
import { buildBaseline, buildCurrent, defaultBaselineRef } from './baseline.mjs';
import { cpuMs, freePort, measureStart, peakRssMiB } from './footprint.mjs';
import { PRODUCTION_NODE_MAJOR, serverNode } from './server-node.mjs';
import { loginBurst, sampleUsers, signIn } from './load.mjs';
import { benchApp, refreshLoad, refreshTokens } from './sso.mjs';
import { median } from './stats.mjs';
import { formatTable, machine, writeResults } from './report.mjs';

const READY_DEADLINE_MS = 60_000;
const CONNECTIONS = 10;
const REFRESH_CHAINS = 10;
/** A run counts when the server used at least this many cores of CPU through it (see onServer). */
const MIN_BUSY_CORES = 0.6;
/** Sign-ins per burst: the server allows 30 per minute from one address, the administrator's included. */
const SIGN_IN_BURST = 6;

function option(name, fallback) {
  const given = process.argv.find((argument) => argument.startsWith(`--${name}=`));
  return given ? given.slice(name.length + 3) : fallback;
}

/** Starts a compiled server on its build's Node.js over `dataDir` (logging off, as a bench should not measure its terminal). */
async function startCompiled(build, dataDir, adminPassword) {
  const { runtime } = build;
  const port = await freePort();
  const profile = build.label === 'current' && process.env.IAM_BENCH_CPU_PROF;
  const child = spawn(runtime.node, [...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []), build.entry], {
    env: {
      ...process.env,
      ...runtime.env,
      IAM_DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      IAM_ADMIN_PASSWORD: adminPassword,
      IAM_LOG: '0',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${build.label}: the server exited (${child.exitCode}) before it was ready`);
    if (performance.now() - started > READY_DEADLINE_MS) throw new Error(`${build.label}: not ready within 60 s`);
    const ready = await fetch(`${base}/health/ready`).then(
      (answer) => answer.ok,
      () => false,
    );
    if (ready) break;
    await sleep(20);
  }
  return {
    base,
    cpuMicros: () => cpuMs(child.pid) * 1000,
    peakRssMiB: () => peakRssMiB(child.pid),
    async stop() {
      if (child.exitCode !== null) return;
      // SIGINT twice: the first starts the shutdown grace period, the second ends it now.
      child.kill('SIGINT');
      await sleep(50);
      if (child.exitCode === null) child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await once(child, 'exit');
      clearTimeout(timer);
    },
  };
}

/** Bytes of the status line and headers of one answer (what every answer of that kind costs to write). */
function headerBytes(url, cookie) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { cookie } }, (response) => {
      const lines = [`HTTP/1.1 ${response.statusCode} ${response.statusMessage}`];
      for (let index = 0; index < response.rawHeaders.length; index += 2) lines.push(`${response.rawHeaders[index]}: ${response.rawHeaders[index + 1]}`);
      response.resume();
      response.on('end', () => resolve(Buffer.byteLength(`${lines.join('\r\n')}\r\n\r\n`)));
    });
    request.on('error', reject);
  });
}

/**
 * Runs `work` (answering { requests, … }) against `server`: adds the server's CPU per request and
 * how busy it was, in cores (its CPU time ÷ the wall time). A saturating load keeps the server near
 * one core; far below that, the machine's other work was starving it, and its CPU per request is
 * inflated too (its timers and wake-ups spread over few requests, no batching of ready sockets).
 */
async function onServer(server, work) {
  const before = server.cpuMicros();
  const started = performance.now();
  const result = await work();
  const cpu = server.cpuMicros() - before;
  return { ...result, cpuPerRequest: cpu / result.requests, busy: cpu / ((performance.now() - started) * 1000) };
}

function cannon(server, { path, cookie }, seconds) {
  return onServer(server, async () => {
    const result = await autocannon({ url: server.base + path, connections: CONNECTIONS, duration: seconds, headers: cookie ? { cookie } : {} });
    if (result.non2xx || result.errors || result.timeouts)
      throw new Error(`${path}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
    return { perSecond: result.requests.average, requests: result.requests.total, p99: result.latency.p99 };
  });
}

/** One server per build, over its own copy of its seeded database, with what each case needs. */
async function prepare(build, workDir, adminPassword, runs) {
  const dataDir = join(workDir, build.label);
  cpSync(build.seeded, dataDir, { recursive: true });
  const server = await startCompiled(build, dataDir, adminPassword);
  const admin = await signIn(server.base, 'admin', adminPassword);
  const users = (await sampleUsers(server.base, admin, 1))
    .filter((user) => user.availabilityStatus === 1 && !user.isAdmin && !user.locked)
    .map((user) => user.username);
  if (users.length < SIGN_IN_BURST * runs) throw new Error(`${build.label}: only ${users.length} users who may sign in`);
  const { admin: adminClient, app, authorization } = await benchApp(server.base, admin);
  const chains = await refreshTokens(adminClient, app, REFRESH_CHAINS);
  return { build, server, admin, users, refresh: { tokenUrl: app.as.token_endpoint, authorization }, chains };
}

const CASES = {
  floor: (target, seconds) => cannon(target.server, { path: '/health/live' }, seconds),
  session: (target, seconds) => cannon(target.server, { path: '/api/cas/session', cookie: target.admin.header }, seconds),
  anonymous: (target, seconds) => cannon(target.server, { path: '/api/cas/login' }, seconds),
  refresh: (target, seconds) =>
    onServer(target.server, async () => {
      // Each run goes on rotating the chains the previous one left.
      const { chains, ...result } = await refreshLoad(target.refresh, target.chains, seconds);
      if (result.failures) throw new Error(`${target.build.label}: ${result.failures} refresh grants failed`);
      target.chains = chains;
      return result;
    }),
  signIn: (target) =>
    onServer(target.server, async () => {
      const result = await loginBurst(target.server.base, target.users.splice(0, SIGN_IN_BURST), DEFAULT_SEED_PASSWORD);
      return { perSecond: result.perSecond, requests: result.signIns };
    }),
};
const LABELS = {
  floor: 'no-database floor GET /health/live',
  session: 'session check GET /api/cas/session',
  anonymous: 'anonymous GET /api/cas/login',
  refresh: 'refresh-token grant (rotation, RS256 ID token)',
  signIn: `sign-in (bursts of ${SIGN_IN_BURST}, default KDF)`,
};

export async function compare(root, log) {
  const runs = Number(option('runs', 7));
  const seconds = Number(option('seconds', 3));
  const warmup = Number(option('warmup', 3));
  const users = Number(option('users', 100_000));
  const starts = Number(option('starts', 5));
  const ref = option('baseline', defaultBaselineRef(root));
  const chosen = option('cases', undefined)?.split(',');
  const node = Number(option('node', PRODUCTION_NODE_MAJOR));
  const runtimes = { current: serverNode(node), baseline: serverNode(Number(option('baseline-node', node))) };
  const onNode =
    runtimes.baseline.version === runtimes.current.version ? runtimes.current.version : `${runtimes.baseline.version} → ${runtimes.current.version}`;
  const keys = Object.keys(CASES).filter((key) => !chosen || key === 'floor' || chosen.includes(key));
  const startedAt = machine();
  log(`A/B against ${ref} on Node.js ${onNode}: ${runs} runs of ${seconds} s per case, ${users} users; load average ${startedAt.loadAverage1m}`);

  const current = { ...buildCurrent(root, log), runtime: runtimes.current };
  const baseline = { ...buildBaseline(root, ref, log), runtime: runtimes.baseline };
  const builds = [baseline, current];

  const workDir = mkdtempSync(join(tmpdir(), 'iam-bench-ab-'));
  const stops = [];
  try {
    const adminPassword = `${randomBytes(12).toString('base64url')}1a`;
    const seeding = { users, password: DEFAULT_SEED_PASSWORD, adminPassword };
    current.seeded = join(workDir, 'seeded');
    log(`seeding ${users} users into SQLite`);
    await seed({ ...seeding, dataDir: current.seeded });
    baseline.seeded = current.seeded;
    if (baseline.seed) {
      // Its migrations differ (bench/baseline.mjs): it would refuse this tree's schema, so its copy
      // is made by its own seed, with the same users and passwords.
      log(`seeding ${users} users with the baseline's own seed (its migrations differ)`);
      baseline.seeded = join(workDir, 'seeded-baseline');
      const { seed: seedBaseline } = await import(pathToFileURL(baseline.seed).href);
      await seedBaseline({ ...seeding, dataDir: baseline.seeded });
    }

    // Cold start and memory at rest first, nothing else running: starts alternate between builds.
    const footprints = builds.map(() => []);
    for (const build of builds.filter(() => starts > 0)) {
      const dir = join(workDir, `start-${build.label}`);
      cpSync(build.seeded, dir, { recursive: true });
      await measureStart(build.entry, dir, adminPassword, build.runtime); // uncounted: the first start of a copy
    }
    log(`cold starts: ${starts} per build, alternating`);
    for (let round = 0; round < starts; round++)
      for (const [index, build] of builds.entries())
        footprints[index].push(await measureStart(build.entry, join(workDir, `start-${build.label}`), adminPassword, build.runtime));

    log('starting both servers, registering the bench app, issuing refresh token chains');
    const targets = [];
    for (const build of builds) {
      const target = await prepare(build, workDir, adminPassword, runs);
      stops.push(() => target.server.stop());
      targets.push(target);
    }
    const headers = await Promise.all(targets.map((target) => headerBytes(`${target.server.base}/api/cas/session`, target.admin.header)));

    const results = Object.fromEntries(keys.map((key) => [key, targets.map(() => [])]));
    // Each case runs `warmup` s per build first: the provider's pipeline is still being optimised
    // by V8 after 1 s of grants, which made a build's first timed round its slowest.
    log(`warm-up: ${warmup} s per case and build`);
    for (const key of keys.filter((key) => key !== 'signIn')) for (const target of targets) await CASES[key](target, warmup);
    for (let round = 0; round < runs; round++) {
      log(`round ${round + 1} of ${runs} (load average ${machine().loadAverage1m})`);
      // The builds take turns going first (A B, then B A), so that a drift in the machine's other
      // work during a round weighs on both alike instead of always on the second.
      const order = round % 2 ? [...targets.entries()].reverse() : [...targets.entries()];
      for (const key of keys) for (const [index, target] of order) results[key][index].push(await CASES[key](target, seconds));
    }
    const peaks = targets.map((target) => target.server.peakRssMiB());
    const endedAt = machine();

    // The rounds a figure is read from: those where every run it compares kept its server busy
    // (see onServer; sign-in bursts are not a saturating load and always count). When no round
    // qualifies (a machine loaded throughout), all of them, and the row says so by its count.
    const busyRounds = (runsOf) => {
      const all = runsOf[0].map((_, round) => round);
      const busy = all.filter((round) => runsOf.every((samples) => samples[round].busy >= MIN_BUSY_CORES));
      return busy.length ? busy : Object.assign(all, { noneBusy: true });
    };
    const counted = Object.fromEntries(keys.map((key) => [key, key === 'signIn' ? results[key][0].map((_, round) => round) : busyRounds(results[key])]));
    const figures = {};
    for (const [key, perBuild] of Object.entries(results)) {
      figures[key] = perBuild.map((samples) => ({
        perSecond: median(counted[key].map((round) => samples[round].perSecond)),
        cpuPerRequest: median(counted[key].map((round) => samples[round].cpuPerRequest)),
        rounds: counted[key].length,
        runs: samples.map((sample) => ({
          perSecond: Math.round(sample.perSecond),
          cpuPerRequest: Math.round(sample.cpuPerRequest),
          busyCores: Number(sample.busy.toFixed(2)),
          requests: sample.requests,
        })),
      }));
    }
    const startFigures = footprints.map((samples) => ({
      readyMs: median(samples.map((sample) => sample.readyMs)),
      cpuMs: median(samples.map((sample) => sample.cpuMs)),
      rssMiB: median(samples.map((sample) => sample.rssMiB)),
    }));

    const rows = [];
    const [b, c] = [0, 1];
    const ratio = (now, before) => `${(now / before).toFixed(2)}×`;
    /** A ratio read round by round (its two terms measured back to back): the median, the range
     *  over the rounds (how far one round alone could mislead) and how many rounds counted. */
    const pairedRatio = (ratios, rounds) =>
      `${median(ratios).toFixed(2)}× (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}, ${rounds.noneBusy ? `none busy: all ${runs} rounds` : `${rounds.length} of ${runs} rounds`})`;
    /** now[round][nowField] ÷ before[round][beforeField] over `rounds`. */
    const roundRatios = (rounds, [now, nowField], [before, beforeField]) => rounds.map((round) => now[round][nowField] / before[round][beforeField]);
    for (const key of keys) {
      const f = figures[key];
      for (const [field, label] of [
        ['perSecond', 'per second'],
        ['cpuPerRequest', 'server CPU per request (µs)'],
      ]) {
        rows.push({
          figure: `${LABELS[key]}: ${label}`,
          baseline: Math.round(f[b][field]),
          current: Math.round(f[c][field]),
          ratio: pairedRatio(roundRatios(counted[key], [results[key][c], field], [results[key][b], field]), counted[key]),
        });
      }
    }
    if (figures.session) {
      // Per build, the session check's run and the floor's run of the same round, over the rounds
      // where both kept that build's server busy.
      const toFloor = (index, field, invert) => {
        const [session, floor] = [results.session[index], results.floor[index]];
        const rounds = busyRounds([session, floor]);
        return { rounds, ratios: invert ? roundRatios(rounds, [floor, field], [session, field]) : roundRatios(rounds, [session, field], [floor, field]) };
      };
      for (const [figure, field, invert] of [
        ['session check ÷ no-database floor, req/s (same build, same round)', 'perSecond', false],
        ['floor CPU ÷ session check CPU (same build, same round)', 'cpuPerRequest', true],
      ]) {
        const [before, now] = [toFloor(b, field, invert), toFloor(c, field, invert)];
        rows.push({
          figure,
          baseline: pairedRatio(before.ratios, before.rounds),
          current: pairedRatio(now.ratios, now.rounds),
          ratio: ratio(median(now.ratios), median(before.ratios)),
        });
      }
    }
    rows.push({ figure: 'session answer: status line + header bytes', baseline: headers[b], current: headers[c], ratio: ratio(headers[c], headers[b]) });
    rows.push({
      figure: 'peak resident memory after the load (MiB)',
      baseline: peaks[b].toFixed(1),
      current: peaks[c].toFixed(1),
      ratio: ratio(peaks[c], peaks[b]),
    });
    if (starts > 0) {
      rows.push({
        figure: `cold start, existing database: spawn to ready (ms, median of ${starts})`,
        baseline: Math.round(startFigures[b].readyMs),
        current: Math.round(startFigures[c].readyMs),
        ratio: ratio(startFigures[c].readyMs, startFigures[b].readyMs),
      });
      rows.push({
        figure: 'cold start: its CPU time (ms)',
        baseline: Math.round(startFigures[b].cpuMs),
        current: Math.round(startFigures[c].cpuMs),
        ratio: ratio(startFigures[c].cpuMs, startFigures[b].cpuMs),
      });
      rows.push({
        figure: 'memory at rest, 3 s after ready (MiB)',
        baseline: startFigures[b].rssMiB.toFixed(1),
        current: startFigures[c].rssMiB.toFixed(1),
        ratio: ratio(startFigures[c].rssMiB, startFigures[b].rssMiB),
      });
    }

    const record = {
      date: new Date().toISOString(),
      // The servers' Node.js; the bench itself (seeding, load generators) ran on `benchNode`.
      node: runtimes.current.version,
      ...(runtimes.baseline.version !== runtimes.current.version ? { baselineNode: runtimes.baseline.version } : {}),
      benchNode: process.version,
      machine: { ...startedAt, loadAverage1m: undefined },
      loadAverage: { start: startedAt.loadAverage1m, end: endedAt.loadAverage1m },
      baseline: { ref, commit: baseline.commit },
      current: { commit: current.commit },
      plan: { runs, seconds, warmup, users, starts, connections: CONNECTIONS, refreshChains: REFRESH_CHAINS, signInBurst: SIGN_IN_BURST },
      rows,
      details: { figures, headerBytes: headers, peakRssMiB: peaks, starts: startFigures },
    };
    const path = join(root, 'bench/results.json');
    const previous = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {};
    writeResults(path, { ...previous, comparisons: [...(previous.comparisons ?? []), record] });

    console.log(
      formatTable(
        rows.map((row) => ({ figure: row.figure, value: `${row.baseline} → ${row.current} (${row.ratio})` })),
        { value: `baseline ${baseline.commit} → current ${current.commit} (ratio), servers on Node.js ${onNode}` },
      ),
    );
    console.log(
      `\nload average ${startedAt.loadAverage1m} at the start, ${endedAt.loadAverage1m} at the end (${startedAt.cores} cores); appended to bench/results.json`,
    );
  } finally {
    for (const stop of stops.reverse()) await stop().catch((error) => log(`clean-up: ${error.message}`));
    rmSync(workDir, { recursive: true, force: true });
  }
}
