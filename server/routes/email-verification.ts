// Email verification: a signed-in person asks for a link to their email address; opening it
// (/verified/{code}, which calls POST /verified/{code}) marks that address verified in extraProp.
import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { defineRoute, type Gate } from '../http/route';
import { okAnswer } from '../../src/core/schemas/common';
import { verificationParams, verifiedAnswer } from '../../src/core/schemas/email-verification';
import { consumeVerificationLink, sendVerificationLink } from '../auth/codes';
import { ApiError, fieldError } from '../http/errors';
import { Permission } from '../../src/core/permission-codes';

const tags = ['Email verification'];

/** Why a link is refused; `data.reason` lets the /verified page say it in the reader's language. */
const linkRefused = {
  unknown: () => new ApiError(404, 'Verification link not found', { reason: 'unknown' }),
  used: () => new ApiError(410, 'This verification link was already used', { reason: 'used' }),
  expired: () => new ApiError(410, 'This verification link has expired', { reason: 'expired' }),
};

export function emailVerificationRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  defineRoute(app, gate, {
    method: 'POST', url: '/user/email/verification', tags, access: Permission.SelfService, summary: 'Mail me a link that verifies my email address', response: okAnswer,
    rateLimit: ctx.config.rateLimits.login,
    handler: async ({ actor }) => {
      const { email } = actor.user;
      if (!email) throw fieldError([{ field: 'email', rule: 'rule.required' }]);
      await sendVerificationLink(ctx, { ...actor.user, email }, ctx.site.origin());
      return null;
    },
  });

  defineRoute(app, gate, {
    method: 'POST', url: '/verified/:code', tags, access: 'public', summary: 'Use an email verification link (once)', params: verificationParams, response: verifiedAnswer,
    rateLimit: ctx.config.rateLimits.login,
    handler: async ({ params }) => {
      const outcome = await consumeVerificationLink(ctx, params.code);
      if ('refused' in outcome) throw linkRefused[outcome.refused]();
      const user = await ctx.db.selectFrom('users').select(['id', 'username', 'email', 'extraProp']).where('id', '=', outcome.userId).executeTakeFirst();
      if (!user?.email) throw linkRefused.unknown();
      // The verified address is kept: a later change of address is unverified again.
      const extraProp = { ...(JSON.parse(user.extraProp) as Record<string, unknown>), emailVerified: user.email, emailVerifiedAt: ctx.now() };
      await ctx.db.updateTable('users').set({ extraProp: JSON.stringify(extraProp) }).where('id', '=', user.id).execute();
      return { username: user.username, email: user.email };
    },
  });
}
