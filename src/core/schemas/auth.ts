// Sign-in, session and captcha calls (/authc/login, /cas/*, /captcha/image/display).
import * as v from 'valibot';
import { loginCaptcha, secondStepCode } from '../validation/login';
import { visibleCharactersOnly } from '../validation/visible-text';
import { id, transformedPassword } from './common';
import { totpEnrolment } from './totp';
import { authenticationCredential, passkeyRequestOptions } from './passkeys';

const identifier = v.pipe(
  v.string('rule.loginUsername'),
  v.trim(),
  v.nonEmpty('rule.loginUsername'),
  v.maxLength(100, 'rule.loginUsername'),
  visibleCharactersOnly('rule.loginUsername'),
);
const captchaKey = v.optional(v.pipe(v.string('rule.captcha'), v.regex(/^[\w-]{16,128}$/, 'rule.captcha')));

/** POST /authc/login body: the login form with the password already transformed. With the
 *  PHONE_CAPTCHA login method `username` is the mobile phone, `code` the code sent to it and
 *  there is no password. */
export const loginBody = v.object({
  username: identifier,
  password: v.optional(transformedPassword),
  /** The password as typed (trimmed), sent beside the transformed one only when a tenant signs in
   *  with a directory's password (the public login settings' `directorySignIn`): an LDAP bind needs
   *  it (server/ldap/sign-in.ts). Never stored. */
  directoryPassword: v.optional(v.pipe(v.string('rule.required'), v.maxLength(1024, 'rule.maxLength?max=1024'))),
  captcha: v.optional(loginCaptcha),
  /** The random value the client put in the captcha image's query (binds the captcha without a cookie). */
  captchaKey,
  nextStep: v.optional(v.pipe(v.string('rule.required'), v.maxLength(32, 'rule.required'))),
  code: v.optional(secondStepCode),
  /** The second step answered with a passkey instead of a code (the assertion of `passkeyOptions`). */
  passkey: v.optional(authenticationCredential),
});

/** A step ticket as the server issues it (server/auth/step-tickets.ts): `<id>.<secret>`. */
const stepTicket = v.pipe(v.string('rule.required'), v.regex(/^[\w-]{1,64}\.[\w-]{43}$/, 'rule.required'));

/** POST /authc/login/step: the second step of a sign-in whose first factor answered a step ticket
 *  (a phone code, a third-party provider), with the step's code or a passkey's assertion. */
export const loginStepBody = v.object({ stepTicket, code: v.optional(secondStepCode), passkey: v.optional(authenticationCredential) });

/** POST /authc/login/code (PHONE_CAPTCHA login method): send a sign-in code to this phone. */
export const loginCodeBody = v.object({
  phone: identifier,
  captcha: v.optional(loginCaptcha),
  captchaKey,
});

/** PUT /authc/password/expired: the old password again and the new one, both transformed, with the
 *  step ticket of the sign-in that answered PASSWORD_EXPIRED. */
export const expiredPasswordBody = v.object({
  stepTicket,
  username: identifier,
  password: transformedPassword,
  newPassword: transformedPassword,
});

/** Query parameters that pass through the sign-in (where to go afterwards). */
export const loginQuery = v.object({
  redirect: v.optional(v.pipe(v.string(), v.maxLength(2000))),
});

export const loginAnswer = v.object({
  hasNextStep: v.boolean(),
  nextStep: v.optional(v.string()),
  loginSuccess: v.boolean(),
  message: v.string(),
  redirectURL: v.optional(v.string()),
  /** Token mode only: the session token, kept in memory and sent in the header `tokenName`. */
  token: v.optional(v.string()),
  /** Token mode only: the header the server reads the token from (authConfig.tokenName, lower case). */
  tokenName: v.optional(v.string()),
  /** Next step TOTP_SETUP only: the new authenticator app's secret, shown this once. */
  totpSetup: v.optional(totpEnrolment),
  /** A next step after a first factor that cannot be sent again (a phone code, a third-party
   *  provider): kept in memory and sent with the step's code to POST /authc/login/step. */
  stepTicket: v.optional(v.string()),
  /** With a next step a passkey may answer (PASSKEY, or TOTP for a person who has one): the options
   *  of that assertion, its challenge bound to this person's sign-in. */
  passkeyOptions: v.optional(passkeyRequestOptions),
});

/** `data` of a failed sign-in: a captcha to show next, and/or an application code (1001). */
export const loginErrorData = v.object({ captchaImageUrl: v.optional(v.string()), code: v.optional(v.union([v.number(), v.string()])) });

export const captchaQuery = v.object({
  r: v.optional(v.pipe(v.string(), v.maxLength(128))),
  key: v.optional(v.pipe(v.string('rule.captcha'), v.regex(/^[\w-]{16,128}$/, 'rule.captcha'))),
});

export const ownedApp = v.object({ id: v.string(), name: v.string(), entrypoint: v.optional(v.string()) });

export const sessionUser = v.object({
  id: v.string(),
  username: v.string(),
  realName: v.optional(v.string()),
  avatar: v.optional(v.string()),
  tenantId: v.optional(v.string()),
  isAdmin: v.boolean(),
  isMaster: v.boolean(),
  ownedApps: v.array(ownedApp),
  permissions: v.array(v.string()),
  featureBlacklist: v.array(v.string()),
  sessionId: v.string(),
  extraProp: v.record(v.string(), v.unknown()),
});

export const sessionAnswer = v.object({ id: v.string(), user: sessionUser, administeredApps: v.array(ownedApp) });

export const casLoginAnswer = v.object({ loginSuccess: v.boolean(), redirectURL: v.string(), message: v.string() });
/** `appLogoutURL`: where the browser goes first to sign out of the SAML apps reached only through
 *  it (front-channel Single Logout); the last of them brings it to the sign-in page. */
export const logoutAnswer = v.object({ redirectURL: v.string(), appLogoutURL: v.optional(v.string()) });

/** GET /user/sessions: the current user's sessions (public handles only). */
export const sessionInfo = v.object({
  id: v.string(),
  current: v.boolean(),
  authMode: v.string(),
  ip: v.nullable(v.string()),
  userAgent: v.nullable(v.string()),
  createdAt: v.number(),
  lastSeenAt: v.number(),
  expiresAt: v.number(),
});

/** GET /user/{id}/sessions: a user's sessions as an administrator sees them (none is "current"). */
export const userSession = v.omit(sessionInfo, ['current']);

/** DELETE /user/{id}/sessions/{sessionId}. */
export const userSessionParams = v.object({ id, sessionId: id });
