// "Forgot password": a one-time code to the account's email address or mobile phone (the same
// answer whether or not the account exists, so the call does not reveal accounts), then a new
// password with the code (the policy's history applies). The reset signs the person out
// everywhere. Routes: server/routes/password-reset.ts and PUT /user/password in server/routes/users.ts.
import type * as v from 'valibot';
import type { FastifyBaseLogger } from 'fastify';
import type { Ctx } from '../context';
import { accountByIdentifier } from '../auth/contacts';
import { type passwordResetBody, resetChannelOf } from '../../src/core/schemas/password-reset';
import { MessageServiceType } from '../../src/core/enums';
import { checkCode, sendCodeAfterAnswer, useCode } from '../auth/codes';
import { storeNewPassword } from '../auth/password-policy';
import { fieldError } from '../http/errors';
import { attemptOn } from '../auth/login';
import { endEveryAccess } from '../oidc/revoke';

/** The one account with this email address or mobile phone number. */
const accountOf = (ctx: Ctx, identifier: string) =>
  accountByIdentifier(ctx, resetChannelOf(identifier) === MessageServiceType.EMAIL ? 'email' : 'mobilePhone', identifier);

/** Sends the reset code when the account exists, after the answer (so its time tells nothing). */
export async function sendResetCode(ctx: Ctx, log: FastifyBaseLogger, identifier: string): Promise<null> {
  const user = await accountOf(ctx, identifier);
  if (user) sendCodeAfterAnswer(ctx, log, user, 'password-reset', resetChannelOf(identifier));
  return null;
}

/** The new password when the code is the account's live reset code; it signs the person out
 *  everywhere. A password refused by the policy's history does not use up the code. A wrong code
 *  for an existing account is recorded as a failed reset of that person (someone may be guessing
 *  their code), in their tenant's log; an address nobody has leaves no record (nothing to guess). */
export async function resetPasswordWithCode(ctx: Ctx, body: v.InferOutput<typeof passwordResetBody>, ip: string): Promise<null> {
  const wrongCode = fieldError([{ field: 'code', rule: 'rule.code' }]);
  const user = await accountOf(ctx, body.identifier);
  if (!user) throw wrongCode;
  const codeId = await checkCode(ctx, user.id, 'password-reset', body.code);
  if (!codeId) {
    await ctx.audit.standalone({
      action: 'password.reset',
      ...attemptOn(user),
      ip,
      success: false,
      detail: { via: 'code', reason: 'wrong_code' },
    });
    throw wrongCode;
  }
  const stored = await storeNewPassword(
    ctx,
    user,
    body.password,
    () => useCode(ctx, codeId),
    async () => {
      await endEveryAccess(ctx, user.id);
      await ctx.audit.record({
        action: 'password.reset',
        actor: user,
        target: { type: 'user', id: user.id },
        tenantId: user.tenantId,
        ip,
        detail: { via: 'code' },
      });
    },
  );
  if (!stored) throw wrongCode;
  return null;
}
