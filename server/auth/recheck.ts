// The personal center's re-check: before a signed-in person adds a passkey, removes one, makes a
// new set of recovery codes, changes their password, phone or email (where a password reset goes)
// or turns their authenticator app off, they
// prove again that they are the account's owner and not someone at an unlocked screen or holding a
// borrowed session: their current password, or a current code of their authenticator app.
//
// Each re-check holds a place in the account's sign-in failure count (withFailureSlot of
// server/auth/throttle.ts, keyed by the username as a password sign-in is), so guesses here lock
// the account as wrong sign-ins do, parallel guesses included; a right answer clears the counts as
// a sign-in does. Wrong answers are audited as sign-in failures with reason 'recheck'.
//
// A person's re-checks run one after another in this process, like every attempt on one name
// (withFailureSlot): a burst of them with the right password (a double-click, a client retrying)
// never locks the account; each wrong one still counts (16 wrong answers count 16).
import type { Ctx } from '../context';
import type { Actor } from './actor';
import { verifyPassword } from './kdf';
import { keysOfUser, lockedError, throttleKey, withFailureSlot } from './throttle';
import { totpEnabled, verifyTotp } from './totp';
import { fieldError } from '../http/errors';

/** What the person gave: their current (transformed) password, or a code of their authenticator app. */
export interface RecheckProof {
  password?: string | undefined;
  code?: string | undefined;
}

/** Resolves once `proof` is right for the actor; a missing or wrong proof answers 400 on its field
 *  (`passwordField` names the password's field in the caller's body), a locked account 429. */
export async function recheck(ctx: Ctx, actor: Actor, proof: RecheckProof, ip: string, passwordField = 'password'): Promise<void> {
  const byCode = !proof.password && proof.code !== undefined;
  if (!proof.password && !byCode) throw fieldError([{ field: passwordField, rule: 'rule.required' }]);
  const { user } = actor;
  const { value: policy } = await ctx.settings.get('login');
  const failure = (locks: boolean) =>
    ctx.audit.standalone({
      action: locks ? 'login.locked' : 'login.failure',
      actor,
      target: { type: 'user', id: user.id },
      tenantId: user.tenantId,
      ip,
      success: false,
      detail: { username: user.username, reason: 'recheck', method: byCode ? 'totp' : 'password' },
    });
  await withFailureSlot(
    ctx,
    throttleKey('username', user.username),
    policy,
    async (slot) => {
      const right = byCode
        ? (await totpEnabled(ctx, user.id)) && (await verifyTotp(ctx, user.id, proof.code!))
        : await verifyPassword(user.passwordHash, proof.password!);
      if (right) return slot.clear(keysOfUser(user));
      slot.keep();
      await failure(slot.locks);
      if (slot.locks) throw lockedError(policy);
      throw fieldError(byCode ? [{ field: 'code', rule: 'rule.totpCode' }] : [{ field: passwordField, rule: 'rule.wrongPassword' }]);
    },
    () => failure(true),
  );
}
