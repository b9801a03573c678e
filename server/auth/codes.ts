// One-time codes sent through the message channels (the outbox worker delivers them by SMS or
// email): the sign-in second step, password resets (six digits), email verification (a link to
// /verified/{code} with a long random code). Stored hashed, single use, short-lived, a few wrong
// tries at most, and rate limited per person and purpose.
import { randomInt } from 'node:crypto';
import type { Ctx } from '../context';
import type { UserRow } from './actor';
import { MessageServiceType } from '../../src/core/enums';
import { DeliveryStatus } from '../../src/core/schemas/messaging';
import { outboxDb } from '../channels/tables';
import { digest, newId, newSecret, sameDigest } from './secrets';
import { tooMany } from '../http/errors';

export type CodePurpose = 'second-step' | 'password-reset' | 'email-verify';
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
const TTL_MS: Record<CodePurpose, number> = { 'second-step': 5 * minute, 'password-reset': 10 * minute, 'email-verify': 24 * 60 * minute };
const TEXT: Record<CodePurpose, string> = { 'second-step': 'Sign-in code', 'password-reset': 'Password reset code', 'email-verify': 'Confirm your email address' };
/** One code a minute, five an hour, per person and purpose. */
const RESEND_AFTER_MS = minute;
const PER_HOUR = 5;
const MAX_ATTEMPTS = 5;

const codesDb = (ctx: Ctx) => outboxDb(ctx.db).withTables<{ oneTimeCodes: CodeTable }>();

export const addressOf = (user: UserRow, via: CodeChannel) => (via === MessageServiceType.SMS ? user.mobilePhone : user.email);

/** Queues a new code (the previous one of the purpose stops working) with its message text;
 *  429 when asked too often. */
async function issue(ctx: Ctx, user: UserRow, purpose: CodePurpose, via: CodeChannel, address: string, code: string, content: string): Promise<void> {
  const db = codesDb(ctx);
  const now = ctx.now();
  const recent = await db.selectFrom('oneTimeCodes').select('createdAt')
    .where('userId', '=', user.id).where('purpose', '=', purpose).where('createdAt', '>', now - 60 * minute).orderBy('createdAt', 'desc').execute();
  if (recent.length >= PER_HOUR || (recent[0] && now - recent[0].createdAt < RESEND_AFTER_MS)) {
    throw tooMany('A code was sent a moment ago; wait a minute before asking again');
  }
  const ttl = TTL_MS[purpose];
  await db.transaction().execute(async (trx) => {
    // Older codes of this purpose stop working; their rows stay (expired) for the hourly count.
    await trx.updateTable('oneTimeCodes').set({ expiresAt: now }).where('userId', '=', user.id).where('purpose', '=', purpose).where('expiresAt', '>', now).execute();
    await trx.insertInto('oneTimeCodes').values({ id: newId(), purpose, userId: user.id, codeHash: digest(code), attempts: 0, expiresAt: now + ttl, createdAt: now }).execute();
    await trx.insertInto('messages').values({
      id: newId(), recipientId: user.id, address, serviceType: via, vendor: null, channelId: null,
      title: TEXT[purpose], content, params: JSON.stringify({ code, minutes: String(ttl / minute) }),
      status: DeliveryStatus.Queued, pushTime: now, readAt: null, createdAt: now, error: null, attempts: 0, nextAttemptAt: null, sentAt: null,
    }).execute();
  });
  await db.deleteFrom('oneTimeCodes').where('createdAt', '<', now - 60 * minute).execute();
}

/** Sends a six-digit code; false when the person has no address for the channel (nothing sent). */
export async function sendCode(ctx: Ctx, user: UserRow, purpose: Exclude<CodePurpose, 'email-verify'>, via: CodeChannel): Promise<boolean> {
  const address = addressOf(user, via);
  if (!address) return false;
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await issue(ctx, user, purpose, via, address, code, `Your ${TEXT[purpose].toLowerCase()} is ${code}. It expires in ${TTL_MS[purpose] / minute} minutes.`);
  return true;
}

/** Mails a link to `<origin>/verified/<code>` to the person's email address. */
export async function sendVerificationLink(ctx: Ctx, user: UserRow & { email: string }, origin: string): Promise<void> {
  const code = newSecret();
  await issue(ctx, user, 'email-verify', MessageServiceType.EMAIL, user.email, code,
    `Open this link to confirm ${user.email} as your email address: ${origin}/verified/${code} (valid for 24 hours).`);
}

/** The person whose live verification link carries `code` (the link is used up), if any. */
export async function consumeVerificationLink(ctx: Ctx, code: string): Promise<string | undefined> {
  const db = codesDb(ctx);
  const now = ctx.now();
  const used = await db.updateTable('oneTimeCodes').set({ expiresAt: now })
    .where('codeHash', '=', digest(code)).where('purpose', '=', 'email-verify').where('expiresAt', '>', now)
    .returning('userId').executeTakeFirst();
  return used?.userId;
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
