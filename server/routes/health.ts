// Health checks for a proxy or an orchestrator, with no sign-in and nothing secret in the answer:
// /api/health/live answers while the process runs (restart it when this fails); /api/health/ready
// answers 200 only while the database answers too (send it no traffic while this answers 503).
import type { FastifyInstance } from 'fastify';
import { ok } from '../http/envelope';
import { unavailable } from '../http/errors';

/** The readiness check gives the database this long to answer `select 1`. */
const READY_TIMEOUT_MS = 1_000;

const answerDoc = { type: 'object', properties: { code: { type: 'integer' }, message: { type: 'string' }, data: { type: 'object', properties: { status: { type: 'string' } } } } };
const doc = (summary: string) => ({ tags: ['health'], summary, description: 'No sign-in needed.', response: { 200: answerDoc, 503: answerDoc } });

export function healthRoutes(app: FastifyInstance, databaseReachable: (timeoutMs: number) => Promise<boolean>): void {
  app.get('/health/live', { schema: doc('The process is running') }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return ok({ status: 'live' });
  });
  app.get('/health/ready', { schema: doc('The process and its database answer (503 while the database cannot be reached)') }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!(await databaseReachable(READY_TIMEOUT_MS))) throw unavailable();
    return ok({ status: 'ready' });
  });
}
