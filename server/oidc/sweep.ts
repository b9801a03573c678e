// Expired provider records (codes, tokens, sessions, interactions, grants) are deleted in the
// background: a bounded batch at a time, oldest first, along the expires_at index, so a sweep never
// holds the table for long and a backlog drains over a few ticks. Every server process sweeps;
// deleting what another process already deleted does no harm.
import type { Kysely } from 'kysely';
import type { OidcDatabase } from './tables';

export const SWEEP_BATCH = 500;
const SWEEP_EVERY_MS = 60_000;
/** Batches per tick at most: a large backlog waits for the next tick instead of running on. */
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

export class ExpirySweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly db: Kysely<OidcDatabase>,
    private readonly now: () => number,
    private readonly log: (error: unknown) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running ??= this.tick()
        .catch(this.log)
        .finally(() => {
          this.running = undefined;
        });
    }, SWEEP_EVERY_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private async tick(): Promise<void> {
    for (let round = 0; round < BATCHES_PER_TICK; round++) {
      if ((await sweepExpired(this.db, this.now())) < SWEEP_BATCH) return;
    }
  }
}
