// A bounded load test (the short version of `npm run bench`'s soak, same functions from
// bench/load.mjs): a database seeded with a few thousand users (server/seed), a burst of parallel
// sign-ins, then ~20 s of mixed load — sign-in, session checks, pages of the user list, sign-out.
// Zero errors and zero 5xx; memory stable after the warm-up — the live heap after a full collection
// grows < 20 MB (a leak shows there first), and RSS by < 160 MB (V8 sizes its heap to the load: on
// Node.js 24 the heap's reserve grows ~60 MB more than on 20 while the live heap stays flat); the event loop
// responsive (delay p99 < 500 ms on a shared 2-core machine). The server runs in this process, so
// the figures include the load generator's own work: they are upper bounds for the server.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startServer, type TestServer } from './harness';
import { DEFAULT_SEED_PASSWORD, seedDatabase } from '../../server/seed/seed';
import { hashPassword } from '../../server/auth/kdf';
import { transformNewPassword } from '../../src/core/password';

interface Cookie {
  name: string;
  value: string;
  header: string;
}
interface SoakResult {
  requests: number;
  errors: number;
  serverErrors: number;
  signIns: number;
  sessionChecks: number;
  lists: number;
  signOuts: number;
  firstError: string | null;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
}
// bench/load.mjs is plain JavaScript without typings: imported by URL, with what it gives.
const load = (await import(new URL('../../bench/load.mjs', import.meta.url).href)) as {
  signIn(base: string, username: string, password: string): Promise<Cookie>;
  sampleUsers(base: string, cookie: Cookie, pages: number): Promise<{ username: string; availabilityStatus: number }[]>;
  loginBurst(base: string, usernames: string[], password: string): Promise<{ signIns: number; seconds: number; perSecond: number }>;
  soak(
    base: string,
    options: { adminCookie: Cookie; usernames: string[]; password: string; seconds: number; workers?: number; sample?: () => void },
  ): Promise<SoakResult>;
};

const USERS = 3_000;
const WARM_UP_SECONDS = 6;
const SOAK_SECONDS = Number(process.env.IAM_LOAD_SECONDS ?? 20);
const MB = 1024 * 1024;

// A full collection on demand, without starting Node.js with --expose-gc.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
/** The heap still in use after a full collection. */
function liveHeap(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

let server: TestServer;

before(async () => {
  server = await startServer({ rateLimits: { login: { max: 100_000, timeWindow: 60_000 } } });
  const passwordHash = await hashPassword(await transformNewPassword(DEFAULT_SEED_PASSWORD));
  const seeding = performance.now();
  const summary = await seedDatabase(server.app.ctx.db, { users: USERS, passwordHash, now: Date.now() });
  console.log(`load: seeded ${summary.totalUsers} users in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
  assert.ok(summary.totalUsers >= USERS, `seeded ${summary.totalUsers}`);
});
after(async () => {
  await server.stop();
});

test(
  `a sign-in burst and ${SOAK_SECONDS} s of mixed load: no errors, stable memory, a responsive event loop`,
  { timeout: (SOAK_SECONDS + WARM_UP_SECONDS + 60) * 1000 },
  async () => {
    const admin = await load.signIn(server.base, 'admin', 'Admin123!');
    const usernames = (await load.sampleUsers(server.base, admin, 3))
      .filter((user) => user.availabilityStatus === 1 && user.username !== 'admin')
      .map((user) => user.username);
    assert.ok(usernames.length >= 100, `only ${usernames.length} enabled seeded users`);

    const burst = await load.loginBurst(server.base, usernames.slice(0, 24), DEFAULT_SEED_PASSWORD);
    // Warm-up: the first sign-ins, statement caches, the heap growing to its working size.
    // Its peak RSS is the baseline: each sign-in's KDF takes 19 MiB outside the heap for a moment, so
    // the working size is a peak under the same concurrency, not a quiet reading.
    const warmUpRss: number[] = [];
    const sampleWarmUp = () => warmUpRss.push(process.memoryUsage().rss);
    const warmUp = await load.soak(server.base, {
      adminCookie: admin,
      usernames,
      password: DEFAULT_SEED_PASSWORD,
      seconds: WARM_UP_SECONDS,
      sample: sampleWarmUp,
    });
    assert.equal(warmUp.errors, 0, warmUp.firstError ?? '');
    sampleWarmUp();
    const liveHeapAfterWarmUp = liveHeap();

    const delay = monitorEventLoopDelay({ resolution: 10 });
    const rss: number[] = [];
    const rssAfterWarmUp = Math.max(...warmUpRss);
    delay.enable();
    const result = await load.soak(server.base, {
      adminCookie: admin,
      usernames,
      password: DEFAULT_SEED_PASSWORD,
      seconds: SOAK_SECONDS,
      sample: () => rss.push(process.memoryUsage().rss),
    });
    delay.disable();
    const rssAtEnd = process.memoryUsage().rss;
    const growth = (Math.max(rssAtEnd, ...rss) - rssAfterWarmUp) / MB;
    const p99 = delay.percentile(99) / 1e6;
    const heapGrowth = (liveHeap() - liveHeapAfterWarmUp) / MB;

    console.log(
      `load: burst ${burst.signIns} sign-ins in ${burst.seconds.toFixed(2)} s (${burst.perSecond.toFixed(1)}/s); ` +
        `soak ${result.seconds.toFixed(1)} s: ${result.requests} requests (${result.perSecond.toFixed(0)}/s; ${result.signIns} sign-ins, ${result.sessionChecks} session checks, ` +
        `${result.lists} list pages, ${result.signOuts} sign-outs), ${result.errors} errors, ${result.serverErrors} 5xx, latency p50 ${result.p50.toFixed(1)} ms p99 ${result.p99.toFixed(1)} ms; ` +
        `RSS peak in warm-up ${(rssAfterWarmUp / MB).toFixed(0)} MB, at the end ${(rssAtEnd / MB).toFixed(0)} MB (peak growth ${growth.toFixed(1)} MB), live heap growth ${heapGrowth.toFixed(1)} MB; event-loop delay p99 ${p99.toFixed(1)} ms, max ${(delay.max / 1e6).toFixed(1)} ms`,
    );

    assert.equal(result.serverErrors, 0, result.firstError ?? '');
    assert.equal(result.errors, 0, result.firstError ?? '');
    assert.ok(result.signIns >= 20 && result.lists >= 100 && result.sessionChecks >= 100, 'the load really ran');
    assert.ok(heapGrowth < 20, `the live heap grew ${heapGrowth.toFixed(1)} MB`);
    assert.ok(growth < 160, `RSS grew ${growth.toFixed(1)} MB`);
    assert.ok(p99 < 500, `event-loop delay p99 ${p99.toFixed(1)} ms`);
    // The sessions of the soak were signed out: none piles up.
    const left = await server.app.ctx.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    assert.ok(Number(left.count) <= 30, `${left.count} sessions left`);
  },
);
