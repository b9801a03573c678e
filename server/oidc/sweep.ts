// Expired provider records (codes, tokens, sessions, interactions, grants) are deleted in the
// background: a bounded batch at a time, oldest first, along the expires_at index, so a sweep never
// holds the table for long and a backlog drains over a few ticks. Every server process sweeps;
// deleting what another process already deleted does no harm.
import type { Kysely } from 'kysely';
import type { OidcDatabase } from './tables';
import { PeriodicTask } from '../periodic-task';

export const SWEEP_BATCH = 500;
const SWEEP_EVERY_MS = 60_000;
const BATCHES_PER_TICK = 20;

/** Deletes up to `batch` records that expired at or before `now`; answers how many. */
export async function sweepExpired(db: Kysely<OidcDatabase>, now: number, batch = SWEEP_BATCH): Promise<number> {
  const expired = db.selectFrom('oidcPayloads').select(['model', 'id']).where('expiresAt', '<=', now).orderBy('expiresAt').limit(batch);
  const result = await db
    .deleteFrom('oidcPayloads')
    .where((eb) => eb(eb.refTuple('model', 'id'), 'in', expired.$asTuple('model', 'id')))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The sweep every process runs each minute: batches until one comes back short, at most
 *  BATCHES_PER_TICK of them (a large backlog waits for the next tick instead of running on). */
export function expirySweepTask(db: Kysely<OidcDatabase>, now: () => number, log: (error: unknown) => void): PeriodicTask {
  return new PeriodicTask(
    SWEEP_EVERY_MS,
    async () => {
      for (let round = 0; round < BATCHES_PER_TICK; round++) {
        if ((await sweepExpired(db, now())) < SWEEP_BATCH) return;
      }
    },
    log,
  );
}
