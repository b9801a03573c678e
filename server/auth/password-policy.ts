// The login settings' password policy on the server: history (a new password may not be one of
// the last N, the current one included) and expiry (after D days a sign-in ends in a forced
// change, see login.ts). Length and character classes are checked in the browser before the
// transform; the server only ever sees transformed passwords and compares them with the stored
// Argon2id hashes. Every way a password is set (own change, administrator's reset, reset with a
// code, expired change) goes through storeNewPassword.
import type { Ctx } from '../context';
import type { UserRow } from './actor';
import type { PasswordPolicy } from '../../src/core/schemas/settings';
import { hashPassword, verifyPassword } from './kdf';
import { newId } from './secrets';
import { fieldError } from '../http/errors';

interface PasswordHistoryTable {
  id: string;
  userId: string;
  passwordHash: string;
  createdAt: number;
}

/** The policy allows at most 24; older hashes are of no use. */
const KEEP = 24;
const DAY_MS = 24 * 60 * 60_000;

const historyDb = (ctx: Ctx) => ctx.db.withTables<{ passwordHistory: PasswordHistoryTable }>();

/** True when the user's password is older than the policy's expiry (0: never expires). */
export function passwordExpired(policy: PasswordPolicy, user: Pick<UserRow, 'passwordChangedAt'>, now: number): boolean {
  return policy.expiryDays > 0 && now - user.passwordChangedAt > policy.expiryDays * DAY_MS;
}

/** Refuses (field `password`) a password among the user's last `policy.history` ones. */
async function assertNotReused(ctx: Ctx, user: UserRow, transformed: string, policy: PasswordPolicy): Promise<void> {
  if (policy.history === 0) return;
  const earlier = await historyDb(ctx)
    .selectFrom('passwordHistory')
    .select('passwordHash')
    .where('userId', '=', user.id)
    .orderBy('createdAt', 'desc')
    .limit(policy.history - 1)
    .execute();
  for (const hash of [user.passwordHash, ...earlier.map((row) => row.passwordHash)]) {
    if (await verifyPassword(hash, transformed)) throw fieldError([{ field: 'password', rule: `rule.passwordReused?count=${policy.history}` }]);
  }
}

/** Sets `transformed` as the user's password under the current policy (400 on reuse) and keeps
 *  the replaced hash in the history; answers the stored hash. `claim` runs once the password is
 *  acceptable (e.g. uses up the reset code, which a refused password therefore does not cost);
 *  false stops the change (answered null). Sessions and audit are the caller's: `along` writes
 *  them in the same change (server/audit.ts). */
export async function storeNewPassword(
  ctx: Ctx,
  user: UserRow,
  transformed: string,
  claim?: () => Promise<boolean>,
  along?: () => Promise<void>,
): Promise<string | null> {
  const { value: settings } = await ctx.settings.get('login');
  await assertNotReused(ctx, user, transformed, settings.passwordPolicy);
  // Hashed before the change begins: the change's transaction holds SQLite's write lock.
  const passwordHash = await hashPassword(transformed);
  const now = ctx.now();
  return ctx.audit.change(async () => {
    if (claim && !(await claim())) return null;
    const trx = ctx.db;
    await trx
      .updateTable('users')
      .set({ passwordHash, passwordChangedAt: now, version: user.version + 1, updatedAt: now })
      .where('id', '=', user.id)
      .execute();
    const history = trx.withTables<{ passwordHistory: PasswordHistoryTable }>();
    await history.insertInto('passwordHistory').values({ id: newId(), userId: user.id, passwordHash: user.passwordHash, createdAt: now }).execute();
    const kept = await history.selectFrom('passwordHistory').select('id').where('userId', '=', user.id).orderBy('createdAt', 'desc').limit(KEEP).execute();
    await history
      .deleteFrom('passwordHistory')
      .where('userId', '=', user.id)
      .where(
        'id',
        'not in',
        kept.map((row) => row.id),
      )
      .execute();
    await along?.();
    return passwordHash;
  });
}
