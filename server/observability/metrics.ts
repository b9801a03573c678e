// GET /metrics in Prometheus's text format (prom-client): requests by route pattern and status, a
// latency histogram, sign-ins by outcome, names locked now, active sessions, the password KDF's
// queue, and Node's own figures (event-loop lag, memory, CPU). One registry per server instance.
// Who may read it: metrics-access.ts.
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Ctx } from '../context';
import { kdfLoad } from '../auth/kdf';
import { forbidden } from '../http/errors';
import { metricsAccess } from './metrics-access';

/** Latency buckets in seconds: a session check takes about a millisecond, a sign-in's KDF tens. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

function registry(ctx: Ctx) {
  const register = new Registry();
  collectDefaultMetrics({ register });
  const requests = new Counter({
    name: 'iam_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    registers: [register],
  });
  const latency = new Histogram({
    name: 'iam_http_request_duration_seconds',
    help: 'Time to answer a request, by method and route pattern',
    labelNames: ['method', 'route'],
    buckets: LATENCY_BUCKETS,
    registers: [register],
  });
  const signIns = new Counter({
    name: 'iam_sign_ins_total',
    help: 'Sign-in attempts by outcome (success, third_party, second_step, failure, locked)',
    labelNames: ['outcome'],
    registers: [register],
  });
  ctx.audit.listen(({ action }) => {
    if (action.startsWith('login.')) signIns.inc({ outcome: action.slice('login.'.length) });
  });
  new Gauge({
    name: 'iam_locked_names',
    help: 'Sign-in names locked now after too many failed attempts',
    registers: [register],
    async collect() {
      const { count } = await ctx.db
        .selectFrom('loginThrottle')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('lockedUntil', '>', ctx.now())
        .executeTakeFirstOrThrow();
      this.set(Number(count));
    },
  });
  new Gauge({
    name: 'iam_active_sessions',
    help: 'Console sessions not yet expired (cookie and token)',
    registers: [register],
    async collect() {
      const { count } = await ctx.db
        .selectFrom('sessions')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('expiresAt', '>', ctx.now())
        .executeTakeFirstOrThrow();
      this.set(Number(count));
    },
  });
  new Gauge({
    name: 'iam_kdf_running',
    help: 'Password KDF (Argon2id) runs in progress in this process',
    registers: [register],
    collect() {
      this.set(kdfLoad().running);
    },
  });
  new Gauge({
    name: 'iam_kdf_queued',
    help: 'Password KDF (Argon2id) runs waiting for a place in this process',
    registers: [register],
    collect() {
      this.set(kdfLoad().waiting);
    },
  });

  return { register, requests, latency };
}

/** Counts every answer from now on, and serves GET /metrics to the clients the configuration allows. */
export function metricsRoutes(app: FastifyInstance, ctx: Ctx): void {
  const { register, requests, latency } = registry(ctx);
  app.addHook('onResponse', (request, reply, done) => {
    // The route's pattern (/api/user/:id), never the URL: one series per route, whatever the ids.
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: reply.statusCode });
    latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    done();
  });
  const mayRead = metricsAccess(ctx.config.metrics);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!mayRead(request)) throw forbidden('Metrics are not available to this client');
    reply.header('cache-control', 'no-store').type(register.contentType);
    return register.metrics();
  });
}
