// A process between SIGTERM and its exit (server/main.ts) keeps serving for the grace period while
// it tells the proxies in front to go elsewhere: /health/ready answers 503 "shutting down" (in the
// envelope) and every answer carries `Connection: close`, so a proxy's keep-alive connection ends
// with the answer on it instead of being cut while the proxy sends its next request down it.
import type { FastifyInstance } from 'fastify';

export interface Lifecycle {
  /** Set once SIGTERM (or SIGINT) arrived; never cleared. */
  draining: boolean;
}

export function closeConnectionsWhileDraining(app: FastifyInstance, lifecycle: Lifecycle): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (lifecycle.draining) reply.header('connection', 'close');
    done(null, payload);
  });
}
