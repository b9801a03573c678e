// "Forgot password": a one-time code to the account's email address or mobile phone (the same
// answer whether or not the account exists, so the call does not reveal accounts), then a new
// password with the code through the API's PUT /user/password (the policy's history applies). The
// reset signs the person out everywhere.
import type { FastifyInstance } from 'fastify';
import type * as v from 'valibot';
import type { Ctx } from '../context';
import { accountByIdentifier } from '../auth/contacts';
import { defineRoute, type Gate } from '../http/route';
import { okAnswer } from '../../src/core/schemas/common';
import { passwordResetBody, resetChannelOf, resetCodeBody } from '../../src/core/schemas/password-reset';
import { MessageServiceType } from '../../src/core/enums';
import { checkCode, sendCodeAfterAnswer, useCode } from '../auth/codes';
import { storeNewPassword } from '../auth/password-policy';
import { fieldError } from '../http/errors';
import { endEveryAccess } from '../oidc/revoke';

const tags = ['Password reset'];

/** The one account with this email address or mobile phone number. */
const accountOf = (ctx: Ctx, identifier: string) =>
  accountByIdentifier(ctx, resetChannelOf(identifier) === MessageServiceType.EMAIL ? 'email' : 'mobilePhone', identifier);

/** PUT /user/password with a code (the route is in users.ts, beside the signed-in change): the
 *  new password when the code is the account's live reset code; it signs the person out
 *  everywhere. A password refused by the policy's history does not use up the code. */
export async function resetPasswordWithCode(ctx: Ctx, body: v.InferOutput<typeof passwordResetBody>, ip: string): Promise<null> {
  const wrongCode = fieldError([{ field: 'code', rule: 'rule.code' }]);
  const user = await accountOf(ctx, body.identifier);
  const codeId = user && (await checkCode(ctx, user.id, 'password-reset', body.code));
  if (!user || !codeId) throw wrongCode;
  if (!(await storeNewPassword(ctx, user, body.password, () => useCode(ctx, codeId)))) throw wrongCode;
  await endEveryAccess(ctx, user.id);
  await ctx.audit.record({ action: 'password.reset', actor: user, target: { type: 'user', id: user.id }, tenantId: user.tenantId, ip, detail: { via: 'code' } });
  return null;
}

export function passwordResetRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  defineRoute(app, gate, {
    method: 'POST', url: '/user/password/reset-code', tags, access: 'public',
    summary: 'Send a password reset code to an email address or mobile phone (answers alike for unknown accounts)', body: resetCodeBody, response: okAnswer,
    rateLimit: ctx.config.rateLimits.login,
    handler: async ({ body, raw }) => {
      const user = await accountOf(ctx, body.identifier);
      if (user) sendCodeAfterAnswer(ctx, raw.log, user, 'password-reset', resetChannelOf(body.identifier));
      return null;
    },
  });

  // The same reset under its own name (kept for existing clients; the console uses PUT /user/password).
  defineRoute(app, gate, {
    method: 'PUT', url: '/user/password/reset', tags, access: 'public',
    summary: 'Set a new password with the reset code (as PUT /user/password with a code)', body: passwordResetBody, response: okAnswer,
    rateLimit: ctx.config.rateLimits.login,
    handler: ({ body, raw }) => resetPasswordWithCode(ctx, body, raw.ip),
  });
}
