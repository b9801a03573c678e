// POST /authc/login: lockout, captcha, password (Argon2id), optional second step, then a fresh
// session (rotation). Unknown user and wrong password give the same answer in the same time.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type * as v from 'valibot';
import type { Ctx } from '../context';
import type { LoginAnswer } from '../../src/core/types';
import type { loginBody } from '../../src/core/schemas/auth';
import type { LoginSettings } from '../../src/core/schemas/settings';
import { LoginMethod, MessageServiceType, SecondAuth, Status } from '../../src/core/enums';
import { ApiError, tooMany } from '../http/errors';
import { verifyPassword } from './kdf';
import { consumeCaptcha, CAPTCHA_IMAGE_URL } from './captcha';
import { AUTH_MODE_HEADER, credentialOf, isAllowedOrigin, setSessionCookie } from './gate';
import { clearFailures, keysOfUser, recordFailure, throttleKey, throttleState } from './throttle';
import type { UserRow } from './actor';
import { TOTP_STEP, totpEnabled, verifyTotp } from './totp';
import { consumeCode, sendCode } from './codes';

type LoginBody = v.InferOutput<typeof loginBody>;

export const LOGIN_FAILED = 'Invalid username or password';
/** The envelope code of §8 that the console treats specially: here, "show (a new) captcha". */
export const CAPTCHA_CODE = 1001;

const identifierColumn = {
  [LoginMethod.USERNAME_PASSWORD]: 'username',
  [LoginMethod.EMAIL_PASSWORD]: 'email',
  [LoginMethod.PHONE_PASSWORD]: 'mobilePhone',
} as const;

async function findUser(ctx: Ctx, policy: LoginSettings, identifier: string): Promise<UserRow | undefined> {
  const rows = await ctx.db.selectFrom('users').selectAll().where(identifierColumn[policy.loginMethod], '=', identifier).limit(2).execute();
  return rows.length === 1 ? rows[0] : undefined; // an ambiguous email/phone signs in no one
}

function needsCaptcha(policy: LoginSettings, failures: number): boolean {
  return policy.captchaEnabled || (policy.captchaAfterFailures > 0 && failures >= policy.captchaAfterFailures);
}

const captchaError = (message: string) =>
  new ApiError(400, message, { captchaImageUrl: CAPTCHA_IMAGE_URL, code: CAPTCHA_CODE, fields: [{ field: 'captcha', rule: 'rule.captcha' }] }, CAPTCHA_CODE);

/** Only our own paths or configured origins: never an open redirect. */
export function safeRedirect(ctx: Ctx, req: FastifyRequest, target: string | undefined): string {
  if (!target) return '/';
  if (target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/\\')) return target;
  try {
    const url = new URL(target);
    return isAllowedOrigin(ctx, req, url.origin) ? url.href : '/';
  } catch {
    return '/';
  }
}

/** The second step's code goes by SMS, or by email to someone without a mobile number. */
async function startSecondStep(ctx: Ctx, user: UserRow): Promise<LoginAnswer> {
  try {
    await sendCode(ctx, user, 'second-step', user.mobilePhone ? MessageServiceType.SMS : MessageServiceType.EMAIL);
  } catch (error) {
    // Asked again within the minute: the code already sent still works.
    if (!(error instanceof ApiError && error.status === 429)) throw error;
  }
  return { hasNextStep: true, nextStep: SecondAuth.PHONE_CAPTCHA, loginSuccess: false, message: 'Enter the verification code sent to you' };
}

const TOTP_ANSWER: LoginAnswer = { hasNextStep: true, nextStep: TOTP_STEP, loginSuccess: false, message: 'Enter the code from your authenticator app' };

export async function login(ctx: Ctx, req: FastifyRequest, reply: FastifyReply, body: LoginBody, redirect: string | undefined): Promise<LoginAnswer> {
  const { value: policy } = await ctx.settings.get('login');
  const key = throttleKey(body.username);
  const client = { ip: req.ip, userAgent: req.headers['user-agent'] ?? null };
  const fail = async (message: string, extra: Record<string, unknown> = {}): Promise<never> => {
    const state = await recordFailure(ctx, key, policy);
    await ctx.audit.record({ action: state.lockedUntil ? 'login.locked' : 'login.failure', ip: client.ip, success: false, detail: { username: body.username, ...extra } });
    if (state.lockedUntil) throw tooMany(`Too many failed sign-ins. Try again in ${policy.lockMinutes} minutes`);
    throw new ApiError(401, message, needsCaptcha(policy, state.failures) ? { captchaImageUrl: CAPTCHA_IMAGE_URL } : null);
  };

  const state = await throttleState(ctx, key);
  if (state.lockedUntil) {
    await ctx.audit.record({ action: 'login.locked', ip: client.ip, success: false, detail: { username: body.username } });
    throw tooMany(`Too many failed sign-ins. Try again in ${policy.lockMinutes} minutes`);
  }
  if (needsCaptcha(policy, state.failures)) {
    if (!body.captcha) throw captchaError('Please enter the captcha');
    if (!(await consumeCaptcha(ctx, req, body.captcha, body.captchaKey))) await fail('Wrong captcha', { reason: 'captcha' });
  }

  const user = await findUser(ctx, policy, body.username);
  const passwordOk = await verifyPassword(user?.passwordHash, body.password);
  if (!user || !passwordOk) return fail(LOGIN_FAILED);
  if (user.availabilityStatus !== Status.Enable) return fail('User is disabled', { reason: 'disabled' });

  // A person with an authenticator app always confirms with it; otherwise the policy's second step.
  const totp = await totpEnabled(ctx, user.id);
  if (totp || policy.secondAuth) {
    if (!body.code) {
      await ctx.audit.record({ action: 'login.second_step', actor: user, target: { type: 'user', id: user.id }, tenantId: user.tenantId, ip: client.ip });
      return totp ? TOTP_ANSWER : startSecondStep(ctx, user);
    }
    const passed = totp ? await verifyTotp(ctx, user.id, body.code) : await consumeCode(ctx, user.id, 'second-step', body.code);
    if (!passed) return fail('Invalid verification code', { reason: 'second_step' });
  }

  await clearFailures(ctx, [key, ...keysOfUser(user)]);
  return startSession(ctx, req, reply, user, redirect, 'login.success');
}

/** Opens a session for `user` after a successful sign-in (password or third party): the old
 *  session ends (rotation); token mode only for a configured origin that asked for it. */
export async function startSession(ctx: Ctx, req: FastifyRequest, reply: FastifyReply, user: UserRow, redirect: string | undefined, action: 'login.success' | 'login.third_party'): Promise<LoginAnswer> {
  const client = { ip: req.ip, userAgent: req.headers['user-agent'] ?? null };
  const previous = await credentialOf(ctx, req);
  if (previous) await ctx.sessions.revokeSecret(previous.secret);
  const origin = req.headers.origin;
  const tokenMode = req.headers[AUTH_MODE_HEADER] === 'token' && origin !== undefined && ctx.config.corsOrigins.includes(origin);
  const session = await ctx.sessions.create(user.id, tokenMode ? 'token' : 'cookie', client);
  if (!tokenMode) setSessionCookie(req, reply, session.secret, session.expiresAt, ctx.now());
  await ctx.audit.record({ action, actor: user, target: { type: 'user', id: user.id }, tenantId: user.tenantId, ip: client.ip, detail: { mode: tokenMode ? 'token' : 'cookie' } });
  return {
    hasNextStep: false,
    loginSuccess: true,
    message: 'Login success',
    redirectURL: safeRedirect(ctx, req, redirect),
    ...(tokenMode ? { token: session.secret } : {}),
  };
}
