// Scheduled synchronisations: every minute each process looks for enabled connections whose
// interval has passed since their last run and synchronises them one after the other; the claim in
// server/ldap/sync.ts keeps two processes from running the same connection at once.
import type { Ctx } from '../context';
import { ApiError } from '../http/errors';
import { settingsOf } from './connections';
import { synchronise } from './sync';

const TICK_MS = 60_000;

export class SyncScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly ctx: Ctx,
    private readonly log: (error: unknown) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running ??= this.tick()
        .catch(this.log)
        .finally(() => {
          this.running = undefined;
        });
    }, TICK_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Runs the connections that are due (exported for tests: they call it instead of waiting). */
  async tick(): Promise<void> {
    const now = this.ctx.now();
    const rows = await this.ctx.db.selectFrom('ldapConnections').selectAll().where('enabled', '=', 1).where('claimedUntil', '<', now).execute();
    for (const row of rows) {
      const minutes = settingsOf(row).syncIntervalMinutes;
      if (minutes === 0 || (row.lastSyncAt ?? 0) + minutes * 60_000 > now) continue;
      try {
        await synchronise(this.ctx, row, 'schedule', null);
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 409)) this.log(error);
      }
    }
  }
}
