// The server under test, as its own process (started by bench/server-process.mjs through tsx):
// the real application on 127.0.0.1 with one bench setting (a login rate limit high enough for a
// burst of sign-ins), a page that loads only the login entry, and the event-loop delay histogram
// and the process's CPU time read over IPC, so no production endpoint exposes them.
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../server/app';

interface BenchServerOptions {
  dataDir?: string;
  databaseUrl?: string;
  adminPassword: string;
  /** The bundle to serve (the bench's snapshot of dist/, which other work may rebuild meanwhile). */
  distDir: string;
}

type Command = { type: 'eld-start' } | { type: 'eld-stop' } | { type: 'cpu' } | { type: 'memory' } | { type: 'stop' };

/** Sampling interval of the histogram; every sample includes it, so it is subtracted. */
const ELD_RESOLUTION_MS = 5;
const loginPage = readFileSync(new URL('./login-page.html', import.meta.url), 'utf8');
const fromRoot = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

const options = JSON.parse(process.env.IAM_BENCH_SERVER ?? '{}') as BenchServerOptions;
const app = await buildApp({
  ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : { dataDir: options.dataDir ?? './data' }),
  adminPassword: options.adminPassword,
  logger: false,
  staticRoots: { dist: options.distDir, demo: fromRoot('demo'), publicDir: fromRoot('server/public') },
  rateLimits: { login: { max: 1_000_000, timeWindow: 60_000 } },
});
// The same application stack without authentication or database: the ceiling of this machine.
app.get('/bench/ping', async () => ({ code: 0, message: 'ok', data: null }));
app.get('/bench/login.html', (_request, reply) => reply.type('text/html; charset=utf-8').send(loginPage));
await app.listen({ port: 0, host: '127.0.0.1' });

const histogram = monitorEventLoopDelay({ resolution: ELD_RESOLUTION_MS });
const ms = (nanoseconds: number) => Math.max(0, nanoseconds / 1e6 - ELD_RESOLUTION_MS);

async function stop() {
  await app.close();
  process.exit(0);
}

process.on('message', (command: Command) => {
  if (command.type === 'eld-start') {
    histogram.reset();
    histogram.enable();
  } else if (command.type === 'eld-stop') {
    histogram.disable();
    process.send?.({ type: 'eld', p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), samples: histogram.count });
  } else if (command.type === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send?.({ type: 'cpu', micros: user + system });
  } else if (command.type === 'memory') {
    // maxRSS: the process's peak resident memory so far (KiB).
    process.send?.({ type: 'memory', rss: process.memoryUsage().rss, peakRss: process.resourceUsage().maxRSS * 1024 });
  } else if (command.type === 'stop') void stop();
});
// The bench went away (crashed or was killed): do not outlive it.
process.on('disconnect', () => void stop());

const address = app.server.address();
process.send?.({ type: 'ready', port: typeof address === 'object' && address ? address.port : 0, engine: app.ctx.engine, node: process.version });
