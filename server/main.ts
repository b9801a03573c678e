// The production entry (compiled to dist-server/main.js): start the server, print where it
// listens, and on SIGTERM/SIGINT keep serving for the grace period while the proxies move away
// (server/http/draining.ts), then drain the requests in flight and close the database.
import { Server } from 'node:net';
import { buildApp } from './app';
import { backupCommand } from './backup';
import { resolveConfig } from './config';
import { startFailure } from './start-failure';

// The static folders are found from this file's location (see server/config.ts), not the
// working directory.
const options = { logger: process.env.IAM_LOG !== '0' };

/** Every failure to start is one line naming the cause and the setting to change (never a stack,
 *  nor the bundle's minified source line an uncaught error would print). */
function cannotStart(error: unknown): never {
  process.stderr.write(`Cannot start: ${startFailure(error, { databaseUrl: config.databaseUrl, dataDir: config.dataDir, port, host })}\n`);
  process.exit(1);
}

const host = process.env.HOST ?? 'localhost';
const port = Number(process.env.PORT ?? 8080);
let config: ReturnType<typeof resolveConfig>;
try {
  config = resolveConfig(options);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT=${process.env.PORT}: not a port number (0 to 65535)`);
} catch (error) {
  process.stderr.write(`Cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
// `iam-console-server backup <file>`: a copy of the running server's database instead of a server.
if (process.argv[2] === 'backup') process.exit(backupCommand(process.argv.slice(3), config));
const app = await buildApp({ ...options, listenHost: host }).catch(cannotStart);

/** After it stops listening, how long the process waits for the request of a connection it has just accepted. */
const IDLE_CLOSE_DELAY_MS = 1_000;

let endGrace: (() => void) | undefined;
async function shutdown(signal: string) {
  if (app.lifecycle.draining) {
    // A second signal ends the grace period now (Ctrl-C twice).
    endGrace?.();
    return;
  }
  app.lifecycle.draining = true;
  const graceMs = app.ctx.config.shutdownGraceMs;
  app.log.info(
    `${signal}: not ready; serving for ${graceMs / 1000} s more (IAM_SHUTDOWN_GRACE_MS; ${signal} again stops now), then draining requests and closing the database`,
  );
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, graceMs);
    endGrace = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  // Stop listening without http's close(), which also closes the idle connections at once: a
  // connection accepted a moment ago has not sent its request yet and counts as idle, and closing it
  // resets the request the proxy is sending. Each connection ends after its next answer
  // (`Connection: close`); the ones still idle a moment later (a proxy's unused keep-alive pool) are closed.
  const drained = new Promise<void>((resolve) => Server.prototype.close.call(app.server, () => resolve()));
  setTimeout(() => app.server.closeIdleConnections(), IDLE_CLOSE_DELAY_MS).unref();
  await drained;
  // The requests in flight are answered: the onClose hooks close the database.
  await app.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port, host }).catch(cannotStart);
// Without IAM_PUBLIC_URL the listening address stands in: say so now, not at the first request needing it.
app.ctx.site.origin();
