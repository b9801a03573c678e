// One-time codes sent through the message channels (the outbox worker delivers them by SMS or
// email): the sign-in second step, password resets. Stored hashed, single use, short-lived,
// a few wrong tries at most, and rate limited per person and purpose.
import { randomInt } from 'node:crypto';
import type { Ctx } from '../context';
import type { UserRow } from './actor';
import { MessageServiceType } from '../../src/core/enums';
import { DeliveryStatus } from '../../src/core/schemas/messaging';
import { outboxDb } from '../channels/tables';
import { digest, newId, sameDigest } from './secrets';
import { tooMany } from '../http/errors';

export type CodePurpose = 'second-step' | 'password-reset';
export type CodeChannel = typeof MessageServiceType.SMS | typeof MessageServiceType.EMAIL;

interface CodeTable {
  id: string;
  purpose: string;
  userId: string;
  codeHash: string;
  attempts: number;
  expiresAt: number;
  createdAt: number;
}

const minute = 60_000;
const TTL_MS: Record<CodePurpose, number> = { 'second-step': 5 * minute, 'password-reset': 10 * minute };
const TEXT: Record<CodePurpose, string> = { 'second-step': 'Sign-in code', 'password-reset': 'Password reset code' };
/** One code a minute, five an hour, per person and purpose. */
const RESEND_AFTER_MS = minute;
const PER_HOUR = 5;
const MAX_ATTEMPTS = 5;

const codesDb = (ctx: Ctx) => outboxDb(ctx.db).withTables<{ oneTimeCodes: CodeTable }>();

export const addressOf = (user: UserRow, via: CodeChannel) => (via === MessageServiceType.SMS ? user.mobilePhone : user.email);

/** Sends a new code (the previous one stops working); 429 when asked too often. False when the
 *  person has no address for the channel (nothing is sent). */
export async function sendCode(ctx: Ctx, user: UserRow, purpose: CodePurpose, via: CodeChannel): Promise<boolean> {
  const address = addressOf(user, via);
  if (!address) return false;
  const db = codesDb(ctx);
  const now = ctx.now();
  const recent = await db.selectFrom('oneTimeCodes').select('createdAt')
    .where('userId', '=', user.id).where('purpose', '=', purpose).where('createdAt', '>', now - 60 * minute).orderBy('createdAt', 'desc').execute();
  if (recent.length >= PER_HOUR || (recent[0] && now - recent[0].createdAt < RESEND_AFTER_MS)) {
    throw tooMany('A code was sent a moment ago; wait a minute before asking again');
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const ttl = TTL_MS[purpose];
  await db.transaction().execute(async (trx) => {
    // Older codes of this purpose stop working; their rows stay (expired) for the hourly count.
    await trx.updateTable('oneTimeCodes').set({ expiresAt: now }).where('userId', '=', user.id).where('purpose', '=', purpose).where('expiresAt', '>', now).execute();
    await trx.insertInto('oneTimeCodes').values({ id: newId(), purpose, userId: user.id, codeHash: digest(code), attempts: 0, expiresAt: now + ttl, createdAt: now }).execute();
    await trx.insertInto('messages').values({
      id: newId(), recipientId: user.id, address, serviceType: via, vendor: null, channelId: null,
      title: TEXT[purpose], content: `Your ${TEXT[purpose].toLowerCase()} is ${code}. It expires in ${ttl / minute} minutes.`,
      params: JSON.stringify({ code, minutes: String(ttl / minute) }),
      status: DeliveryStatus.Queued, pushTime: now, readAt: null, createdAt: now, error: null, attempts: 0, nextAttemptAt: null, sentAt: null,
    }).execute();
  });
  await db.deleteFrom('oneTimeCodes').where('createdAt', '<', now - 60 * minute).execute();
  return true;
}

/** True (and the code is used up) when `code` is the person's live code for `purpose`. */
export async function consumeCode(ctx: Ctx, userId: string, purpose: CodePurpose, code: string): Promise<boolean> {
  const db = codesDb(ctx);
  const now = ctx.now();
  const row = await db.selectFrom('oneTimeCodes').selectAll()
    .where('userId', '=', userId).where('purpose', '=', purpose).where('expiresAt', '>', now).orderBy('createdAt', 'desc').executeTakeFirst();
  if (!row || row.attempts >= MAX_ATTEMPTS) return false;
  if (!sameDigest(row.codeHash, digest(code))) {
    await db.updateTable('oneTimeCodes').set({ attempts: row.attempts + 1 }).where('id', '=', row.id).execute();
    return false;
  }
  // Conditional: of two requests with the same code, one wins.
  const used = await db.updateTable('oneTimeCodes').set({ expiresAt: now }).where('id', '=', row.id).where('expiresAt', '>', now).executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}
