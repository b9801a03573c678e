// The production entry (compiled to dist-server/main.js): start the server, print where it
// listens, and on SIGTERM/SIGINT keep serving for the grace period while the proxies move away
// (server/http/draining.ts), then drain the requests in flight and close the database.
import { buildApp } from './app';
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
const app = await buildApp(options).catch(cannotStart);

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
  // Fastify's close() stops accepting connections, closes the idle ones, waits for the requests in
  // flight, then runs the onClose hooks (the database).
  await app.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port, host }).catch(cannotStart);
// Without IAM_PUBLIC_URL the listening address stands in: say so now, not at the first request needing it.
app.ctx.site.origin();
