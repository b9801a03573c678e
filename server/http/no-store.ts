// Answers about a person, a session or a secret: no browser or proxy keeps a copy (a shared
// computer's back button, a proxy's cache).
import type { FastifyInstance } from 'fastify';

/** Marks every answer of `scope` (its errors too) `Cache-Control: no-store`. Set on the socket's
 *  answer, so answers that bypass Fastify's reply (the OIDC provider's) carry it too; a route whose
 *  answer is public (an uploaded file by its content address) sets its own. */
export function keepNoCopies(scope: FastifyInstance): void {
  scope.addHook('onRequest', (_request, reply, done) => {
    reply.raw.setHeader('cache-control', 'no-store');
    done();
  });
}
