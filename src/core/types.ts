// The wire contract's types. The valibot schemas of src/core/schemas are its one source: the server
// validates requests with them, documents them in /api/openapi.json and (in tests) holds every
// answer against them; the types here are inferred from them, never written a second time. Only
// the envelope around every answer and the shapes of the failures are declared here.
import type * as v from 'valibot';
import type { pagedList } from './schemas/common';
import type { casLoginAnswer, loginAnswer, loginBody, loginErrorData, logoutAnswer, ownedApp, sessionAnswer, sessionUser } from './schemas/auth';
import type { adminResetBody, selfResetBody, user } from './schemas/users';
import type { licenseStatus } from './schemas/license';
import type { accessInfo } from './schemas/idp';
import type { complementAnswer } from './schemas/idp-login';
import type { uploadAnswer } from './schemas/files';
import type { availabilityStatus, userExtraProp } from './validation/user';

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

/** "Paged list": the answer of every list call (the `pagedList` schema), with items of type T. */
type PagedListShape = v.InferOutput<ReturnType<typeof pagedList>>;
export type Pager = PagedListShape['pager'];
export type ListQuery = PagedListShape['query'];
export type PagedList<T> = Omit<PagedListShape, 'list'> & { list: T[] };

/** "Status": enable=1, disabled=2 (the `Status` enum). */
export type AvailabilityStatus = v.InferOutput<typeof availabilityStatus>;
export type UserExtraProp = v.InferOutput<typeof userExtraProp>;
/** User, as the API answers it (never with a password or its hash). */
export type User = v.InferOutput<typeof user>;

export type OwnedApp = v.InferOutput<typeof ownedApp>;
/** "Session user info", the `user` of GET /cas/session. `sessionId` is a public handle of the
 *  session, never the cookie secret. */
export type SessionUser = v.InferOutput<typeof sessionUser>;
/** Answer of GET /cas/session. */
export type SessionAnswer = v.InferOutput<typeof sessionAnswer>;

/** Client-side session state: not yet read, read and signed out, read and signed in. */
export type SessionStatus = 'unknown' | 'anonymous' | 'authenticated';

/** "Login form": the body of POST /authc/login; `password` is the transformed value. */
export type LoginForm = v.InferInput<typeof loginBody>;
/** Answer of POST /authc/login. In token mode it also carries `token`. */
export type LoginAnswer = v.InferOutput<typeof loginAnswer>;
export type CasLoginAnswer = v.InferOutput<typeof casLoginAnswer>;
export type LogoutAnswer = v.InferOutput<typeof logoutAnswer>;
export type LoginErrorData = v.InferOutput<typeof loginErrorData>;

/** Password payloads of POST /user/{id}/password (values already transformed by the core's password routine). */
export type SelfPasswordPayload = v.InferInput<typeof selfResetBody>;
export type AdminResetPayload = v.InferInput<typeof adminResetBody>;

export type LicenseStatus = v.InferOutput<typeof licenseStatus>;
export type LicenseState = LicenseStatus['status'];

/** "Third-party login info". */
export type ThirdPartyAccessInfo = v.InferOutput<typeof accessInfo>;
export type ComplementAnswer = v.InferOutput<typeof complementAnswer>;

/** Answer of POST /api/file/upload: shown afterwards from /api/file/get/{url}. */
export type UploadAnswer = v.InferOutput<typeof uploadAnswer>;
