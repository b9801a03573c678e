// Login settings (security policy of the sign-in) and the system config / branding of §3.
import * as v from 'valibot';
import { BackgroundType, CaptchaKind, LoginMethod, SecondAuth } from '../enums';
import { rules } from '../validation';
import { optionalText, version, yesNo } from './common';

const values = <T extends Record<string, string>>(enumeration: T) => Object.values(enumeration) as T[keyof T][];
const between = (min: number, max: number) => rules.range(min, max);

/** The sign-in policy (operate/setting). */
export const loginSettings = v.object({
  /** Which identifier the username field takes. PHONE_CAPTCHA is not offered by this server. */
  loginMethod: v.picklist([LoginMethod.USERNAME_PASSWORD, LoginMethod.EMAIL_PASSWORD, LoginMethod.PHONE_PASSWORD], 'rule.loginMethod'),
  /** Failed sign-ins before the account is locked. */
  maxFailures: between(1, 100),
  lockMinutes: between(1, 24 * 60),
  /** Always ask for a captcha. */
  captchaEnabled: v.boolean('rule.required'),
  /** Ask for a captcha after this many failures (0: never, unless captchaEnabled). */
  captchaAfterFailures: between(0, 100),
  captchaKind: v.picklist(values(CaptchaKind), 'rule.captchaKind'),
  captchaLength: between(4, 8),
  /** A second step after the password; PHONE_CAPTCHA sends a one-time code. */
  secondAuth: v.nullable(v.picklist([SecondAuth.PHONE_CAPTCHA], 'rule.secondAuth')),
  sessionIdleMinutes: between(1, 7 * 24 * 60),
  sessionAbsoluteHours: between(1, 30 * 24),
  backgroundType: v.picklist(values(BackgroundType), 'rule.backgroundType'),
  background: optionalText(2000),
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
  sessionIdleMinutes: 30,
  sessionAbsoluteHours: 12,
  backgroundType: BackgroundType.InitialVersion,
  background: null,
};

export const loginSettingsUpdate = v.object({ ...v.partial(loginSettings).entries, version });

const imagePath = v.pipe(v.string('rule.required'), v.maxLength(500, 'rule.maxLength?max=500'));

/** §3 System config (branding and login page). */
export const systemConfig = v.object({
  appName: v.pipe(v.string('rule.required'), v.nonEmpty('rule.required'), v.maxLength(50, 'rule.maxLength?max=50')),
  appLogo: imagePath,
  appBrandImage: imagePath,
  appBrandImageLight: imagePath,
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

/** §3 Other settings. */
export const otherSettings = v.object({
  showSettings: v.boolean('rule.required'),
  fixedHeader: v.boolean('rule.required'),
  sidebarLogo: v.boolean('rule.required'),
  darkMode: v.boolean('rule.required'),
  uiEmbed: v.boolean('rule.required'),
  userBackendService: v.pipe(v.string('rule.required'), v.maxLength(500, 'rule.maxLength?max=500')),
  authConfig: v.object({
    authType: v.picklist(['default', 'token'], 'rule.authType'),
    /** A header name: letters, digits and '-'. */
    tokenName: v.pipe(v.string('rule.required'), v.regex(/^[A-Za-z][A-Za-z0-9-]{0,39}$/, 'rule.tokenName')),
  }),
  menuConfig: v.object({ allow: v.array(v.string()), deny: v.array(v.string()) }),
  moduleConfig: v.record(v.string(), v.unknown()),
  business: v.object({ skywalkingSwitch: yesNo, aclSwitch: yesNo }),
});

/** GET/PUT /config: the whole console configuration (IamConfig of ../config) plus its version. */
export const iamConfig = v.object({ system: systemConfig, settings: otherSettings });
export const iamConfigUpdate = v.object({
  system: v.optional(v.partial(systemConfig)),
  settings: v.optional(v.partial(otherSettings)),
  version,
});
