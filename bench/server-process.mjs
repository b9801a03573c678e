// Starts bench/server.ts in its own Node process (through tsx) and talks to it over IPC.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { nodeRuntime } from '../scripts/node-runtime.mjs';

const START_TIMEOUT_MS = 60_000;

/** Resolves when the server listens: { base, engine, node, eventLoopDelay(during), cpuMicros(), stop() }. */
export async function startBenchServer({ dataDir, databaseUrl, adminPassword, distDir }) {
  // IAM_BENCH_SERVER_NODE=24 runs the server on that Node.js major (prepared as the test suites'
  // second runtime is), the load generators staying on this one.
  const runtime = process.env.IAM_BENCH_SERVER_NODE ? nodeRuntime(Number(process.env.IAM_BENCH_SERVER_NODE)) : undefined;
  const child = fork(fileURLToPath(new URL('./server.ts', import.meta.url)), [], {
    // IAM_BENCH_CPU_PROF=DIR writes the server's CPU profile there (to see where its time goes).
    execArgv: ['--import', 'tsx', ...(process.env.IAM_BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.IAM_BENCH_CPU_PROF}`] : [])],
    ...(runtime ? { execPath: runtime.node } : {}),
    env: { ...process.env, ...runtime?.env, IAM_BENCH_SERVER: JSON.stringify({ dataDir, databaseUrl, adminPassword, distDir }) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the bench server did not start within 60 s')), START_TIMEOUT_MS);
    child.on('message', (message) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve(message);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the bench server exited (${code}) before listening`));
    });
  });
  /** Sends `command` and resolves with the server's first answer of type `answer`. */
  const ask = (command, answer) =>
    new Promise((resolve) => {
      const onMessage = (message) => {
        if (message.type !== answer) return;
        child.off('message', onMessage);
        resolve(message);
      };
      child.on('message', onMessage);
      child.send(command);
    });
  return {
    base: `http://127.0.0.1:${ready.port}`,
    engine: ready.engine,
    /** The server's Node.js version. */
    node: ready.node,
    /** Runs `work` while the server records its event-loop delay; answers both results. */
    async eventLoopDelay(work) {
      child.send({ type: 'eld-start' });
      const result = await work();
      const delay = await ask({ type: 'eld-stop' }, 'eld');
      return { result, delay };
    },
    /** The server process's CPU time so far (user + system, all its threads), in microseconds. */
    async cpuMicros() {
      return (await ask({ type: 'cpu' }, 'cpu')).micros;
    },
    /** The server process's resident memory now and its peak so far, in bytes. */
    async memory() {
      const { rss, peakRss } = await ask({ type: 'memory' }, 'memory');
      return { rss, peakRss };
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await once(child, 'exit');
      clearTimeout(timer);
    },
  };
}
