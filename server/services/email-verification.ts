// Email verification, behind server/routes/email-verification.ts: a signed-in person asks for a
// link to their email address; using it marks that address verified in the user's extraProp.
import type { Ctx } from '../context';
import type { Actor } from '../auth/actor';
import { consumeVerificationLink, sendVerificationLink } from '../auth/codes';
import { ApiError, fieldError } from '../http/errors';
import { markEmailVerified } from '../auth/verified-email';

/** Why a link is refused; `data.reason` lets the /verified page say it in the reader's language. */
const linkRefused = {
  unknown: () => new ApiError(404, 'Verification link not found', { reason: 'unknown' }),
  used: () => new ApiError(410, 'This verification link was already used', { reason: 'used' }),
  expired: () => new ApiError(410, 'This verification link has expired', { reason: 'expired' }),
};

/** Mails the actor a verification link for their email address (400 when they have none). */
export async function mailVerificationLink(ctx: Ctx, actor: Actor): Promise<void> {
  const { email } = actor.user;
  if (!email) throw fieldError([{ field: 'email', rule: 'rule.required' }]);
  await sendVerificationLink(ctx, { ...actor.user, email }, ctx.site.origin());
}

/** Uses a link (once): its person's current address becomes verified, recorded with the change. */
export async function verifyEmail(ctx: Ctx, code: string, ip: string): Promise<{ username: string; email: string }> {
  return ctx.audit.change(async () => {
    const outcome = await consumeVerificationLink(ctx, code);
    if ('refused' in outcome) throw linkRefused[outcome.refused]();
    const user = await ctx.db
      .selectFrom('users')
      .select(['id', 'username', 'email', 'tenantId', 'extraProp'])
      .where('id', '=', outcome.userId)
      .executeTakeFirst();
    if (!user?.email) throw linkRefused.unknown();
    // The verified address is kept: a later change of address is unverified again.
    await ctx.db
      .updateTable('users')
      .set({ extraProp: markEmailVerified(user.extraProp, user.email, ctx.now()) })
      .where('id', '=', user.id)
      .execute();
    await ctx.audit.record({
      action: 'email.verify',
      actor: user,
      target: { type: 'user', id: user.id },
      tenantId: user.tenantId,
      ip,
      detail: { email: user.email },
    });
    return { username: user.username, email: user.email };
  });
}
