// The signed-in person's authenticator app behind /user/totp (server/routes/totp.ts): enrolment
// named after the console, and turning it on or off audited. The codes themselves (secret, time
// steps, tries) are server/auth/totp.ts.
import type { Ctx } from '../context';
import type { Actor } from '../auth/actor';
import { confirmEnrolment, disableTotp, startEnrolment } from '../auth/totp';
import { fieldError } from '../http/errors';

const wrongCode = () => fieldError([{ field: 'code', rule: 'rule.totpCode' }]);

/** A new secret for the actor, its URI naming the console (the configured app name) as issuer. */
export async function startTotp(ctx: Ctx, actor: Actor) {
  const { value: config } = await ctx.settings.get('config');
  return startEnrolment(ctx, actor.user, config.system.appName);
}

/** Turns the authenticator app on (`enabled`: a code confirming the new secret) or off (a current
 *  code); a wrong code answers 400 on `code`. */
export async function switchTotp(ctx: Ctx, actor: Actor, enabled: boolean, code: string, ip: string): Promise<null> {
  const accepted = enabled ? await confirmEnrolment(ctx, actor.user.id, code) : await disableTotp(ctx, actor.user.id, code);
  if (!accepted) throw wrongCode();
  await ctx.audit.record({
    action: 'user.update',
    actor,
    target: { type: 'user', id: actor.user.id },
    tenantId: actor.user.tenantId,
    ip,
    detail: { totp: enabled ? 'enabled' : 'disabled' },
  });
  return null;
}
