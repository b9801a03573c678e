// The signed-in person's authenticator app behind /user/totp (server/routes/totp.ts): enrolment
// named after the console, and turning it on or off audited. The codes themselves (secret, time
// steps, tries) are server/auth/totp.ts.
import type { Ctx } from '../context';
import type { Actor } from '../auth/actor';
import { confirmEnrolment, disableTotp, startEnrolment } from '../auth/totp';
import { recheck } from '../auth/recheck';
import { dropCodesWithLastFactor } from '../auth/strong-factor';
import { fieldError } from '../http/errors';

const wrongCode = () => fieldError([{ field: 'code', rule: 'rule.totpCode' }]);

/** A new secret for the actor, its URI naming the console (the configured app name) as issuer,
 *  once the current password is right (the personal center's re-check, counted towards the lockout):
 *  an app set up with a session alone would then stand in for the password when the person's
 *  passkeys or recovery codes are removed (server/auth/recheck.ts accepts its codes). */
export async function startTotp(ctx: Ctx, actor: Actor, password: string, ip: string) {
  await recheck(ctx, actor, { password }, ip);
  const { value: config } = await ctx.settings.get('config');
  return startEnrolment(ctx, actor.user, config.system.appName);
}

/** Turns the authenticator app on (`enabled`: a code confirming the new secret) or off (a current
 *  code, the personal center's re-check, which counts towards the account's lockout; with the last
 *  strong factor the recovery codes go); a wrong code answers 400 on `code`. */
export async function switchTotp(ctx: Ctx, actor: Actor, enabled: boolean, code: string, ip: string): Promise<null> {
  // The re-check counts a wrong code towards the lockout: before the change, so it is never rolled back.
  if (!enabled) await recheck(ctx, actor, { code }, ip);
  const switched = await ctx.audit.change(async () => {
    if (enabled && !(await confirmEnrolment(ctx, actor.user.id, code))) return false;
    if (!enabled) await disableTotp(ctx, actor.user.id);
    await ctx.audit.record({
      action: 'user.update',
      actor,
      target: { type: 'user', id: actor.user.id },
      tenantId: actor.user.tenantId,
      ip,
      detail: { totp: enabled ? 'enabled' : 'disabled' },
    });
    if (!enabled) await dropCodesWithLastFactor(ctx, actor, 'totp', ip);
    return true;
  });
  if (!switched) throw wrongCode();
  return null;
}
