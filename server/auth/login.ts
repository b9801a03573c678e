// POST /authc/login: lockout, captcha, password (Argon2id), optional second step, then a fresh
// session (rotation). Unknown user and wrong password give the same answer in the same time.
//
// The PHONE_CAPTCHA login method signs in with a code sent by SMS (POST /authc/login/code)
// instead of a password; that code is the first factor. No SMS code follows it, but a person with
// an authenticator app, or an administrator under adminStrongFactor, still takes that step: the
// answer carries a step ticket and the step goes to POST /authc/login/step (login-step.ts).
// Second auth: a person with an authenticator app always confirms with it; otherwise
// PHONE_CAPTCHA sends a code (SMS, or email without a phone), and TOTP sends an SMS code to
// people without an authenticator, refusing those without a phone too. A passkey is the strongest
// of these: whenever a second step is asked, a person with a passkey may answer it with one
// (offered beside the authenticator app's code; instead of a code sent to them); the PASSKEY
// policy asks for it first, and people without a passkey take the TOTP policy's path. At the app's
// step and at the passkey step one of the person's recovery codes is accepted instead.
// adminStrongFactor: an administrator always takes a second step with a strong factor (their
// passkey or app); one who has neither sets up the app first (TOTP_SETUP).
// Password expiry (passwordPolicy.expiryDays): once every factor passed, an expired password
// answers the next step PASSWORD_EXPIRED instead of a session, with a step ticket that grants the
// change for a few minutes; PUT /authc/password/expired (the ticket, old + new password) uses it
// and opens the session. The ticket goes only to the client that passed every factor, so the
// password alone (without the second factor) cannot change an expired password.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type * as v from 'valibot';
import type { AuditEvent } from '../audit';
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
import { noteSignInDevice } from './devices';
import { consumeCode, sendCodeAfterAnswer, sendCodeOnce } from './codes';
import { issueStepTicket, tryStepTicket, useStepTicket } from './step-tickets';
import { passwordExpired, storeNewPassword } from './password-policy';
import { endEveryAccess } from '../oidc/revoke';
import { lockUsers } from '../db/named-lock';
import { hasPasskey } from './passkeys/has-passkey';
import { secondStepOptions, storedPasskey, usePasskey, NOT_YOURS } from './passkeys/assertion';
import { directoryFirstFactor } from '../ldap/sign-in';
import { signInNameOf, type SignInName } from '../ldap/sign-in-name';

type LoginBody = v.InferOutput<typeof loginBody>;

const LOGIN_FAILED = 'Invalid username or password';
const CODE_LOGIN_FAILED = 'Invalid phone number or code';
export const USER_DISABLED = 'User is disabled';
const CHANGED_WHILE_SIGNING_IN = 'Your account changed while you were signing in (a new password, or it was disabled): sign in again';
/** The envelope code that the console treats specially: here, "show (a new) captcha". */
const CAPTCHA_CODE = 1001;

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
const CODE_ANSWER: LoginAnswer = {
  hasNextStep: true,
  nextStep: LoginStep.PHONE_CAPTCHA,
  loginSuccess: false,
  message: 'Enter the verification code sent to you',
};
const TOTP_ANSWER: LoginAnswer = { hasNextStep: true, nextStep: LoginStep.TOTP, loginSuccess: false, message: 'Enter the code from your authenticator app' };
const TOTP_SETUP_ANSWER: LoginAnswer = {
  hasNextStep: true,
  nextStep: LoginStep.TOTP_SETUP,
  loginSuccess: false,
  message: 'Administrators must use an authenticator app or a passkey: set up an authenticator app to continue',
};
const PASSKEY_ANSWER: LoginAnswer = { hasNextStep: true, nextStep: LoginStep.PASSKEY, loginSuccess: false, message: 'Confirm with your passkey' };
const EXPIRED_ANSWER: LoginAnswer = {
  hasNextStep: true,
  nextStep: LoginStep.PASSWORD_EXPIRED,
  loginSuccess: false,
  message: 'Your password has expired; choose a new one',
};
const NO_SECOND_FACTOR = 'Two-step sign-in needs an authenticator app or a mobile phone number; ask an administrator to set one up for you';

export interface SecondStep {
  kind: 'totp' | 'totp-setup' | 'code' | 'passkey';
  /** A passkey may answer it (the person has one). */
  passkey: boolean;
}

/** Which second step `user` takes under `policy` (none: undefined). */
async function secondStepOf(ctx: Ctx, policy: LoginSettings, user: UserRow): Promise<SecondStep | undefined> {
  const totp = await totpEnabled(ctx, user.id);
  const strongRequired = policy.adminStrongFactor && (await isAdministrator(ctx, user));
  if (!totp && !strongRequired && policy.secondAuth === null) return undefined;
  const passkey = await hasPasskey(ctx.db, user.id);
  if (strongRequired && !totp && !passkey) return { kind: 'totp-setup', passkey };
  if (passkey && (policy.secondAuth === SecondAuth.PASSKEY || !totp)) return { kind: 'passkey', passkey };
  if (totp) return { kind: 'totp', passkey };
  if (policy.secondAuth !== SecondAuth.PHONE_CAPTCHA && !user.mobilePhone) throw new ApiError(403, NO_SECOND_FACTOR);
  return { kind: 'code', passkey };
}

/** The second step's answer: the prompt, with a passkey's options (its challenge bound to this
 *  person) when one may answer. A code is sent only when a code is the step. */
async function secondStepAnswer(ctx: Ctx, user: UserRow, step: SecondStep): Promise<LoginAnswer> {
  switch (step.kind) {
    case 'code':
      await sendCodeOnce(ctx, user, 'second-step', user.mobilePhone ? MessageServiceType.SMS : MessageServiceType.EMAIL);
      return CODE_ANSWER;
    case 'totp-setup':
      return { ...TOTP_SETUP_ANSWER, totpSetup: await startEnrolment(ctx, user, (await ctx.settings.get('config')).value.system.appName) };
    case 'totp':
    case 'passkey': {
      const answer = step.kind === 'totp' ? TOTP_ANSWER : PASSKEY_ANSWER;
      return step.passkey ? { ...answer, passkeyOptions: await secondStepOptions(ctx, user.id) } : answer;
    }
  }
}

/** Whether the second step was passed: a passkey of this person for this person's challenge, or
 *  the step's code. The app's step and the passkey step also take one of the person's recovery
 *  codes (used up); the set-up step confirms the new app (audited like the personal center's
 *  confirmation). A passkey's refusal says why. */
export async function passSecondStep(
  ctx: Ctx,
  user: UserRow,
  step: SecondStep,
  body: Pick<LoginBody, 'code' | 'passkey'>,
  ip: string,
): Promise<{ passed: boolean; message?: string }> {
  if (body.passkey) {
    if (!step.passkey) return { passed: false };
    try {
      const stored = await storedPasskey(ctx, body.passkey);
      if (stored.userId !== user.id) return { passed: false, message: NOT_YOURS };
      await usePasskey(ctx, body.passkey, stored, 'second-step');
      return { passed: true };
    } catch (error) {
      if (error instanceof ApiError) return { passed: false, message: error.message };
      throw error;
    }
  }
  const code = body.code;
  if (!code) return { passed: false };
  const audit = (action: 'recovery.use' | 'user.update', detail: Record<string, unknown>) =>
    ctx.audit.record({ action, actor: user, target: { type: 'user', id: user.id }, tenantId: user.tenantId, ip, detail });
  const recovery = () =>
    ctx.audit.change(async () => {
      if (!(await useRecoveryCode(ctx, user.id, code))) return false;
      await audit('recovery.use', { atSignIn: true });
      return true;
    });
  switch (step.kind) {
    case 'totp':
      return { passed: isRecoveryCode(code) ? await recovery() : await verifyTotp(ctx, user.id, code) };
    case 'passkey':
      return { passed: await recovery() };
    case 'totp-setup':
      return {
        passed: await ctx.audit.change(async () => {
          if (!(await confirmEnrolment(ctx, user.id, code))) return false;
          await audit('user.update', { totp: 'enabled', atSignIn: true });
          return true;
        }),
      };
    case 'code':
      return { passed: await consumeCode(ctx, user.id, 'second-step', code) };
  }
}

/** The second step after a first factor other than the password (the PHONE_CAPTCHA code, a
 *  third-party provider): the person's passkey or authenticator app, or an administrator's set-up
 *  of the app, but no code by SMS or email (secondAuth adds that to a password, and this factor is the SMS or
 *  stands in for the password). */
export const strongStepOf = (ctx: Ctx, policy: LoginSettings, user: UserRow) => secondStepOf(ctx, { ...policy, secondAuth: null }, user);

/** Asks `user` for `step` (audited), with the step ticket of a first factor that cannot be sent
 *  again (a phone code, a third-party provider). */
export async function askSecondStep(ctx: Ctx, step: SecondStep, user: UserRow, ip: string, stepTicket?: string): Promise<LoginAnswer> {
  await ctx.audit.standalone({ action: 'login.second_step', actor: user, target: { type: 'user', id: user.id }, tenantId: user.tenantId, ip });
  const answer = await secondStepAnswer(ctx, user, step);
  return stepTicket ? { ...answer, stepTicket } : answer;
}

/** How a failed attempt is audited: the caller's address and what failed, with the account when
 *  the attempt named it for certain (a passkey names its own). */
export type FailedAttempt = Pick<AuditEvent, 'actor' | 'target' | 'tenantId'> & { ip: string; detail: Record<string, unknown> };

/** The account an attempt named, when it exists, as the record's target: the record is then in the
 *  person's history and their tenant's log (whose administrators unlock them). A name nobody has
 *  gives neither, so no tenant's log tells which names exist elsewhere. Who typed it is not known:
 *  the record has no actor. */
export const attemptOn = (user: UserRow | undefined): Pick<FailedAttempt, 'target' | 'tenantId'> =>
  user ? { target: { type: 'user', id: user.id, name: user.username }, tenantId: user.tenantId } : {};

/** A failed attempt keeps its place in the failure count (audited); the one taking the last place
 *  answers "locked". */
export async function refuse(
  ctx: Ctx,
  policy: LoginSettings,
  slot: FailureSlot,
  attempt: FailedAttempt,
  message: string,
  data: Record<string, unknown> | null = null,
): Promise<never> {
  slot.keep();
  await ctx.audit.standalone({ action: slot.locks ? 'login.locked' : 'login.failure', ...attempt, success: false });
  if (slot.locks) throw lockedError(policy);
  throw new ApiError(401, message, data);
}

export async function login(ctx: Ctx, req: FastifyRequest, reply: FastifyReply, body: LoginBody, redirect: string | undefined): Promise<LoginAnswer> {
  const { value: policy } = await ctx.settings.get('login');
  // A username as Windows people type it (`CORP\jdoe`, `jdoe@corp.example`) is the person it
  // names: every spelling of one person counts against one lockout (server/ldap/sign-in-name.ts).
  const name: SignInName = policy.loginMethod === LoginMethod.USERNAME_PASSWORD ? await signInNameOf(ctx, body.username) : { username: body.username };
  return withFailureSlot(
    ctx,
    throttleKey(identifierColumn[policy.loginMethod], name.username),
    policy,
    (slot) => attempt(ctx, req, reply, body, name, redirect, policy, slot),
    () => recordLockedOut(ctx, policy, { typed: body.username, username: name.username }, req.ip),
  );
}

/** The record of an attempt refused because its name is locked: the name as typed, and the account
 *  it names (`username`, as sign-in-name.ts resolved it) when that exists. */
async function recordLockedOut(ctx: Ctx, policy: LoginSettings, name: { typed: string; username: string }, ip: string): Promise<void> {
  const account = attemptOn(await findUser(ctx, policy, name.username));
  await ctx.audit.standalone({ action: 'login.locked', ip, success: false, detail: { username: name.typed }, ...account });
}

/** One sign-in attempt holding its place in the failure count (kept when it fails). */
async function attempt(
  ctx: Ctx,
  req: FastifyRequest,
  reply: FastifyReply,
  body: LoginBody,
  name: SignInName,
  redirect: string | undefined,
  policy: LoginSettings,
  slot: FailureSlot,
): Promise<LoginAnswer> {
  const byCode = policy.loginMethod === LoginMethod.PHONE_CAPTCHA;
  const client = { ip: req.ip, userAgent: req.headers['user-agent'] ?? null };
  let user = await findUser(ctx, policy, name.username);
  const fail = (message: string, extra: Record<string, unknown> = {}) =>
    refuse(
      ctx,
      policy,
      slot,
      { ip: client.ip, detail: { username: body.username, ...extra }, ...attemptOn(user) },
      message,
      !byCode && needsCaptcha(policy, slot.before + 1) ? { captchaImageUrl: CAPTCHA_IMAGE_URL } : null,
    );

  // With PHONE_CAPTCHA the captcha was asked before the code was sent. Attempts in flight count:
  // every attempt racing past the threshold needs the captcha.
  if (!byCode && needsCaptcha(policy, slot.before)) {
    if (!body.captcha) throw captchaError('Please enter the captcha');
    if (!(await consumeCaptcha(ctx, req, body.captcha, body.captchaKey))) await fail('Wrong captcha', { reason: 'captcha' });
  }

  /** The directory checked the password: it keeps and expires it, there is none here to change. */
  let vouchedByDirectory = false;
  if (byCode) {
    if (!body.code) throw fieldError([{ field: 'code', rule: 'rule.code' }]);
    if (!user || !(await consumeCode(ctx, user.id, 'phone-login', body.code))) return fail(CODE_LOGIN_FAILED);
  } else {
    if (!body.password) throw fieldError([{ field: 'password', rule: 'rule.loginPassword' }]);
    // A directory's person signs in with the directory's password (server/ldap/sign-in.ts).
    const lookUpUnknown = policy.loginMethod === LoginMethod.USERNAME_PASSWORD;
    const directory = await directoryFirstFactor(ctx, name, body.directoryPassword, user, lookUpUnknown, client.ip);
    // No wrong password: the attempt does not count toward a lockout (its place is given back).
    const uncounted = async (status: number, message: string, audit: Record<string, unknown> | undefined, on = user) => {
      if (audit)
        await ctx.audit.standalone({ action: 'login.failure', ip: client.ip, detail: { username: body.username, ...audit }, success: false, ...attemptOn(on) });
      throw new ApiError(status, message);
    };
    if (directory.kind === 'unreachable') return uncounted(503, directory.message, directory.audit);
    if (directory.kind === 'blocked')
      return uncounted(403, directory.message, { reason: 'directory_account_state', state: directory.state }, directory.user ?? user);
    if (directory.kind === 'refused') return fail(LOGIN_FAILED, directory.audit ?? { reason: 'directory', detail: directory.reason });
    if (directory.kind === 'passed') {
      user = directory.user;
      vouchedByDirectory = true;
    } else {
      const passwordOk = await verifyPassword(user?.passwordHash, body.password);
      if (!user || !passwordOk) return fail(LOGIN_FAILED);
    }
  }
  if (user.availabilityStatus !== Status.Enable) return fail(USER_DISABLED, { reason: 'disabled' });

  const secondStep = byCode ? await strongStepOf(ctx, policy, user) : await secondStepOf(ctx, policy, user);
  if (secondStep) {
    // The phone code is used up: the step goes on with a ticket (this attempt's place is given back).
    if (byCode) return askSecondStep(ctx, secondStep, user, client.ip, await issueStepTicket(ctx, user.id, 'phone'));
    if (!body.code && !body.passkey) return askSecondStep(ctx, secondStep, user, client.ip);
    const { passed, message } = await passSecondStep(ctx, user, secondStep, body, client.ip);
    if (!passed) return fail(message ?? 'Invalid verification code', { reason: 'second_step', ...(body.passkey ? { method: 'passkey' } : {}) });
  }

  await slot.clear(keysOfUser(user));
  if (!byCode && !vouchedByDirectory && passwordExpired(policy.passwordPolicy, user, ctx.now())) {
    const stepTicket = await ctx.audit.change(async () => {
      const stepTicket = await issueStepTicket(ctx, user.id, 'password-expired');
      await ctx.audit.record({
        action: 'login.second_step',
        actor: user,
        target: { type: 'user', id: user.id },
        tenantId: user.tenantId,
        ip: client.ip,
        detail: { step: LoginStep.PASSWORD_EXPIRED },
      });
      return stepTicket;
    });
    return { ...EXPIRED_ANSWER, stepTicket };
  }
  return startSession(ctx, req, reply, user, redirect, 'login.success');
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
export async function changeExpiredPassword(
  ctx: Ctx,
  req: FastifyRequest,
  reply: FastifyReply,
  body: v.InferOutput<typeof expiredPasswordBody>,
  redirect: string | undefined,
): Promise<LoginAnswer> {
  const { value: policy } = await ctx.settings.get('login');
  const user = await withFailureSlot(
    ctx,
    throttleKey(identifierColumn[policy.loginMethod], body.username),
    policy,
    (slot) => storeExpiredChange(ctx, policy, body, slot, req.ip),
    () => recordLockedOut(ctx, policy, { typed: body.username, username: body.username }, req.ip),
  );
  return startSession(ctx, req, reply, user, redirect, 'login.success');
}

/** The expired-password change holding its place in the failure count (kept for a wrong old password). */
async function storeExpiredChange(
  ctx: Ctx,
  policy: LoginSettings,
  body: v.InferOutput<typeof expiredPasswordBody>,
  slot: FailureSlot,
  ip: string,
): Promise<UserRow> {
  const user = await findUser(ctx, policy, body.username);
  const passwordOk = await verifyPassword(user?.passwordHash, body.password);
  // A wrong old password is a failed sign-in, recorded as the sign-in form's are.
  if (!user || !passwordOk) {
    return refuse(ctx, policy, slot, { ip, detail: { username: body.username, step: 'password-expired' }, ...attemptOn(user) }, LOGIN_FAILED);
  }
  // The grant is the ticket the sign-in answered (to the client that passed every factor).
  const ticket = await tryStepTicket(ctx, body.stepTicket);
  const granted = ticket?.step === 'password-expired' && ticket.userId === user.id && user.availabilityStatus === Status.Enable;
  const along = async () => {
    await endEveryAccess(ctx, user.id);
    await ctx.audit.record({
      action: 'password.change',
      actor: user,
      target: { type: 'user', id: user.id },
      tenantId: user.tenantId,
      ip,
      detail: { expired: true },
    });
  };
  const stored = granted && (await storeNewPassword(ctx, user, body.newPassword, () => useStepTicket(ctx, ticket.id), along));
  if (!stored) throw new ApiError(401, 'Sign in again to change your expired password');
  // The session opens with the new password (startSession checks it is still the stored one: stillAsChecked).
  return { ...user, passwordHash: stored };
}

/**
 * Whether the person's row is still as the sign-in read it: the password it checked still the stored
 * one and the person still enabled, read under the row's lock (PostgreSQL; SQLite's write
 * transaction holds the database) in the transaction that writes the session. Otherwise a reset,
 * change or disable committed while the password was being checked (the KDF takes tens of
 * milliseconds) would leave a session opened with the replaced password: the session check
 * compares the password's change time with the session's start, both on the same clock reading at
 * worst. With the lock, the reset either commits first (read here: no session) or waits for this
 * transaction and then deletes the new session with the others.
 */
async function stillAsChecked(ctx: Ctx, user: UserRow): Promise<boolean> {
  await lockUsers(ctx, (eb) => eb('id', '=', user.id));
  const now = await ctx.db.selectFrom('users').select(['passwordHash', 'availabilityStatus']).where('id', '=', user.id).executeTakeFirst();
  return now?.passwordHash === user.passwordHash && now.availabilityStatus === Status.Enable;
}

/** Opens a session for `user` after a successful sign-in (password, passkey or third party): the old
 *  session ends (rotation); token mode only for a configured origin that asked for it. */
export async function startSession(
  ctx: Ctx,
  req: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  redirect: string | undefined,
  action: 'login.success' | 'login.third_party',
  detail: Record<string, unknown> = {},
): Promise<LoginAnswer> {
  const client = { ip: req.ip, userAgent: req.headers['user-agent'] ?? null };
  const previous = await credentialOf(ctx, req);
  if (previous) await ctx.sessions.revokeSecret(previous.secret);
  const origin = req.headers.origin;
  const tokenMode = req.headers[AUTH_MODE_HEADER] === 'token' && origin !== undefined && ctx.config.corsOrigins.includes(origin);
  const session = await ctx.audit.change(async () => {
    if (!(await stillAsChecked(ctx, user))) return undefined;
    const session = await ctx.sessions.create(user.id, tokenMode ? 'token' : 'cookie', client);
    if (!tokenMode) setSessionCookie(req, reply, session.secret, session.expiresAt, ctx.now());
    await noteSignInDevice(ctx, req, reply, user, tokenMode, client);
    await ctx.audit.record({
      action,
      actor: user,
      target: { type: 'user', id: user.id },
      tenantId: user.tenantId,
      ip: client.ip,
      detail: { mode: tokenMode ? 'token' : 'cookie', ...detail },
    });
    return session;
  });
  if (!session) {
    // Not counted towards a lockout (the password was right when checked), but seen: it may be
    // someone signing in with a password its owner was replacing.
    await ctx.audit.standalone({
      action: 'login.failure',
      ip: client.ip,
      success: false,
      detail: { username: user.username, reason: 'changed_while_signing_in' },
      ...attemptOn(user),
    });
    throw new ApiError(401, CHANGED_WHILE_SIGNING_IN);
  }
  return {
    hasNextStep: false,
    loginSuccess: true,
    message: 'Login success',
    redirectURL: safeRedirect(ctx, req, redirect),
    ...(tokenMode ? { token: session.secret, tokenName: await tokenHeaderName(ctx) } : {}),
  };
}
