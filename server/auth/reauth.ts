// The current password asked again of a signed-in person before a change a session alone must not
// make (a new phone or email: where a password reset goes next). A wrong guess holds a place in the
// account's sign-in failure count like a failed sign-in (server/auth/throttle.ts), so a borrowed
// session is not an unlimited password oracle: the lockout of the login settings applies, audited.
import type { Ctx } from '../context';
import type { UserRow } from './actor';
import { fieldError } from '../http/errors';
import { verifyPassword } from './kdf';
import { keysOfUser, lockedError, throttleKey, withFailureSlot } from './throttle';

/** Passes when `transformed` is `user`'s password; else a field error on `field` (missing, wrong)
 *  or, once the failures reach the policy's limit, the lockout. */
export async function proveCurrentPassword(ctx: Ctx, user: UserRow, transformed: string | undefined, field: string): Promise<void> {
  if (!transformed) throw fieldError([{ field, rule: 'rule.required' }]);
  const { value: policy } = await ctx.settings.get('login');
  await withFailureSlot(ctx, throttleKey('username', user.username), policy, async (slot) => {
    if (await verifyPassword(user.passwordHash, transformed)) return slot.clear(keysOfUser(user));
    slot.keep();
    await ctx.audit.record({
      action: slot.locks ? 'login.locked' : 'login.failure',
      actor: user,
      target: { type: 'user', id: user.id },
      tenantId: user.tenantId,
      success: false,
      detail: { username: user.username, reason: 'reauth' },
    });
    throw slot.locks ? lockedError(policy) : fieldError([{ field, rule: 'rule.wrongPassword' }]);
  });
}
