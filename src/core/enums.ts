// The enumerations, each as a const object (runtime values) plus a type of its values.

/** The union of the values of a const object. */
export type ValueOf<T> = T[keyof T];

export const BackgroundType = {
  SolidColorBackground: 'SolidColorBackground',
  PictureBackground: 'PictureBackground',
  CustomCss: 'CustomCss',
  InitialVersion: 'InitialVersion',
} as const;
export type BackgroundType = ValueOf<typeof BackgroundType>;

export const ImageType = {
  Icon: 'Icon',
  IconAndText: 'IconAndText',
  Favicon: 'Favicon',
  Text: 'Text',
  CircleImage: 'CircleImage',
} as const;
export type ImageType = ValueOf<typeof ImageType>;

export const ConfigScope = {
  APP: 'APP',
  DOMAIN: 'DOMAIN',
  LOGIN_PAGE: 'LOGIN_PAGE',
  SYSTEM_CONFIG: 'SYSTEM_CONFIG',
} as const;
export type ConfigScope = ValueOf<typeof ConfigScope>;

export const LoginMethod = {
  USERNAME_PASSWORD: 'USERNAME_PASSWORD',
  EMAIL_PASSWORD: 'EMAIL_PASSWORD',
  PHONE_PASSWORD: 'PHONE_PASSWORD',
  PHONE_CAPTCHA: 'PHONE_CAPTCHA',
} as const;
export type LoginMethod = ValueOf<typeof LoginMethod>;

/** Second authentication after the password. TOTP (an authenticator app) is beyond the entity fields */
export const SecondAuth = {
  PASSWORD: 'PASSWORD',
  PHONE_CAPTCHA: 'PHONE_CAPTCHA',
  TOTP: 'TOTP',
  /** A passkey (WebAuthn) as the second step; people without one take the TOTP policy's path. */
  PASSKEY: 'PASSKEY',
} as const;
export type SecondAuth = ValueOf<typeof SecondAuth>;

/** The next steps a sign-in may answer (LoginAnswer.nextStep): the code sent by SMS (or email),
 *  the authenticator app's code, a passkey, or a new password for an expired one (the login settings'
 *  passwordPolicy.expiryDays: that answer gives no session; PUT /authc/password/expired does). */
export const LoginStep = {
  PHONE_CAPTCHA: 'PHONE_CAPTCHA',
  TOTP: 'TOTP',
  /** Confirm with a passkey (the answer carries `passkeyOptions`). */
  PASSKEY: 'PASSKEY',
  PASSWORD_EXPIRED: 'PASSWORD_EXPIRED',
  /** An administrator without a strong second factor, under the login settings' adminStrongFactor:
   *  set up an authenticator app (the answer carries its secret), then confirm with its code. */
  TOTP_SETUP: 'TOTP_SETUP',
} as const;
export type LoginStep = ValueOf<typeof LoginStep>;

export const CaptchaKind = {
  NUMBER: 'NUMBER',
  LETTER: 'LETTER',
  NUMBER_LETTER: 'NUMBER_LETTER',
} as const;
export type CaptchaKind = ValueOf<typeof CaptchaKind>;

/** User/app availability: enable=1, disabled=2 (`AvailabilityStatus` of types.ts). */
export const Status = {
  Enable: 1,
  Disabled: 2,
} as const;
export type Status = ValueOf<typeof Status>;

/** Scope of a resource: Platform=1, Tenant=2. */
export const Scope = {
  Platform: 1,
  Tenant: 2,
} as const;
export type Scope = ValueOf<typeof Scope>;

/** The second scope enumeration, zero-based: Platform=0, Tenant=1. */
export const ZeroBasedScope = {
  Platform: 0,
  Tenant: 1,
} as const;
export type ZeroBasedScope = ValueOf<typeof ZeroBasedScope>;

/** The flag after the pipe of a permission code (`code|flag`, the permission rules), defined with the permission table. */
export { AclValue } from './permissions';

/** User type in the session user's extraProp.intProperty1. */
export const UserType = {
  Tenant: 1,
  Platform: 2,
  System: 3,
} as const;
export type UserType = ValueOf<typeof UserType>;

export const MessageServiceType = {
  SMS: 'SMS',
  EMAIL: 'EMAIL',
  DING_TALK: 'DING_TALK',
  QYWX_WEBHOOK: 'QYWX_WEBHOOK',
  SITE_MESSAGE: 'SITE_MESSAGE',
} as const;
export type MessageServiceType = ValueOf<typeof MessageServiceType>;

export const JobTaskStatus = {
  Running: 'Running',
  Terminated: 'Terminated',
  Fail: 'Fail',
  Finish: 'Finish',
  TryAbort: 'TryAbort',
} as const;
export type JobTaskStatus = ValueOf<typeof JobTaskStatus>;

export const TemplateSyncStatus = {
  Passed: 'Passed',
  Doing: 'Doing',
  Fail: 'Fail',
} as const;
export type TemplateSyncStatus = ValueOf<typeof TemplateSyncStatus>;

export const SyncMode = {
  HandMode: 'HandMode',
  AutoMode: 'AutoMode',
} as const;
export type SyncMode = ValueOf<typeof SyncMode>;

/** Tenant types; each value is also the suffix of its label key `tenantType.<value>` in common.json. */
export const TenantType = {
  Department: 'department',
  Company: 'company',
  Institution: 'institution',
  GovernmentOffice: 'governmentOffice',
  PrivateNonEnterpriseUnit: 'privateNonEnterpriseUnit',
  RegisterTenant: 'registerTenant',
  Seat: 'seat',
  Tenant: 'tenant',
  Root: 'root',
} as const;
export type TenantType = ValueOf<typeof TenantType>;

/** The Y/N switches of the configuration (supportThirdLogin, skywalkingSwitch, the ACL check). */
export const YesNo = {
  Yes: 'Y',
  No: 'N',
} as const;
export type YesNo = ValueOf<typeof YesNo>;

export const TopMenuType = {
  Self: 'self',
  Unify: 'unify',
} as const;
export type TopMenuType = ValueOf<typeof TopMenuType>;

/** authConfig.authType: 'default' = HttpOnly session cookie, 'token' = header token. */
export const AuthType = {
  Default: 'default',
  Token: 'token',
} as const;
export type AuthType = ValueOf<typeof AuthType>;

export const Theme = {
  Dark: 'dark',
  Light: 'light',
} as const;
export type Theme = ValueOf<typeof Theme>;
