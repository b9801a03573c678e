// The wire contract between the console and the API server (§3, §7). Both sides import these
// types; the server's schemas (src/core/schemas) and the client's api modules must agree with them.

/** Every JSON answer of the API has this envelope. `code` is 0 on success; on failure it is the
 *  HTTP status or an application code (e.g. 1001 for the special login error of §8). */
export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

/** `data` of a 400 answer: which field failed and which `rule.*` key explains it. */
export interface FieldErrors {
  fields: { field: string; rule: string }[];
}

/** §3 "Paged list": the answer of every list call. */
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

/** §3 "Status": enable=1, disabled=2. */
export type AvailabilityStatus = 1 | 2;

/** §3 user type in extraProp.intProperty1: 1 tenant, 2 platform, 3 system. */
export type UserType = 1 | 2 | 3;

export interface UserExtraProp {
  intProperty1?: UserType;
  [key: string]: unknown;
}

/** §3 User, as the API answers it (never with a password or its hash). */
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

/** §3 "Session user info", the `user` of GET /cas/session. `sessionId` is a public handle of
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

/** Answer of GET /cas/session (§7). */
export interface SessionAnswer {
  id: string;
  user: SessionUser;
  administeredApps: OwnedApp[];
}

/** §3 "Login form": the body of POST /authc/login; `password` is the transformed value. */
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

/** Answer of POST /authc/login (§7). In token mode it also carries `token`. */
export interface LoginAnswer {
  hasNextStep?: boolean;
  nextStep?: string;
  loginSuccess?: boolean;
  message?: string;
  redirectURL?: string;
  token?: string;
}

/** Answer of GET /cas/login (§7). */
export interface CasLoginAnswer {
  loginSuccess: boolean;
  redirectURL: string;
  message: string;
}

/** Answer of GET /cas/logout (§7). */
export interface LogoutAnswer {
  redirectURL: string;
}

/** `data` of a failed login: a captcha to show next, and/or an application code (1001). */
export interface LoginErrorData {
  captchaImageUrl?: string;
  code?: number | string;
}

/** §3 password payloads (values already transformed by the core's password routine). */
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

/** §3 License. */
export type LicenseState = 'valid' | 'missing' | 'expired' | 'invalid' | 'over_limit';
export interface LicenseStatus {
  status: LicenseState;
  licensee?: string;
  expiresAt?: string;
  userLimit?: number;
  users?: number;
}

/** §3 "Third-party login info". */
export interface ThirdPartyAccessInfo {
  idpCode: string;
  token: string;
  accessTicket: string;
  needComplement: boolean;
  complement?: Record<string, unknown>;
  /** A local account has the provider's email: the person may link to it with its password. */
  existingAccount?: { username: string };
}

/** Answer of POST /api/file/upload (§7): shown afterwards from /api/file/get/{url}. */
export interface UploadAnswer {
  url: string;
}
