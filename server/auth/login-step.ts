// The second step of a sign-in whose first factor cannot be sent again (the PHONE_CAPTCHA code in
// server/auth/login.ts, a third-party provider in server/routes/idp.ts): the person's passkey or
// authenticator app (or one of their recovery codes), or an administrator's set-up of the app under
// adminStrongFactor. The first factor's answer carries a step ticket (server/auth/step-tickets.ts);
// POST /authc/login/step takes it back with the code or the passkey's assertion. Wrong codes count towards the account's
// sign-in lockout like a password sign-in's second step: in the count of the identifier the first
// factor named the person by (the phone, or for a provider the username).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type * as v from 'valibot';
import type { Ctx } from '../context';
import type { LoginAnswer } from '../../src/core/types';
import type { loginStepBody } from '../../src/core/schemas/auth';
import { Status } from '../../src/core/enums';
import { ApiError } from '../http/errors';
import type { UserRow } from './actor';
import { askSecondStep, attemptOn, passSecondStep, refuse, startSession, strongStepOf, USER_DISABLED, type SecondStep } from './login';
import { keysOfUser, throttleKey, withFailureSlot } from './throttle';
import { issueStepTicket, tryStepTicket, useStepTicket, type FirstFactor, type TicketStep } from './step-tickets';

const STEP_EXPIRED = 'This sign-in has expired or was already used; sign in again';

/** After a third-party provider vouched for `user` (refused when the person is disabled): the second step (with a step ticket) when the
 *  person has an authenticator app or, as an administrator under adminStrongFactor, must set one
 *  up; else the session. `proven`: a step this request passed already (linking to an existing
 *  account takes its authenticator code). */
export async function signInAfterProvider(
  ctx: Ctx,
  req: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  idpCode: string,
  proven?: SecondStep['kind'],
): Promise<LoginAnswer> {
  if (user.availabilityStatus !== Status.Enable) {
    await ctx.audit.standalone({
      action: 'login.failure',
      ip: req.ip,
      success: false,
      detail: { username: user.username, idp: idpCode, reason: 'disabled' },
      ...attemptOn(user),
    });
    throw new ApiError(401, USER_DISABLED);
  }
  const { value: policy } = await ctx.settings.get('login');
  const step = await strongStepOf(ctx, policy, user);
  if (step && step.kind !== proven) return askSecondStep(ctx, step, user, req.ip, await issueStepTicket(ctx, user.id, `idp:${idpCode}`));
  return startSession(ctx, req, reply, user, undefined, 'login.third_party');
}

/** The first factor a ticket records while it still vouches for the person: a provider's only
 *  while that provider is enabled (an administrator switching a compromised one off ends the
 *  sign-ins it began); none for an expired password's change (it is not a sign-in step). */
async function liveFirstFactor(ctx: Ctx, step: TicketStep): Promise<FirstFactor | undefined> {
  if (step === 'password-expired') return undefined;
  if (step === 'phone') return step;
  const provider = await ctx.db.selectFrom('idps').select('enabled').where('code', '=', step.slice('idp:'.length)).executeTakeFirst();
  return provider?.enabled === 1 ? step : undefined;
}

/** The failure count a ticket's codes go to: the identifier the first factor named the person by. */
const countOf = (user: UserRow, firstFactor: FirstFactor) =>
  firstFactor === 'phone' && user.mobilePhone ? throttleKey('mobilePhone', user.mobilePhone) : throttleKey('username', user.username);

/** POST /authc/login/step: the step ticket and the step's code open the session. A ticket that is
 *  unknown, expired, used or out of tries answers 401 (sign in again). When the person no longer
 *  owes a step (the policy changed meanwhile), the ticket alone is the first factor it records. */
export async function continueSignIn(
  ctx: Ctx,
  req: FastifyRequest,
  reply: FastifyReply,
  body: v.InferOutput<typeof loginStepBody>,
  redirect: string | undefined,
): Promise<LoginAnswer> {
  const { value: policy } = await ctx.settings.get('login');
  const ticket = await tryStepTicket(ctx, body.stepTicket);
  const firstFactor = ticket && (await liveFirstFactor(ctx, ticket.step));
  const user = firstFactor && (await ctx.db.selectFrom('users').selectAll().where('id', '=', ticket.userId).executeTakeFirst());
  if (!firstFactor || !user) throw new ApiError(401, STEP_EXPIRED);
  const detail = { username: user.username, firstFactor };
  const attempt = { ip: req.ip, ...attemptOn(user) };
  return withFailureSlot(
    ctx,
    countOf(user, firstFactor),
    policy,
    async (slot) => {
      if (user.availabilityStatus !== Status.Enable) return refuse(ctx, policy, slot, { ...attempt, detail: { ...detail, reason: 'disabled' } }, USER_DISABLED);
      const step = await strongStepOf(ctx, policy, user);
      if (step) {
        const { passed, message } = await passSecondStep(ctx, user, step, body, req.ip);
        if (!passed) return refuse(ctx, policy, slot, { ...attempt, detail: { ...detail, reason: 'second_step' } }, message ?? 'Invalid verification code');
      }
      if (!(await useStepTicket(ctx, ticket.id))) throw new ApiError(401, STEP_EXPIRED);
      await slot.clear(keysOfUser(user));
      return startSession(ctx, req, reply, user, redirect, firstFactor === 'phone' ? 'login.success' : 'login.third_party');
    },
    () => ctx.audit.standalone({ action: 'login.locked', ...attempt, success: false, detail }),
  );
}
