// Recovery codes: ten single-use codes a person keeps for the day their authenticator app (or
// passkey) is gone. One is accepted at the second step of a sign-in instead of the app's code
// (server/auth/login.ts). They are shown once, when generated; a new set replaces the old one.
//
// Stored as keyed digests (HMAC-SHA256 keyed by the person's id): each code carries 80 random bits,
// so a copied table cannot be searched for codes without a slow hash, and equal codes of two people
// differ. A code is compared with every unused digest of the person in constant time, and used by a
// conditional update, so that of parallel sign-ins with one code exactly one wins.
import { createHmac, randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Ctx } from '../context';
import type { Database } from '../db/tables';
import { PostgresAdapter } from 'kysely';
import { newId, sameDigest } from './secrets';
import { RECOVERY_CODE } from '../../src/core/validation/login';

const RECOVERY_CODE_COUNT = 10;
/** Crockford's base 32 (no i, l, o, u): 16 characters are 80 bits. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const GROUPS = 4;
const GROUP_LENGTH = 4;

export const isRecoveryCode = (code: string) => RECOVERY_CODE.test(code);

/** The code as generated: lower case, no separators; letters people misread as digits read as them. */
const normalized = (code: string) => code.toLowerCase().replace(/[- ]/g, '').replace(/o/g, '0').replace(/[il]/g, '1');

const codeDigest = (userId: string, code: string) => createHmac('sha256', userId).update(normalized(code)).digest('hex');

function newCode(): string {
  const groups = Array.from({ length: GROUPS }, () => Array.from({ length: GROUP_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join(''));
  return groups.join('-');
}

/** Which set of codes the person has now (null: none), to say which set a new one replaces. */
export async function currentRecoveryCodeSet(db: Kysely<Database>, userId: string): Promise<string | null> {
  const row = await db.selectFrom('recoveryCodes').select('id').where('userId', '=', userId).orderBy('id').limit(1).executeTakeFirst();
  return row?.id ?? null;
}

/** A new set of codes for the person (the old set stops working), made only if the set they have
 *  is still `replacing` (what the caller read before): of two requests at once only one answers
 *  codes, the set that works; undefined for the other. Answers the codes in clear, once. */
export async function generateRecoveryCodes(ctx: Ctx, userId: string, replacing: string | null): Promise<string[] | undefined> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  const now = ctx.now();
  return ctx.db.transaction().execute(async (trx) => {
    await lockPerson(trx, userId);
    if ((await currentRecoveryCodeSet(trx, userId)) !== replacing) return undefined;
    await trx.deleteFrom('recoveryCodes').where('userId', '=', userId).execute();
    await trx
      .insertInto('recoveryCodes')
      .values(codes.map((code) => ({ id: newId(), userId, codeHash: codeDigest(userId, code), usedAt: null, createdAt: now })))
      .execute();
    return codes;
  });
}

/** Two parallel regenerations must not leave both sets: on PostgreSQL the person's row is locked
 *  (SQLite's write transaction already holds the database). */
async function lockPerson(trx: Kysely<Database>, userId: string): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
}

/** Deletes the person's codes (their last strong factor went); answers how many there were. */
export async function deleteRecoveryCodes(ctx: Ctx, userId: string): Promise<number> {
  const deleted = await ctx.db.deleteFrom('recoveryCodes').where('userId', '=', userId).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

/** How many unused codes the person has, and when the set was made (null: never). */
export async function recoveryCodeStatus(ctx: Ctx, userId: string): Promise<{ remaining: number; generatedAt: number | null }> {
  const row = await ctx.db
    .selectFrom('recoveryCodes')
    .select((eb) => [
      eb.fn.count<string | number>('usedAt').as('used'),
      eb.fn.countAll<string | number>().as('total'),
      eb.fn.max('createdAt').as('generatedAt'),
    ])
    .where('userId', '=', userId)
    .executeTakeFirstOrThrow();
  return { remaining: Number(row.total) - Number(row.used), generatedAt: row.generatedAt === null ? null : Number(row.generatedAt) };
}

/** True (and the code is used up) when `code` is one of the person's unused codes. */
export async function useRecoveryCode(ctx: Ctx, userId: string, code: string): Promise<boolean> {
  if (!isRecoveryCode(code)) return false;
  const wanted = codeDigest(userId, code);
  const unused = await ctx.db.selectFrom('recoveryCodes').select(['id', 'codeHash']).where('userId', '=', userId).where('usedAt', 'is', null).execute();
  let match: string | undefined;
  // Every digest is compared (no early exit): the time taken does not tell which one matched.
  for (const row of unused) if (sameDigest(row.codeHash, wanted)) match = row.id;
  if (match === undefined) return false;
  const used = await ctx.db.updateTable('recoveryCodes').set({ usedAt: ctx.now() }).where('id', '=', match).where('usedAt', 'is', null).executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}
