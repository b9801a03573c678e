// The production entry (compiled to dist-server/main.js): start the server, print where it
// listens, and on SIGTERM/SIGINT drain requests and close the database before exiting.
import { buildApp } from './app';
import { resolveConfig } from './config';

// The static folders are found from this file's location (see server/config.ts), not the
// working directory.
const options = { logger: process.env.IAM_LOG !== '0' };
// A configuration the server refuses (IAM_PUBLIC_URL missing in production, IAM_TRUST_PROXY=1, …)
// is told in one line, without a stack.
try {
  resolveConfig(options);
} catch (error) {
  process.stderr.write(`Cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
const app = await buildApp(options);
const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? 'localhost';

let closing = false;
// While draining, every answer closes its connection: a client or a proxy keeping its keep-alive
// connection open would otherwise hold the process up long after the last request in flight.
app.addHook('onSend', (_request, reply, payload, done) => {
  if (closing) reply.header('connection', 'close');
  done(null, payload);
});
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info(`${signal}: draining requests and closing the database`);
  // Fastify's close() stops accepting connections, waits for in-flight requests, then runs the
  // onClose hooks (the database).
  await app.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port, host });
// Without IAM_PUBLIC_URL the listening address stands in: say so now, not at the first request needing it.
app.ctx.site.origin();
