// POST /authc/passkey/login: a sign-in with a passkey alone. The passkey names its account and
// verified the person itself (PIN or biometrics: user verification is required), so it is a
// complete sign-in: no password and no second step. It takes the path of a password sign-in from
// there: the account's lockout (a locked account stays locked; a refused assertion counts as a
// failed sign-in of the account), a disabled account refused, and the same session creation
// (server/auth/login.ts startSession: rotation, cookie or token mode, audit login.success, here
// with method "passkey").
import type { FastifyReply, FastifyRequest } from 'fastify';
import type * as v from 'valibot';
import type { Ctx } from '../../context';
import type { LoginAnswer } from '../../../src/core/types';
import type { passkeyLoginBody } from '../../../src/core/schemas/passkeys';
import { Status } from '../../../src/core/enums';
import { ApiError } from '../../http/errors';
import { keysOfUser, lockedError, lockedKeys, throttleKey, withFailureSlot } from '../throttle';
import { refuse, startSession, USER_DISABLED } from '../login';
import { storedPasskey, usePasskey } from './assertion';

export async function passkeySignIn(
  ctx: Ctx,
  req: FastifyRequest,
  reply: FastifyReply,
  body: v.InferOutput<typeof passkeyLoginBody>,
  redirect: string | undefined,
): Promise<LoginAnswer> {
  const ip = req.ip;
  const stored = await storedPasskey(ctx, body.credential).catch(async (error: unknown) => {
    await ctx.audit.standalone({ action: 'login.failure', ip, success: false, detail: { method: 'passkey', reason: 'unknown_passkey' } });
    throw error;
  });
  const user = await ctx.db.selectFrom('users').selectAll().where('id', '=', stored.userId).executeTakeFirstOrThrow();
  const { value: policy } = await ctx.settings.get('login');
  const audited = { actor: user, target: { type: 'user', id: user.id }, tenantId: user.tenantId, ip };
  // Locked under any of the account's names (the one typed at a failed password sign-in) is locked.
  if ((await lockedKeys(ctx, keysOfUser(user))).size) {
    await ctx.audit.standalone({ action: 'login.locked', ...audited, success: false, detail: { method: 'passkey' } });
    throw lockedError(policy);
  }
  return withFailureSlot(
    ctx,
    throttleKey('username', user.username),
    policy,
    async (slot) => {
      const fail = (message: string, reason: string) => refuse(ctx, policy, slot, { ...audited, detail: { method: 'passkey', reason } }, message);
      try {
        await usePasskey(ctx, body.credential, stored, 'login');
      } catch (error) {
        if (error instanceof ApiError) await fail(error.message, 'passkey');
        throw error;
      }
      if (user.availabilityStatus !== Status.Enable) await fail(USER_DISABLED, 'disabled');
      await slot.clear(keysOfUser(user));
      return startSession(ctx, req, reply, user, redirect, 'login.success', { method: 'passkey' });
    },
    () => ctx.audit.standalone({ action: 'login.locked', ...audited, success: false, detail: { method: 'passkey' } }),
  );
}
