// Health checks for a proxy or an orchestrator, with no sign-in and nothing secret in the answer,
// at /health/live and /health/ready (and their older aliases under /api): live answers while the
// process runs (restart it when this fails); ready answers 200 only while the database answers and
// has run every migration this server knows (send it no traffic while this answers 503).
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/connect';
import { ok } from '../http/envelope';
import { ApiError, unavailable } from '../http/errors';

/** The readiness check gives the database this long to answer. */
const READY_TIMEOUT_MS = 1_000;

const answerDoc = { type: 'object', properties: { code: { type: 'integer' }, message: { type: 'string' }, data: { type: 'object', properties: { status: { type: 'string' } } } } };
const doc = (summary: string, hide: boolean) => ({ tags: ['health'], summary, description: 'No sign-in needed.', hide, response: { 200: answerDoc, 503: answerDoc } });

/** Why the server is not ready, or undefined when it is. */
async function unreadiness(db: Pick<Db, 'reachable' | 'pendingMigrations'>): Promise<ApiError | undefined> {
  const notReady = (reason: string) => new ApiError(503, unavailable().message, { status: 'unready', reason });
  if (!(await db.reachable(READY_TIMEOUT_MS))) return notReady('database unreachable');
  const pending = await db.pendingMigrations().catch(() => undefined);
  if (pending === undefined) return notReady('database unreachable');
  if (pending.length) return new ApiError(503, 'Database migrations are pending', { status: 'unready', reason: 'migrations pending', pending });
  return undefined;
}

/** `hide`: left out of the OpenAPI document (the root paths, which repeat the /api ones). */
export function healthRoutes(app: FastifyInstance, db: Pick<Db, 'reachable' | 'pendingMigrations'>, { hide = false } = {}): void {
  app.get('/health/live', { schema: doc('The process is running', hide) }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return ok({ status: 'live' });
  });
  app.get('/health/ready', { schema: doc('The database answers and every migration has run (503 with the reason otherwise)', hide) }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const refusal = await unreadiness(db);
    if (refusal) throw refusal;
    return ok({ status: 'ready' });
  });
}
