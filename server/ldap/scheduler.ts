// Scheduled synchronisations: every minute each process looks for enabled connections whose
// interval has passed since their last run and synchronises them one after the other; the claim in
// server/ldap/sync.ts keeps two processes from running the same connection at once.
import type { Ctx } from '../context';
import { ApiError } from '../http/errors';
import { PeriodicTask } from '../periodic-task';
import { settingsOf } from './connections';
import { synchronise } from './sync';

const TICK_MS = 60_000;

export function directorySyncTask(ctx: Ctx, log: (error: unknown) => void): PeriodicTask {
  return new PeriodicTask(TICK_MS, () => synchroniseDue(ctx, log), log);
}

/** Runs the connections that are due (one tick; tests call it instead of waiting a minute). */
export async function synchroniseDue(ctx: Ctx, log: (error: unknown) => void): Promise<void> {
  const now = ctx.now();
  const rows = await ctx.db.selectFrom('ldapConnections').selectAll().where('enabled', '=', 1).where('claimedUntil', '<', now).execute();
  for (const row of rows) {
    const minutes = settingsOf(row).syncIntervalMinutes;
    if (minutes === 0 || (row.lastSyncAt ?? 0) + minutes * 60_000 > now) continue;
    try {
      await synchronise(ctx, row, 'schedule', null);
    } catch (error) {
      // Another process claimed it between the read and the claim: it runs there.
      if (!(error instanceof ApiError && error.status === 409)) log(error);
    }
  }
}
