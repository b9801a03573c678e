// One-time codes sent through the message channels (the outbox worker delivers them by SMS or
// email): the sign-in second step, the PHONE_CAPTCHA sign-in, password resets, the confirmation of
// a new email address or mobile phone (six digits, sent to the NEW address), email verification
// (a link to /verified/{code} with a long random code). Stored hashed, single use,
// short-lived, a few wrong tries at most, and rate limited per person and purpose. Also the
// server-side grant of an expired-password change (nothing is sent for it).
import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import type { Ctx } from '../context';
import type { UserRow } from './actor';
import { MessageServiceType } from '../../src/core/enums';
import { DeliveryStatus } from '../../src/core/schemas/messaging';
import { outboxDb } from '../channels/tables';
import { digest, newId, newSecret, sameDigest } from './secrets';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError, tooMany } from '../http/errors';

type CodePurpose = 'second-step' | 'phone-login' | 'password-reset' | 'email-change' | 'phone-change' | 'email-verify';
/** Codes a person types (six digits). */
export type TypedCodePurpose = Exclude<CodePurpose, 'email-verify'>;
export type CodeChannel = typeof MessageServiceType.SMS | typeof MessageServiceType.EMAIL;

interface CodeTable {
  id: string;
  purpose: string;
  userId: string;
  codeHash: string;
  attempts: number;
  /** Where the code was sent (a contact change applies this address once its code is confirmed). */
  sentTo: string | null;
  expiresAt: number;
  /** When the code was used (null: not used; a superseded or expired code stays null). */
  usedAt: number | null;
  createdAt: number;
}

const minute = 60_000;
const TTL_MS: Record<CodePurpose, number> = {
  'second-step': 5 * minute,
  'phone-login': 5 * minute,
  'password-reset': 10 * minute,
  'email-change': 10 * minute,
  'phone-change': 10 * minute,
  'email-verify': 24 * 60 * minute,
};
const TEXT: Record<CodePurpose, string> = {
  'second-step': 'Sign-in code',
  'phone-login': 'Sign-in code',
  'password-reset': 'Password reset code',
  'email-change': 'Email address confirmation code',
  'phone-change': 'Mobile phone confirmation code',
  'email-verify': 'Confirm your email address',
};
/** Used and expired rows are kept this long (a used link is told apart from an unknown one). */
const KEEP_MS = 7 * 24 * 60 * minute;
/** One code a minute, five an hour (from the first of the hour), per person and purpose. */
const RESEND_AFTER_MS = minute;
const PER_HOUR = 5;
const MAX_ATTEMPTS = 5;

/** How many codes of a purpose were sent to a person: the allowance of RESEND_AFTER_MS and PER_HOUR. */
interface CodeSendTable {
  userId: string;
  purpose: string;
  lastSentAt: number;
  hourStartedAt: number;
  sentThisHour: number;
}

const codesDb = (ctx: Ctx) => outboxDb(ctx.db).withTables<{ oneTimeCodes: CodeTable; codeSends: CodeSendTable }>();

const addressOf = (user: UserRow, via: CodeChannel) => (via === MessageServiceType.SMS ? user.mobilePhone : user.email);

/** Takes one send from the person's allowance for `purpose`, in one statement, so that parallel
 *  requests cannot send more than it; false when nothing is left. */
async function reserveSend(ctx: Ctx, userId: string, purpose: CodePurpose): Promise<boolean> {
  const now = ctx.now();
  const newHour = sql<boolean>`code_sends.hour_started_at <= ${now - 60 * minute}`;
  const reserved = await codesDb(ctx)
    .insertInto('codeSends')
    .values({ userId, purpose, lastSentAt: now, hourStartedAt: now, sentThisHour: 1 })
    .onConflict((oc) =>
      oc
        .columns(['userId', 'purpose'])
        .doUpdateSet({
          lastSentAt: now,
          hourStartedAt: sql`case when ${newHour} then cast(${now} as bigint) else code_sends.hour_started_at end`,
          sentThisHour: sql`case when ${newHour} then 1 else code_sends.sent_this_hour + 1 end`,
        })
        .where(sql<boolean>`code_sends.last_sent_at <= ${now - RESEND_AFTER_MS} and (${newHour} or code_sends.sent_this_hour < ${PER_HOUR})`),
    )
    .returning('userId')
    .executeTakeFirst();
  return reserved !== undefined;
}

/** Queues a new code (the previous one of the purpose stops working) with its message text;
 *  429 when asked too often. */
async function issue(ctx: Ctx, user: UserRow, purpose: CodePurpose, via: CodeChannel, address: string, code: string, content: string): Promise<void> {
  if (!(await reserveSend(ctx, user.id, purpose))) throw tooMany('A code was sent a moment ago; wait a minute before asking again');
  const db = codesDb(ctx);
  const now = ctx.now();
  const ttl = TTL_MS[purpose];
  await db.transaction().execute(async (trx) => {
    // Older codes of this purpose stop working; their rows stay (expired) for KEEP_MS.
    await trx
      .updateTable('oneTimeCodes')
      .set({ expiresAt: now })
      .where('userId', '=', user.id)
      .where('purpose', '=', purpose)
      .where('expiresAt', '>', now)
      .execute();
    await trx
      .insertInto('oneTimeCodes')
      .values({
        id: newId(),
        purpose,
        userId: user.id,
        codeHash: digest(code),
        attempts: 0,
        sentTo: address,
        expiresAt: now + ttl,
        usedAt: null,
        createdAt: now,
      })
      .execute();
    await trx
      .insertInto('messages')
      .values({
        id: newId(),
        recipientId: user.id,
        address,
        serviceType: via,
        vendor: null,
        channelId: null,
        title: TEXT[purpose],
        content,
        params: JSON.stringify({ code, minutes: String(ttl / minute) }),
        status: DeliveryStatus.Queued,
        pushTime: now,
        readAt: null,
        createdAt: now,
        error: null,
        attempts: 0,
        nextAttemptAt: null,
        sentAt: null,
      })
      .execute();
  });
  await db
    .deleteFrom('oneTimeCodes')
    .where('expiresAt', '<', now - KEEP_MS)
    .execute();
}

/** Sends a six-digit code to `address` (by default the person's own for the channel); false when
 *  there is no address (nothing sent). */
export async function sendCode(ctx: Ctx, user: UserRow, purpose: TypedCodePurpose, via: CodeChannel, address = addressOf(user, via)): Promise<boolean> {
  if (!address) return false;
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await issue(ctx, user, purpose, via, address, code, `Your ${TEXT[purpose].toLowerCase()} is ${code}. It expires in ${TTL_MS[purpose] / minute} minutes.`);
  return true;
}

/** Sends a code, "too soon for a new one" (429) counting as sent: the earlier code still works,
 *  and the caller's answer must not tell the two apart. */
export async function sendCodeOnce(ctx: Ctx, user: UserRow, purpose: TypedCodePurpose, via: CodeChannel): Promise<void> {
  try {
    await sendCode(ctx, user, purpose, via);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 429)) throw error;
  }
}

/** sendCodeOnce after the answer has gone, for the calls that answer alike whether an account
 *  exists: its writes would make a known account's answer a few ms slower. Failures are logged. */
export function sendCodeAfterAnswer(ctx: Ctx, log: FastifyBaseLogger, user: UserRow, purpose: TypedCodePurpose, via: CodeChannel): void {
  sendCodeOnce(ctx, user, purpose, via).catch((error: unknown) => log.error({ err: error }, `${purpose} code not sent`));
}

/** Mails a link to `<origin>/verified/<code>` to the person's email address. */
export async function sendVerificationLink(ctx: Ctx, user: UserRow & { email: string }, origin: string): Promise<void> {
  const code = newSecret();
  await issue(
    ctx,
    user,
    'email-verify',
    MessageServiceType.EMAIL,
    user.email,
    code,
    `Open this link to confirm ${user.email} as your email address: ${origin}/verified/${code} (valid for 24 hours).`,
  );
}

export type LinkOutcome = { userId: string } | { refused: 'unknown' | 'used' | 'expired' };

/** Uses the verification link that carries `code`: the person it verifies, or why it is refused. */
export async function consumeVerificationLink(ctx: Ctx, code: string): Promise<LinkOutcome> {
  const db = codesDb(ctx);
  const now = ctx.now();
  const codeHash = digest(code);
  const used = await db
    .updateTable('oneTimeCodes')
    .set({ expiresAt: now, usedAt: now })
    .where('codeHash', '=', codeHash)
    .where('purpose', '=', 'email-verify')
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', now)
    .returning('userId')
    .executeTakeFirst();
  if (used) return { userId: used.userId };
  const row = await db.selectFrom('oneTimeCodes').select('usedAt').where('codeHash', '=', codeHash).where('purpose', '=', 'email-verify').executeTakeFirst();
  return { refused: !row ? 'unknown' : row.usedAt !== null ? 'used' : 'expired' };
}

/** The person's live code for `purpose` (the latest; an earlier one stopped working). */
const liveCode = (ctx: Ctx, userId: string, purpose: TypedCodePurpose) =>
  codesDb(ctx)
    .selectFrom('oneTimeCodes')
    .selectAll()
    .where('userId', '=', userId)
    .where('purpose', '=', purpose)
    .where('expiresAt', '>', ctx.now())
    .orderBy('createdAt', 'desc')
    .executeTakeFirst();

/** Where the person's live code for `purpose` was sent (none live: undefined). */
export async function liveCodeSentTo(ctx: Ctx, userId: string, purpose: TypedCodePurpose): Promise<string | undefined> {
  return (await liveCode(ctx, userId, purpose))?.sentTo ?? undefined;
}

/** The person's live code for `purpose` (its id and where it was sent) when `code` is it. Each try
 *  is counted before the comparison, in one statement, so parallel guesses share MAX_ATTEMPTS tries
 *  between them; the right code gives its try back. The code stays usable until `useCode`. */
export async function checkCodeSentTo(
  ctx: Ctx,
  userId: string,
  purpose: TypedCodePurpose,
  code: string,
): Promise<{ id: string; sentTo: string | null } | undefined> {
  const db = codesDb(ctx);
  const now = ctx.now();
  const tried = await db
    .updateTable('oneTimeCodes')
    .set({ attempts: sql`attempts + 1` })
    .where('id', '=', (eb) =>
      eb
        .selectFrom('oneTimeCodes')
        .select('id')
        .where('userId', '=', userId)
        .where('purpose', '=', purpose)
        .where('expiresAt', '>', now)
        .orderBy('createdAt', 'desc')
        .limit(1),
    )
    .where('attempts', '<', MAX_ATTEMPTS)
    .where('expiresAt', '>', now)
    .returning(['id', 'codeHash', 'sentTo'])
    .executeTakeFirst();
  if (!tried || !sameDigest(tried.codeHash, digest(code))) return undefined;
  await db
    .updateTable('oneTimeCodes')
    .set({ attempts: sql`attempts - 1` })
    .where('id', '=', tried.id)
    .execute();
  return { id: tried.id, sentTo: tried.sentTo };
}

/** The id of the person's live code for `purpose` when `code` is it (see checkCodeSentTo). */
export async function checkCode(ctx: Ctx, userId: string, purpose: TypedCodePurpose, code: string): Promise<string | undefined> {
  return (await checkCodeSentTo(ctx, userId, purpose, code))?.id;
}

/** Uses up a checked code; conditional, so of two requests with the same code one wins. */
export async function useCode(ctx: Ctx, id: string): Promise<boolean> {
  const now = ctx.now();
  const used = await codesDb(ctx)
    .updateTable('oneTimeCodes')
    .set({ expiresAt: now, usedAt: now })
    .where('id', '=', id)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', now)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}

/** True (and the code is used up) when `code` is the person's live code for `purpose`. */
export async function consumeCode(ctx: Ctx, userId: string, purpose: TypedCodePurpose, code: string): Promise<boolean> {
  const id = await checkCode(ctx, userId, purpose, code);
  return id !== undefined && useCode(ctx, id);
}
