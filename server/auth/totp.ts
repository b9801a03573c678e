// TOTP authenticator apps (RFC 6238 through otpauth): a person enrols from the personal center
// (the secret is shown once, as an otpauth:// URI and as text), confirms with a code, and from
// then on signs in with a code from the app as the second step. The secret is never answered
// again; a code is accepted once (replays of the same time step are refused).
import { sql, type Generated, type Kysely } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import type { Ctx } from '../context';
import type { Database } from '../db/tables';
import { ApiError } from '../http/errors';

export interface UserTotpTable {
  userId: string;
  /** Base32 secret. */
  secret: string;
  confirmedAt: number | null;
  /** The last time step a code was accepted for (replay protection). */
  lastStep: number;
  /** Codes tried and not (yet) accepted since `failuresSince`. */
  failures: Generated<number>;
  failuresSince: Generated<number>;
  createdAt: number;
}

const PERIOD_S = 30;
/** At most this many wrong codes per person in FAILURE_WINDOW_MS (a million codes, three valid at a time). */
const MAX_TOTP_FAILURES = 5;
const FAILURE_WINDOW_MS = 15 * 60_000;

const totpDb = (db: Kysely<Database>) => db.withTables<{ userTotp: UserTotpTable }>();

function totpOf(secret: string, label: string, issuer: string): TOTP {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: PERIOD_S, secret: Secret.fromBase32(secret) });
}

export async function totpEnabled(ctx: Ctx, userId: string): Promise<boolean> {
  const row = await totpDb(ctx.db).selectFrom('userTotp').select('confirmedAt').where('userId', '=', userId).executeTakeFirst();
  return row?.confirmedAt != null;
}

/** A new (unconfirmed) secret for the user, replacing an earlier unconfirmed one. */
export async function startEnrolment(ctx: Ctx, user: { id: string; username: string }, issuer: string) {
  if (await totpEnabled(ctx, user.id)) throw new ApiError(400, 'An authenticator is already set up; turn it off first');
  const secret = new Secret({ size: 20 }).base32;
  const row = { secret, confirmedAt: null, lastStep: 0, createdAt: ctx.now() };
  await totpDb(ctx.db)
    .insertInto('userTotp')
    .values({ userId: user.id, ...row })
    .onConflict((conflict) => conflict.column('userId').doUpdateSet(row))
    .execute();
  return { secret, uri: totpOf(secret, user.username, issuer).toString() };
}

/** True when `code` is right for the user's secret and its time step was not used before. Each
 *  try is counted before the comparison, in one statement, so parallel guesses share the
 *  MAX_TOTP_FAILURES tries of the window; an accepted code gives its try back. */
async function accept(ctx: Ctx, userId: string, code: string, confirmed: boolean): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false;
  const db = totpDb(ctx.db);
  const now = ctx.now();
  const windowOver = sql<boolean>`failures_since <= ${now - FAILURE_WINDOW_MS}`;
  const row = await db
    .updateTable('userTotp')
    .set({
      failures: sql`case when ${windowOver} then 1 else failures + 1 end`,
      failuresSince: sql`case when ${windowOver} then ${now} else failures_since end`,
    })
    .where('userId', '=', userId)
    .where('confirmedAt', confirmed ? 'is not' : 'is', null)
    .where((eb) => eb.or([eb('failures', '<', MAX_TOTP_FAILURES), windowOver]))
    .returning('secret')
    .executeTakeFirst();
  if (!row) return false;
  const delta = totpOf(row.secret, '', '').validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return false;
  const step = Math.floor(now / 1000 / PERIOD_S) + delta;
  // Conditional update: of two requests with the same code, only one wins (a replay stays counted).
  const updated = await db
    .updateTable('userTotp')
    .set({ lastStep: step, failures: sql`case when failures > 0 then failures - 1 else 0 end`, ...(confirmed ? {} : { confirmedAt: now }) })
    .where('userId', '=', userId)
    .where('lastStep', '<', step)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

export const confirmEnrolment = (ctx: Ctx, userId: string, code: string) => accept(ctx, userId, code, false);
export const verifyTotp = (ctx: Ctx, userId: string, code: string) => accept(ctx, userId, code, true);

/** Turns the app off; the caller checked a current code first (server/auth/recheck.ts), so that
 *  someone at an unlocked screen cannot do it alone. */
export async function disableTotp(ctx: Ctx, userId: string): Promise<void> {
  await totpDb(ctx.db).deleteFrom('userTotp').where('userId', '=', userId).execute();
}
