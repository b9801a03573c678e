// POST /authc/login: lockout, captcha, password (Argon2id), optional second step, then a fresh
// session (rotation). Unknown user and wrong password give the same answer in the same time.
//
// The PHONE_CAPTCHA login method signs in with a code sent by SMS (POST /authc/login/code)
// instead of a password; that code is the first factor. No SMS code follows it, but a person with
// an authenticator app, or an administrator under adminStrongFactor, still takes that step: the
// answer carries a step ticket and the step goes to POST /authc/login/step (login-step.ts).
// Second auth: a person with an authenticator app always confirms with it; otherwise
// PHONE_CAPTCHA sends a code (SMS, or email without a phone), and TOTP sends an SMS code to
// people without an authenticator, refusing those without a phone too.
// Password expiry (passwordPolicy.expiryDays): once every factor passed, an expired password
// answers the next step PASSWORD_EXPIRED instead of a session and grants a change for a few
// minutes; PUT /authc/password/expired (old + new password) uses the grant and opens the
// session. The grant lives on the server, so no ticket travels through the client, and a
// password alone (without the second factor) cannot change an expired password.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type * as v from 'valibot';
import type { Ctx } from '../context';
import type { LoginAnswer } from '../../src/core/types';
import type { expiredPasswordBody, loginBody, loginCodeBody } from '../../src/core/schemas/auth';
import type { LoginSettings } from '../../src/core/schemas/settings';
import { LoginMethod, LoginStep, MessageServiceType, SecondAuth, Status } from '../../src/core/enums';
import { ApiError, fieldError } from '../http/errors';
import { verifyPassword } from './kdf';
import { consumeCaptcha, CAPTCHA_IMAGE_URL } from './captcha';
import { AUTH_MODE_HEADER, credentialOf, setSessionCookie, tokenHeaderName } from './gate';
import { safeRedirect } from '../http/redirect';
import { type FailureSlot, keysOfUser, lockedError, throttleKey, throttleState, withFailureSlot } from './throttle';
import type { UserRow } from './actor';
import { accountByIdentifier } from './contacts';
import { confirmEnrolment, startEnrolment, totpEnabled, verifyTotp } from './totp';
import { isRecoveryCode, useRecoveryCode } from './recovery-codes';
import { isAdministrator } from './strong-factor';
import { hasPasskey } from './passkeys/has-passkey';
import { noteSignInDevice } from './devices';
import { consumeCode, consumeExpiredChange, grantExpiredChange, sendCodeAfterAnswer, sendCodeOnce } from './codes';
import { issueStepTicket } from './step-tickets';
import { passwordExpired, storeNewPassword } from './password-policy';
import { endEveryAccess } from '../oidc/revoke';

type LoginBody = v.InferOutput<typeof loginBody>;

export const LOGIN_FAILED = 'Invalid username or password';
const CODE_LOGIN_FAILED = 'Invalid phone number or code';
/** The envelope code that the console treats specially: here, "show (a new) captcha". */
export const CAPTCHA_CODE = 1001;

const identifierColumn = {
  [LoginMethod.USERNAME_PASSWORD]: 'username',
  [LoginMethod.EMAIL_PASSWORD]: 'email',
  [LoginMethod.PHONE_PASSWORD]: 'mobilePhone',
  [LoginMethod.PHONE_CAPTCHA]: 'mobilePhone',
} as const;

const findUser = (ctx: Ctx, policy: LoginSettings, identifier: string): Promise<UserRow | undefined> =>
  accountByIdentifier(ctx, identifierColumn[policy.loginMethod], identifier);

function needsCaptcha(policy: LoginSettings, failures: number): boolean {
  return policy.captchaEnabled || (policy.captchaAfterFailures > 0 && failures >= policy.captchaAfterFailures);
}

const captchaError = (message: string) =>
  new ApiError(400, message, { captchaImageUrl: CAPTCHA_IMAGE_URL, code: CAPTCHA_CODE, fields: [{ field: 'captcha', rule: 'rule.captcha' }] }, CAPTCHA_CODE);


/** Sends a code, treating "asked again within the minute" as sent (the earlier code still works). */
const CODE_ANSWER: LoginAnswer = { hasNextStep: true, nextStep: LoginStep.PHONE_CAPTCHA, loginSuccess: false, message: 'Enter the verification code sent to you' };
const TOTP_ANSWER: LoginAnswer = { hasNextStep: true, nextStep: LoginStep.TOTP, loginSuccess: false, message: 'Enter the code from your authenticator app' };
const TOTP_SETUP_ANSWER: LoginAnswer = { hasNextStep: true, nextStep: LoginStep.TOTP_SETUP, loginSuccess: false, message: 'Administrators must use an authenticator app or a passkey: set up an authenticator app to continue' };
const EXPIRED_ANSWER: LoginAnswer = { hasNextStep: true, nextStep: LoginStep.PASSWORD_EXPIRED, loginSuccess: false, message: 'Your password has expired; choose a new one' };
export const NO_SECOND_FACTOR = 'Two-step sign-in needs an authenticator app or a mobile phone number; ask an administrator to set one up for you';

export type SecondStep = 'totp' | 'totp-setup' | 'code';

/** Which second step `user` takes under `policy` (none: undefined). An administrator without a
 *  strong factor, when the policy asks administrators for one, sets up an authenticator app. */
export async function secondStepOf(ctx: Ctx, policy: LoginSettings, user: UserRow): Promise<SecondStep | undefined> {
  if (await totpEnabled(ctx, user.id)) return 'totp';
  if (policy.adminStrongFactor && (await isAdministrator(ctx, user)) && !(await hasPasskey(ctx.db, user.id))) return 'totp-setup';
  if (policy.secondAuth === SecondAuth.PHONE_CAPTCHA) return 'code';
  if (policy.secondAuth === SecondAuth.TOTP) {
    if (!user.mobilePhone) throw new ApiError(403, NO_SECOND_FACTOR);
    return 'code';
  }
  return undefined;
}

/** The second step after a first factor other than the password (the PHONE_CAPTCHA code, a
 *  third-party provider): the person's authenticator app, or an administrator's set-up of one, but
 *  no code by SMS or email (secondAuth adds that to a password, and this factor is the SMS or
 *  stands in for the password). */
export const strongStepOf = (ctx: Ctx, policy: LoginSettings, user: UserRow) => secondStepOf(ctx, { ...policy, secondAuth: null }, user);

/** Asks `user` for `step` (audited): the authenticator app's code, its set-up (the answer carries
 *  the new secret) or a code sent to them; with the step ticket of a first factor that cannot be
 *  sent again. */
export async function askSecondStep(ctx: Ctx, step: SecondStep, user: UserRow, ip: string, stepTicket?: string): Promise<LoginAnswer> {
  await ctx.audit.record({ action: 'login.second_step', actor: user, target: { type: 'user', id: user.id }, tenantId: user.tenantId, ip });
  const ticket = stepTicket ? { stepTicket } : {};
  if (step === 'totp') return { ...TOTP_ANSWER, ...ticket };
  if (step === 'totp-setup') return { ...TOTP_SETUP_ANSWER, ...ticket, totpSetup: await startEnrolment(ctx, user, (await ctx.settings.get('config')).value.system.appName) };
  await sendCodeOnce(ctx, user, 'second-step', user.mobilePhone ? MessageServiceType.SMS : MessageServiceType.EMAIL);
  return CODE_ANSWER;
}

/** A failed attempt keeps its place in the failure count (audited); the one taking the last place
 *  answers "locked". */
export async function refuse(ctx: Ctx, policy: LoginSettings, slot: FailureSlot, ip: string, detail: Record<string, unknown>, message: string, data: Record<string, unknown> | null = null): Promise<never> {
  slot.keep();
  await ctx.audit.record({ action: slot.locks ? 'login.locked' : 'login.failure', ip, success: false, detail });
  if (slot.locks) throw lockedError(policy);
  throw new ApiError(401, message, data);
}

export async function login(ctx: Ctx, req: FastifyRequest, reply: FastifyReply, body: LoginBody, redirect: string | undefined): Promise<LoginAnswer> {
  const { value: policy } = await ctx.settings.get('login');
  return withFailureSlot(ctx, throttleKey(identifierColumn[policy.loginMethod], body.username), policy, (slot) => attempt(ctx, req, reply, body, redirect, policy, slot),
    () => ctx.audit.record({ action: 'login.locked', ip: req.ip, success: false, detail: { username: body.username } }));
}

/** One sign-in attempt holding its place in the failure count (kept when it fails). */
async function attempt(ctx: Ctx, req: FastifyRequest, reply: FastifyReply, body: LoginBody, redirect: string | undefined, policy: LoginSettings, slot: FailureSlot): Promise<LoginAnswer> {
  const byCode = policy.loginMethod === LoginMethod.PHONE_CAPTCHA;
  const client = { ip: req.ip, userAgent: req.headers['user-agent'] ?? null };
  const fail = (message: string, extra: Record<string, unknown> = {}) =>
    refuse(ctx, policy, slot, client.ip, { username: body.username, ...extra }, message, !byCode && needsCaptcha(policy, slot.before + 1) ? { captchaImageUrl: CAPTCHA_IMAGE_URL } : null);

  // With PHONE_CAPTCHA the captcha was asked before the code was sent. Attempts in flight count:
  // every attempt racing past the threshold needs the captcha.
  if (!byCode && needsCaptcha(policy, slot.before)) {
    if (!body.captcha) throw captchaError('Please enter the captcha');
    if (!(await consumeCaptcha(ctx, req, body.captcha, body.captchaKey))) await fail('Wrong captcha', { reason: 'captcha' });
  }

  const user = await findUser(ctx, policy, body.username);
  if (byCode) {
    if (!body.code) throw fieldError([{ field: 'code', rule: 'rule.code' }]);
    if (!user || !(await consumeCode(ctx, user.id, 'phone-login', body.code))) return fail(CODE_LOGIN_FAILED);
  } else {
    if (!body.password) throw fieldError([{ field: 'password', rule: 'rule.loginPassword' }]);
    const passwordOk = await verifyPassword(user?.passwordHash, body.password);
    if (!user || !passwordOk) return fail(LOGIN_FAILED);
  }
  if (user.availabilityStatus !== Status.Enable) return fail('User is disabled', { reason: 'disabled' });

  const secondStep = byCode ? await strongStepOf(ctx, policy, user) : await secondStepOf(ctx, policy, user);
  if (secondStep) {
    // The phone code is used up: the step goes on with a ticket (this attempt's place is given back).
    if (byCode) return askSecondStep(ctx, secondStep, user, client.ip, await issueStepTicket(ctx, user.id, 'phone'));
    if (!body.code) return askSecondStep(ctx, secondStep, user, client.ip);
    if (!(await passSecondStep(ctx, secondStep, user, body.code, client.ip))) return fail('Invalid verification code', { reason: 'second_step' });
  }

  await slot.clear(keysOfUser(user));
  if (!byCode && passwordExpired(policy.passwordPolicy, user, ctx.now())) {
    await grantExpiredChange(ctx, user.id);
    await ctx.audit.record({ action: 'login.second_step', actor: user, target: { type: 'user', id: user.id }, tenantId: user.tenantId, ip: client.ip, detail: { step: LoginStep.PASSWORD_EXPIRED } });
    return EXPIRED_ANSWER;
  }
  return startSession(ctx, req, reply, user, redirect, 'login.success');
}

/** Whether `code` passes the second step. The authenticator app's step also takes one of the
 *  person's recovery codes (used up); the set-up step confirms the new app (audited like the
 *  personal center's confirmation). */
export async function passSecondStep(ctx: Ctx, step: SecondStep, user: UserRow, code: string, ip: string): Promise<boolean> {
  const audit = (action: 'recovery.use' | 'user.update', detail: Record<string, unknown>) =>
    ctx.audit.record({ action, actor: user, target: { type: 'user', id: user.id }, tenantId: user.tenantId, ip, detail });
  switch (step) {
    case 'totp':
      if (!isRecoveryCode(code)) return verifyTotp(ctx, user.id, code);
      if (!(await useRecoveryCode(ctx, user.id, code))) return false;
      await audit('recovery.use', { atSignIn: true });
      return true;
    case 'totp-setup':
      if (!(await confirmEnrolment(ctx, user.id, code))) return false;
      await audit('user.update', { totp: 'enabled', atSignIn: true });
      return true;
    case 'code':
      return consumeCode(ctx, user.id, 'second-step', code);
  }
}

/** POST /authc/login/code: with the PHONE_CAPTCHA login method, sends a sign-in code by SMS.
 *  The captcha comes first when the policy asks for one; the answer is the same whether or not
 *  the number belongs to someone (and when a code was sent a moment ago). */
export async function sendLoginCode(ctx: Ctx, req: FastifyRequest, body: v.InferOutput<typeof loginCodeBody>): Promise<null> {
  const { value: policy } = await ctx.settings.get('login');
  if (policy.loginMethod !== LoginMethod.PHONE_CAPTCHA) throw new ApiError(400, 'Signing in with a code is not enabled');
  const state = await throttleState(ctx, throttleKey('mobilePhone', body.phone));
  if (state.lockedUntil) throw lockedError(policy);
  if (needsCaptcha(policy, state.failures)) {
    if (!body.captcha) throw captchaError('Please enter the captcha');
    if (!(await consumeCaptcha(ctx, req, body.captcha, body.captchaKey))) throw captchaError('Wrong captcha');
  }
  const user = await findUser(ctx, policy, body.phone);
  if (user && user.availabilityStatus === Status.Enable) sendCodeAfterAnswer(ctx, req.log, user, 'phone-login', MessageServiceType.SMS);
  return null;
}

/** PUT /authc/password/expired: after a sign-in answered PASSWORD_EXPIRED, the old password and
 *  a new one (the policy's history applies) open the session. Without a live grant (or with a
 *  wrong old password) it fails like a sign-in and counts toward the lockout. */
export async function changeExpiredPassword(ctx: Ctx, req: FastifyRequest, reply: FastifyReply, body: v.InferOutput<typeof expiredPasswordBody>, redirect: string | undefined): Promise<LoginAnswer> {
  const { value: policy } = await ctx.settings.get('login');
  const user = await withFailureSlot(ctx, throttleKey(identifierColumn[policy.loginMethod], body.username), policy, (slot) => storeExpiredChange(ctx, policy, body, slot));
  await endEveryAccess(ctx, user.id);
  await ctx.audit.record({ action: 'password.change', actor: user, target: { type: 'user', id: user.id }, tenantId: user.tenantId, ip: req.ip, detail: { expired: true } });
  return startSession(ctx, req, reply, user, redirect, 'login.success');
}

/** The expired-password change holding its place in the failure count (kept for a wrong old password). */
async function storeExpiredChange(ctx: Ctx, policy: LoginSettings, body: v.InferOutput<typeof expiredPasswordBody>, slot: FailureSlot): Promise<UserRow> {
  const user = await findUser(ctx, policy, body.username);
  const passwordOk = await verifyPassword(user?.passwordHash, body.password);
  if (!user || !passwordOk) {
    slot.keep();
    throw slot.locks ? lockedError(policy) : new ApiError(401, LOGIN_FAILED);
  }
  if (!(await storeNewPassword(ctx, user, body.newPassword, () => consumeExpiredChange(ctx, user.id)))) {
    throw new ApiError(401, 'Sign in again to change your expired password');
  }
  return user;
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
  await noteSignInDevice(ctx, req, reply, user, tokenMode, client);
  await ctx.audit.record({ action, actor: user, target: { type: 'user', id: user.id }, tenantId: user.tenantId, ip: client.ip, detail: { mode: tokenMode ? 'token' : 'cookie' } });
  return {
    hasNextStep: false,
    loginSuccess: true,
    message: 'Login success',
    redirectURL: safeRedirect(ctx, req, redirect),
    ...(tokenMode ? { token: session.secret, tokenName: await tokenHeaderName(ctx) } : {}),
  };
}
