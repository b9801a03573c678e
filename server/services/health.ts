// Whether the server is ready for traffic (server/routes/health.ts): the database answers and has
// run every migration this server knows.
import type { Db } from '../db/connect';
import { ApiError, unavailable } from '../http/errors';

/** The readiness check gives the database this long to answer. */
const READY_TIMEOUT_MS = 1_000;

/** What the readiness check needs of the database. */
export type ReadinessProbe = Pick<Db, 'reachable' | 'pendingMigrations'>;

/** Why the server is not ready (a 503 with the reason), or undefined when it is. `draining`: the
 *  process got SIGTERM and stops after its grace period (server/http/draining.ts). */
export async function unreadiness(db: ReadinessProbe, draining = false): Promise<ApiError | undefined> {
  const notReady = (reason: string) => new ApiError(503, unavailable().message, { status: 'unready', reason });
  if (draining) return notReady('shutting down');
  if (!(await db.reachable(READY_TIMEOUT_MS))) return notReady('database unreachable');
  const pending = await db.pendingMigrations().catch(() => undefined);
  if (pending === undefined) return notReady('database unreachable');
  if (pending.length) return new ApiError(503, 'Database migrations are pending', { status: 'unready', reason: 'migrations pending', pending });
  return undefined;
}
