// What a proxy in front may send that this server does not follow, told once per process in the
// log (where an operator looks when the console stays blank or every client shares one address):
// - X-Forwarded-Prefix: the proxy serves it under a sub-path (https://intranet.example/iam/), which
//   is not supported (server/config.ts: an IAM_PUBLIC_URL with a path stops the start);
// - `Forwarded` (RFC 7239) without X-Forwarded-For: not read, so the client's address would be the
//   proxy's for rate limits, lockout and the audit log (X-Forwarded-For and -Proto are read, from
//   the proxies of IAM_TRUST_PROXY).
import type { FastifyInstance, FastifyRequest } from 'fastify';

const WARNINGS: { header: string; applies: (request: FastifyRequest) => boolean; text: (value: string) => string }[] = [
  {
    header: 'x-forwarded-prefix',
    applies: (request) => !['', '/'].includes(String(request.headers['x-forwarded-prefix']).trim()),
    text: (value) =>
      `a proxy forwards this server under the sub-path ${value} (X-Forwarded-Prefix): serving it under a sub-path is not supported (the console, the bundle, the API and the cookies live at the root); give it an origin of its own whose / the proxy sends to the server's / (docs/deployment.md, "nginx in front")`,
  },
  {
    header: 'forwarded',
    applies: (request) => request.headers['x-forwarded-for'] === undefined,
    text: (value) =>
      `a proxy sends Forwarded: ${value.slice(0, 100)} without X-Forwarded-For: this server reads X-Forwarded-For and X-Forwarded-Proto only (from IAM_TRUST_PROXY), so every client counts as the proxy's address in rate limits, lockout and the audit log; have the proxy set X-Forwarded-For (docs/deployment.md, "nginx in front")`,
  },
];

export function warnOfUnfollowedProxyHeaders(app: FastifyInstance): void {
  const pending = new Set(WARNINGS);
  app.addHook('onRequest', (request, _reply, done) => {
    if (pending.size) {
      for (const warning of pending) {
        const value = request.headers[warning.header];
        if (typeof value !== 'string' || !warning.applies(request)) continue;
        pending.delete(warning);
        request.log.warn({ peer: request.socket.remoteAddress }, warning.text(value));
      }
    }
    done();
  });
}
