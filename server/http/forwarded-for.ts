// The client address a trusted proxy gives, without a port. Some proxies write the client's source
// port into X-Forwarded-For (Azure Application Gateway v2 by default: `198.51.100.7:40001`,
// `[2001:db8::7]:40001`); Fastify's proxy-addr takes such an entry whole, so each new connection of
// one client would be another client for the per-IP limits, and the audit log and the metrics
// allow-list would see `ip:port`. Each entry loses its port before anything reads `request.ip`
// (Fastify computes it from the header on every read).
import type { FastifyInstance } from 'fastify';
import { isIP } from 'node:net';

const V4_WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/;
const V6_BRACKETED = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/i;

/** `entry` as an address alone when it is one with a port (or in brackets); else unchanged. */
export function withoutPort(entry: string): string {
  const address = V4_WITH_PORT.exec(entry)?.[1] ?? V6_BRACKETED.exec(entry)?.[1];
  return address !== undefined && isIP(address) ? address : entry;
}

/** Registered before the hooks that read `request.ip` (the rate limits among them). */
export function forwardedForWithoutPorts(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const header = request.raw.headers['x-forwarded-for'];
    if (typeof header === 'string' && /[:\]]\d/.test(header)) {
      request.raw.headers['x-forwarded-for'] = header
        .split(',')
        .map((entry) => withoutPort(entry.trim()))
        .join(', ');
    }
    done();
  });
}
