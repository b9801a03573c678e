// Health checks for a proxy or an orchestrator, with no sign-in and nothing secret in the answer,
// at /health/live and /health/ready (and their older aliases under /api): live answers while the
// process runs (restart it when this fails); ready answers 200 only while the database answers and
// has run every migration this server knows (send it no traffic while this answers 503; the check
// is server/services/health.ts). Plain routes, not defineRoute: no session is looked up.
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../http/envelope';
import { unreadiness, type ReadinessProbe } from '../services/health';
import type { Lifecycle } from '../http/draining';

const answerDoc = {
  type: 'object',
  properties: { code: { type: 'integer' }, message: { type: 'string' }, data: { type: 'object', properties: { status: { type: 'string' } } } },
};
const doc = (summary: string, hide: boolean) => ({
  tags: ['health'],
  summary,
  description: 'No sign-in needed.',
  hide,
  response: { 200: answerDoc, 503: answerDoc },
});

/** `hide`: left out of the OpenAPI document (the root paths, which repeat the /api ones). */
export const healthRoutes: FastifyPluginAsync<{ db: ReadinessProbe; lifecycle: Lifecycle; hide?: boolean }> = async (app, { db, lifecycle, hide = false }) => {
  app.get('/health/live', { schema: doc('The process is running', hide) }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return ok({ status: 'live' });
  });
  app.get(
    '/health/ready',
    { schema: doc('The database answers and every migration has run (503 with the reason otherwise)', hide) },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      const refusal = await unreadiness(db, lifecycle.draining);
      if (refusal) throw refusal;
      return ok({ status: 'ready' });
    },
  );
};
