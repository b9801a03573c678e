// Login settings (security policy of the sign-in) and the system config / branding
import * as v from 'valibot';
import { PASSWORD } from '../config';
import { BackgroundType, CaptchaKind, LoginMethod, SecondAuth } from '../enums';
import { rules } from '../validation';
import { tokenHeaderName } from '../validation/token-header';
import { optionalText, uploadedImage, version, yesNo } from './common';
import { formatRuleMessage } from '../rule-message';
import { FieldRules, fieldRulesModes } from '../validation/field-rules-modes';

const values = <T extends Record<string, string>>(enumeration: T) => Object.values(enumeration) as T[keyof T][];
const between = (min: number, max: number) => rules.range(min, max);

/** Password rules on top (which always asks for a digit and a non-digit): the length within
 *  the bounds, further character classes, how many earlier passwords may not be reused, and
 *  after how many days a password expires (0: never). */
const passwordPolicy = v.pipe(
  v.object({
    minLength: between(PASSWORD.minLength, PASSWORD.maxLength),
    maxLength: between(PASSWORD.minLength, PASSWORD.maxLength),
    requireUppercase: v.boolean('rule.required'),
    requireLowercase: v.boolean('rule.required'),
    requireSymbol: v.boolean('rule.required'),
    history: between(0, 24),
    expiryDays: between(0, 3650),
  }),
  v.forward(
    v.check((policy) => policy.maxLength >= policy.minLength, 'settings:rule.passwordMaxLength'),
    ['maxLength'],
  ),
);
export type PasswordPolicy = v.InferOutput<typeof passwordPolicy>;

/** The sign-in policy (operate/setting). */
export const loginSettings = v.object({
  /** Which identifier the username field takes; PHONE_CAPTCHA signs in with a code sent by SMS
   *  to the mobile phone instead of a password. */
  loginMethod: v.picklist(values(LoginMethod), 'rule.loginMethod'),
  /** Failed sign-ins before the account is locked. */
  maxFailures: between(1, 100),
  lockMinutes: between(1, 24 * 60),
  /** Always ask for a captcha. */
  captchaEnabled: v.boolean('rule.required'),
  /** Ask for a captcha after this many failures (0: never, unless captchaEnabled). */
  captchaAfterFailures: between(0, 100),
  captchaKind: v.picklist(values(CaptchaKind), 'rule.captchaKind'),
  captchaLength: between(4, 8),
  /** A second step after the password (null: the password alone). PHONE_CAPTCHA sends a one-time
   *  code; TOTP asks for the authenticator app's code (an SMS code for people without one);
   *  PASSKEY asks for a passkey (people without one take TOTP's path). A person with a passkey may
   *  always use it as the second step (server/auth/login.ts). */
  secondAuth: v.nullable(v.picklist([SecondAuth.PHONE_CAPTCHA, SecondAuth.TOTP, SecondAuth.PASSKEY], 'rule.secondAuth')),
  /** Platform, tenant and app administrators must use a strong second factor (a passkey or an
   *  authenticator app): after the password they always confirm with theirs, and one who has
   *  neither sets up the app, before a session. */
  adminStrongFactor: v.boolean('rule.required'),
  sessionIdleMinutes: between(1, 7 * 24 * 60),
  sessionAbsoluteHours: between(1, 30 * 24),
  backgroundType: v.picklist(values(BackgroundType), 'rule.backgroundType'),
  background: optionalText(2000),
  passwordPolicy,
  /** Which rules names, usernames and phone numbers follow everywhere (forms, API, SCIM, CSV,
   *  third-party sign-in): `default` (letters, digits, _, - or Chinese; mainland mobile numbers) or
   *  `international` (any script with spaces; e-mail/UPN usernames; E.164 phones). Stored people
   *  are never re-validated by a switch (src/core/validation/field-rules.ts). */
  fieldRules: v.picklist(fieldRulesModes, 'rule.fieldRules'),
});
export type LoginSettings = v.InferOutput<typeof loginSettings>;

export const defaultLoginSettings: LoginSettings = {
  loginMethod: LoginMethod.USERNAME_PASSWORD,
  maxFailures: 5,
  lockMinutes: 15,
  captchaEnabled: false,
  captchaAfterFailures: 3,
  captchaKind: CaptchaKind.NUMBER_LETTER,
  captchaLength: 4,
  secondAuth: null,
  adminStrongFactor: false,
  sessionIdleMinutes: 30,
  sessionAbsoluteHours: 12,
  backgroundType: BackgroundType.InitialVersion,
  background: null,
  passwordPolicy: {
    minLength: PASSWORD.minLength,
    maxLength: PASSWORD.maxLength,
    requireUppercase: false,
    requireLowercase: false,
    requireSymbol: false,
    history: 0,
    expiryDays: 0,
  },
  fieldRules: FieldRules.Default,
};

/** What the sign-in page and the password forms need before anyone signs in (GET /settings/login/public). */
export const publicLoginSettings = v.object({
  loginMethod: loginSettings.entries.loginMethod,
  captchaEnabled: v.boolean(),
  captchaKind: loginSettings.entries.captchaKind,
  captchaLength: v.number(),
  secondAuth: loginSettings.entries.secondAuth,
  backgroundType: loginSettings.entries.backgroundType,
  background: v.nullable(v.string()),
  passwordPolicy,
  /** The passkeys' RP ID when the asking page's origin may use passkeys here; null: no passkeys there. */
  passkeyRpId: v.nullable(v.string()),
  /** The field rules in force (loginSettings.fieldRules): the console's forms follow them. */
  fieldRules: loginSettings.entries.fieldRules,
  /** A tenant signs in with a directory's password (docs/ldap.md): the sign-in form then also sends
   *  the password as typed, which an LDAP bind needs (loginBody.directoryPassword). */
  directorySignIn: v.optional(v.boolean()),
});
export type PublicLoginSettings = v.InferOutput<typeof publicLoginSettings>;

/** A new password under `policy`: the rule first, then the policy's length and classes. */
export function passwordRule(policy: PasswordPolicy) {
  const message = formatRuleMessage('settings:rule.passwordPolicy', { min: policy.minLength, max: policy.maxLength });
  const classes: [boolean, RegExp, string][] = [
    [policy.requireUppercase, /[A-Z]/, 'settings:rule.passwordUppercase'],
    [policy.requireLowercase, /[a-z]/, 'settings:rule.passwordLowercase'],
    [policy.requireSymbol, /[^A-Za-z0-9]/, 'settings:rule.passwordSymbol'],
  ];
  return v.pipe(
    rules.newPassword,
    v.minLength<string, number, string>(policy.minLength, message),
    v.maxLength<string, number, string>(policy.maxLength, message),
    ...classes.filter(([wanted]) => wanted).map(([, pattern, key]) => v.regex<string, string>(pattern, key)),
  );
}

/** loginSettings with the rule that spans two fields: a picture background is one of our own
 *  uploads (see uploadedImage); a colour or custom CSS is not an image. */
export const checkedLoginSettings = v.pipe(
  loginSettings,
  v.forward(
    v.check(
      (settings) => settings.backgroundType !== BackgroundType.PictureBackground || !settings.background || v.is(uploadedImage, settings.background),
      'rule.fileName',
    ),
    ['background'],
  ),
);

export const loginSettingsUpdate = v.object({ ...v.partial(loginSettings).entries, version });

const imagePath = uploadedImage;

/** System config (branding and login page). */
export const systemConfig = v.object({
  appName: v.pipe(v.string('rule.required'), v.nonEmpty('rule.required'), v.maxLength(50, 'rule.maxLength?max=50')),
  appLogo: imagePath,
  appBrandImage: imagePath,
  appBrandImageLight: imagePath,
  /** The browser tab's icon (beyond the entity fields' list; an .ico or SVG upload); empty: the default. */
  favicon: v.optional(imagePath, ''),
  copyright: v.pipe(v.string('rule.required'), v.maxLength(200, 'rule.maxLength?max=200')),
  loginLogoPath: imagePath,
  loginSign: v.pipe(v.string('rule.required'), v.maxLength(200, 'rule.maxLength?max=200')),
  supportThirdLogin: yesNo,
  globalMenu: v.pipe(v.string('rule.required'), v.maxLength(64, 'rule.maxLength?max=64')),
  projectScene: v.pipe(v.string('rule.required'), v.maxLength(64, 'rule.maxLength?max=64')),
  loginTheme: v.pipe(v.string('rule.required'), v.maxLength(64, 'rule.maxLength?max=64')),
  topMenuType: v.picklist(['self', 'unify'], 'rule.topMenuType'),
  tdIamUiUrl: v.pipe(v.string('rule.required'), v.maxLength(500, 'rule.maxLength?max=500')),
});

/** Other settings. */
const otherSettings = v.object({
  showSettings: v.boolean('rule.required'),
  fixedHeader: v.boolean('rule.required'),
  sidebarLogo: v.boolean('rule.required'),
  darkMode: v.boolean('rule.required'),
  uiEmbed: v.boolean('rule.required'),
  userBackendService: v.pipe(v.string('rule.required'), v.maxLength(500, 'rule.maxLength?max=500')),
  authConfig: v.object({
    authType: v.picklist(['default', 'token'], 'rule.authType'),
    /** A header name of our own: letters, digits and '-', none that something else means (validation/token-header.ts). */
    tokenName: tokenHeaderName,
  }),
  menuConfig: v.object({ allow: v.array(v.string()), deny: v.array(v.string()) }),
  moduleConfig: v.record(v.string(), v.unknown()),
  business: v.object({ skywalkingSwitch: yesNo, aclSwitch: yesNo }),
});

/** A settings document with the version its next update must carry (409 when it is stale). The
 *  annotation lets a bundle that reads no answer schema drop the call (../contract/declare.ts). */
/* @__NO_SIDE_EFFECTS__ */
export function versioned<T extends v.GenericSchema>(schema: T) {
  return v.object({ value: schema, version: v.number() });
}

/** GET/PUT /config: the whole console configuration (IamConfig of ../config) plus its version. */
export const iamConfig = v.object({ system: systemConfig, settings: otherSettings });
export const iamConfigUpdate = v.object({
  system: v.optional(v.partial(systemConfig)),
  settings: v.optional(v.partial(otherSettings)),
  version,
});
