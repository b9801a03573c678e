// The compiled server's footprint (dist-server/main.js, as `npm start` runs it): time from spawn
// until /health/ready answers 200 (the database open, every migration run), and its resident
// memory (RSS) at rest, a few seconds after that. Each start is a fresh process over the same
// SQLite database, created beforehand by one start that is not counted (the first start also runs
// the migrations and hashes the administrator's password).
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { median } from './stats.mjs';

const READY_DEADLINE_MS = 30_000;
/** How long after ready the memory is read: the start's garbage collected, nothing else running. */
const REST_MS = 3_000;

export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** The resident set of process `pid` in MiB (Linux's /proc). */
export const rssMiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** The CPU time process `pid` used so far (user + system, all its threads), in ms: unlike the
 *  wall-clock time to ready, it hardly changes with other work on the machine. */
export function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** The peak resident set of process `pid` so far in MiB (Linux's VmHWM). */
export const peakRssMiB = (pid) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

/** This process's Node.js, as bench/server-node.mjs describes a runtime. */
const thisNode = { node: process.execPath, env: {} };

/** One start on `runtime` (bench/server-node.mjs; default this Node.js): resolves { readyMs, cpuMs, rssMiB }. */
export async function measureStart(entry, dataDir, adminPassword, runtime = thisNode) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(runtime.node, [entry], {
    env: { ...process.env, ...runtime.env, IAM_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', IAM_ADMIN_PASSWORD: adminPassword, DATABASE_URL: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    let readyMs;
    let cpu;
    while (readyMs === undefined) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before it was ready`);
      if (performance.now() - started > READY_DEADLINE_MS) throw new Error('the server was not ready within 30 s');
      const ready = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
        (answer) => answer.ok,
        () => false,
      );
      if (ready) {
        readyMs = performance.now() - started;
        cpu = cpuMs(child.pid);
      } else await sleep(2);
    }
    await sleep(REST_MS);
    return { readyMs, cpuMs: cpu, rssMiB: rssMiB(child.pid) };
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  }
}

/** `starts` counted starts (after one uncounted) of the compiled server `entry` over `dataDir`. */
export async function measureFootprint({ entry, dataDir, adminPassword, starts }) {
  await measureStart(entry, dataDir, adminPassword);
  const samples = [];
  for (let index = 0; index < starts; index++) samples.push(await measureStart(entry, dataDir, adminPassword));
  return {
    readyMs: median(samples.map((sample) => sample.readyMs)),
    cpuMs: median(samples.map((sample) => sample.cpuMs)),
    rssMiB: median(samples.map((sample) => sample.rssMiB)),
    samples: samples.map((sample) => ({ readyMs: Math.round(sample.readyMs), cpuMs: sample.cpuMs, rssMiB: Number(sample.rssMiB.toFixed(1)) })),
  };
}
