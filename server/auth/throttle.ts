// Failed sign-in counters and lockout, kept per typed identifier whether or not such a user
// exists, so that answers and timings never tell known from unknown usernames.
import { sql } from 'kysely';
import type { Ctx } from '../context';
import type { LoginSettings } from '../../src/core/schemas/settings';
import type { UserRow } from './actor';
import { tooMany } from '../http/errors';

export const throttleKey = (identifier: string) => identifier.trim().toLowerCase();

export interface ThrottleState {
  failures: number;
  lockedUntil: number | null;
}

export async function throttleState(ctx: Ctx, key: string): Promise<ThrottleState> {
  const row = await ctx.db.selectFrom('loginThrottle').select(['failures', 'lockedUntil']).where('username', '=', key).executeTakeFirst();
  if (!row) return { failures: 0, lockedUntil: null };
  if (row.lockedUntil !== null && row.lockedUntil <= ctx.now()) {
    // The lock has run out: start counting afresh.
    await clearFailures(ctx, [key]);
    return { failures: 0, lockedUntil: null };
  }
  return row;
}

/** The answer to a sign-in attempt on a locked name (the same for known and unknown names). */
export const lockedError = (policy: LoginSettings) => tooMany(`Too many failed sign-ins. Try again in ${policy.lockMinutes} minutes`);

/** Counts one failure; locks when the count reaches the policy's maximum. */
export async function recordFailure(ctx: Ctx, key: string, policy: LoginSettings): Promise<ThrottleState> {
  const now = ctx.now();
  await ctx.db.insertInto('loginThrottle').values({ username: key, failures: 1, lockedUntil: null, updatedAt: now })
    .onConflict((oc) => oc.column('username').doUpdateSet({ failures: sql`login_throttle.failures + 1`, updatedAt: now }))
    .execute();
  const state = await ctx.db.selectFrom('loginThrottle').select(['failures', 'lockedUntil']).where('username', '=', key).executeTakeFirstOrThrow();
  if (state.failures >= policy.maxFailures && state.lockedUntil === null) {
    const lockedUntil = now + policy.lockMinutes * 60_000;
    await ctx.db.updateTable('loginThrottle').set({ lockedUntil }).where('username', '=', key).execute();
    return { failures: state.failures, lockedUntil };
  }
  return state;
}

export async function clearFailures(ctx: Ctx, keys: string[]): Promise<void> {
  if (keys.length) await ctx.db.deleteFrom('loginThrottle').where('username', 'in', keys).execute();
}

/** Every identifier a user can sign in with (username, email, mobile phone), as throttle keys. */
export const keysOfUser = (user: Pick<UserRow, 'username' | 'email' | 'mobilePhone'>) =>
  [user.username, user.email, user.mobilePhone].filter((value): value is string => Boolean(value)).map(throttleKey);

export async function lockedKeys(ctx: Ctx, keys: string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await ctx.db.selectFrom('loginThrottle').select('username')
    .where('username', 'in', keys).where('lockedUntil', '>', ctx.now()).execute();
  return new Set(rows.map((row) => row.username));
}
