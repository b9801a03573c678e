// The wire contract between the console and the API server. Both sides import these
// types; the server's schemas (src/core/schemas) and the client's api modules must agree with them.

/** Every JSON answer of the API has this envelope. `code` is 0 on success; on failure it is the
 *  HTTP status or an application code (e.g. 1001 for the special login error). */
export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

/** `data` of a 400 answer: which field failed and which `rule.*` key explains it. */
export interface FieldErrors {
  fields: { field: string; rule: string }[];
}

/** "Paged list": the answer of every list call. */
export interface Pager {
  page: number;
  size: number;
  total: number;
}
export interface ListQuery {
  searchProp?: string;
  searchValue?: string;
}
export interface PagedList<T> {
  list: T[];
  query: ListQuery;
  pager: Pager;
}

/** "Status": enable=1, disabled=2. */
export type AvailabilityStatus = 1 | 2;

/** user type in extraProp.intProperty1: 1 tenant, 2 platform, 3 system. */
export type UserType = 1 | 2 | 3;

export interface UserExtraProp {
  intProperty1?: UserType;
  [key: string]: unknown;
}

/** User, as the API answers it (never with a password or its hash). */
export interface User {
  id: string;
  username: string;
  realName: string;
  email?: string;
  mobilePhone?: string;
  description?: string;
  availabilityStatus: AvailabilityStatus;
  avatar?: string;
  extraProp: UserExtraProp;
  tenantId?: string;
  locked?: boolean;
  /** Optimistic-concurrency version: an update carrying an older one answers 409. */
  version?: number;
}

export interface OwnedApp {
  id: string;
  name: string;
  entrypoint?: string;
}

/** "Session user info", the `user` of GET /cas/session. `sessionId` is a public handle of
 *  the session, never the cookie secret. */
export interface SessionUser {
  id: string;
  username: string;
  realName?: string;
  avatar?: string;
  tenantId?: string;
  isAdmin: boolean;
  isMaster: boolean;
  ownedApps: OwnedApp[];
  permissions: string[];
  featureBlacklist: string[];
  sessionId: string;
  extraProp: UserExtraProp;
}

/** Client-side session state: not yet read, read and signed out, read and signed in. */
export type SessionStatus = 'unknown' | 'anonymous' | 'authenticated';

/** Answer of GET /cas/session. */
export interface SessionAnswer {
  id: string;
  user: SessionUser;
  administeredApps: OwnedApp[];
}

/** "Login form": the body of POST /authc/login; `password` is the transformed value. */
export interface LoginForm {
  username: string;
  password: string;
  captcha?: string;
  /** The random key the client put in the captcha image's query (binds the captcha without a cookie). */
  captchaKey?: string;
  nextStep?: string;
  /** The code of the second step (multi-step login). */
  code?: string;
}

/** Answer of POST /authc/login. In token mode it also carries `token`. */
export interface LoginAnswer {
  hasNextStep?: boolean;
  nextStep?: string;
  loginSuccess?: boolean;
  message?: string;
  redirectURL?: string;
  token?: string;
  /** Token mode: the header the server reads the token from. */
  tokenName?: string;
}

/** Answer of GET /cas/login. */
export interface CasLoginAnswer {
  loginSuccess: boolean;
  redirectURL: string;
  message: string;
}

/** Answer of GET /cas/logout. */
export interface LogoutAnswer {
  redirectURL: string;
}

/** `data` of a failed login: a captcha to show next, and/or an application code (1001). */
export interface LoginErrorData {
  captchaImageUrl?: string;
  code?: number | string;
}

/** password payloads (values already transformed by the core's password routine). */
export interface SelfPasswordPayload {
  loginUserId: string;
  password: string;
  opUserPassword: string;
}
export interface AdminResetPayload {
  id: string;
  username: string;
  password: string;
  opUserPassword: string;
}

/** License. */
export type LicenseState = 'valid' | 'missing' | 'expired' | 'invalid' | 'over_limit';
export interface LicenseStatus {
  status: LicenseState;
  licensee?: string;
  expiresAt?: string;
  userLimit?: number;
  users?: number;
}

/** "Third-party login info". */
export interface ThirdPartyAccessInfo {
  idpCode: string;
  token: string;
  accessTicket: string;
  needComplement: boolean;
  complement?: Record<string, unknown>;
  /** A local account has the provider's email: the person may link to it with its password. */
  existingAccount?: { username: string };
}

/** Answer of POST /api/file/upload: shown afterwards from /api/file/get/{url}. */
export interface UploadAnswer {
  url: string;
}
