// Failed sign-in counters and lockout, kept per typed identifier whether or not such a user
// exists, so that answers and timings never tell known from unknown usernames.
//
// Each count belongs to an identifier of one kind (username, email or mobile phone: the column the
// login method compares). Usernames, emails and phones are each unique, but a username may be
// someone else's phone number or email (an administrator, a SCIM client or a first-time
// third-party sign-in picks it, and a phone may later change to equal it): a count keyed by the
// bare text would be shared by two accounts, and one person's sign-in, clearing the keys of their
// own identifiers, would reset the lockout of the other's. Keyed by kind, a (kind, value) names at
// most one account, under every login method, so a success clears only its own account's counts.
// (Refusing such usernames instead would need a check on every write of a username, an email and a
// phone, racing with the other writes.)
//
// A value is keyed as that column compares it (server/auth/contacts.ts, accountByIdentifier):
// phones exactly, emails in lower case (their unique index is on lower(email)), usernames with
// their ASCII letters in lower case (one name whatever its case, server/auth/usernames.ts): typing
// `ADMIN`, `Admin` and `admin` counts against one lockout, as all three sign in to one account.
// Case twins kept from before usernames were unique in any case share one count (a success of
// either clears it; neither can be tried more often than the policy allows). Rows written when
// usernames were keyed as typed are left as they are: a mixed-case key then names nobody's count,
// which starts afresh.
import { sql } from 'kysely';
import type { Ctx } from '../context';
import type { LoginSettings } from '../../src/core/schemas/settings';
import type { UserRow } from './actor';
import { tooMany } from '../http/errors';
import { usernameKey } from './usernames';
import { InTurn } from './in-turn';

/** The columns a sign-in identifier is compared with, and the prefix of each one's counts. */
const KIND_PREFIX = { username: 'username', email: 'email', mobilePhone: 'phone' } as const;
export type IdentifierKind = keyof typeof KIND_PREFIX;

/** The failure count's key of an identifier of `kind`, e.g. `phone:13900000000`: one account's at most. */
export const throttleKey = (kind: IdentifierKind, identifier: string) => {
  const value = identifier.trim();
  return `${KIND_PREFIX[kind]}:${kind === 'email' ? value.toLowerCase() : kind === 'username' ? usernameKey(value) : value}`;
};

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

/** One attempt's place in the failure count, taken before the attempt is checked. */
export class FailureSlot {
  private settled = false;

  constructor(
    private readonly ctx: Ctx,
    private readonly key: string,
    private readonly policy: LoginSettings,
    /** Failures counted before this attempt, attempts still in flight included. */
    readonly before: number,
    /** True when this attempt took the last place: the name is locked already, and stays locked if it fails. */
    readonly locks: boolean,
  ) {}

  /** The attempt failed: its place stays counted. */
  keep(): void {
    this.settled = true;
  }

  /** The attempt signed in: the counts of every name of the person start afresh, the one this
   *  attempt was counted under too (a spelling that is none of them: `CORP\name`, a principal name). */
  async clear(keys: string[]): Promise<void> {
    this.settled = true;
    await clearFailures(this.ctx, [...new Set([this.key, ...keys])]);
  }

  /** Unless kept or cleared (the attempt was refused before its check, or passed a step without
   *  finishing), the place is given back, and with it a lock it took. */
  async release(): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    await this.ctx.db
      .updateTable('loginThrottle')
      .set({ failures: sql`failures - 1`, lockedUntil: sql`case when failures - 1 >= ${this.policy.maxFailures} then locked_until end` })
      .where('username', '=', this.key)
      .where('failures', '>', 0)
      .execute();
  }
}

/**
 * Takes a place in the failure count for an attempt, before its password or code is checked: one
 * statement, so parallel attempts in any number of processes each get their own place and no more
 * than policy.maxFailures are ever checked. The attempt taking the last place locks the name at
 * once (a lock that ran out starts the count afresh). Undefined when the name is locked: the
 * attempt is refused without running the KDF.
 */
async function reserveFailure(ctx: Ctx, key: string, policy: LoginSettings): Promise<FailureSlot | undefined> {
  const now = ctx.now();
  const lockedUntil = now + policy.lockMinutes * 60_000;
  const lockRanOut = sql<boolean>`login_throttle.locked_until <= ${now}`;
  const failures = sql<number>`case when ${lockRanOut} then 1 else login_throttle.failures + 1 end`;
  const row = await ctx.db
    .insertInto('loginThrottle')
    .values({ username: key, failures: 1, lockedUntil: policy.maxFailures <= 1 ? lockedUntil : null, updatedAt: now })
    .onConflict((oc) =>
      oc
        .column('username')
        .doUpdateSet({ failures, lockedUntil: sql`case when ${failures} >= ${policy.maxFailures} then cast(${lockedUntil} as bigint) end`, updatedAt: now })
        .where(sql<boolean>`(login_throttle.locked_until is null or ${lockRanOut})`),
    )
    .returning(['failures', 'lockedUntil'])
    .executeTakeFirst();
  return row && new FailureSlot(ctx, key, policy, row.failures - 1, row.lockedUntil !== null);
}

/** Each identifier's attempts, one at a time in this process (by throttle key). */
const attemptsInTurn = new InTurn();

/** Runs `attempt` holding a place in `key`'s failure count (reserveFailure) and gives the place back
 *  afterwards unless the attempt kept or cleared it. A locked name runs `onLocked`, then is refused.
 *  Attempts on one key run one after another: held at once, a burst's places reached the lockout
 *  before any was decided, so a burst of right passwords (a double-click, a retrying client, a
 *  directory person's first sign-ins) locked the account; in turn, each right one clears the count
 *  before the next reserves. Across processes places are still held at once (at most one per
 *  process). */
export function withFailureSlot<T>(
  ctx: Ctx,
  key: string,
  policy: LoginSettings,
  attempt: (slot: FailureSlot) => Promise<T>,
  onLocked?: () => Promise<void>,
): Promise<T> {
  return attemptsInTurn.run(key, async () => {
    const slot = await reserveFailure(ctx, key, policy);
    if (!slot) {
      await onLocked?.();
      throw lockedError(policy);
    }
    try {
      return await attempt(slot);
    } finally {
      await slot.release();
    }
  });
}

/** Forgets the failure counts (and locks) of `keys`; answers how many names had one. */
export async function clearFailures(ctx: Ctx, keys: string[]): Promise<number> {
  if (!keys.length) return 0;
  const { numDeletedRows } = await ctx.db.deleteFrom('loginThrottle').where('username', 'in', keys).executeTakeFirst();
  return Number(numDeletedRows);
}

/** Every identifier a user can sign in with (username, email, mobile phone), as throttle keys. */
export const keysOfUser = (user: Pick<UserRow, IdentifierKind>) =>
  (Object.keys(KIND_PREFIX) as IdentifierKind[]).flatMap((kind) => (user[kind] ? [throttleKey(kind, user[kind])] : []));

export async function lockedKeys(ctx: Ctx, keys: string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await ctx.db.selectFrom('loginThrottle').select('username').where('username', 'in', keys).where('lockedUntil', '>', ctx.now()).execute();
  return new Set(rows.map((row) => row.username));
}
