// SCIM errors (RFC 7644 §3.12): every failure of a /scim/v2 call is answered in the SCIM error
// message format, with the status as a string and, where one applies, a scimType. The API's own
// errors (server/http/errors.ts) raised by the shared services are translated here, so a rule the
// console enforces reads the same through SCIM: a taken username is a 409 "uniqueness", a field
// refused by its rule a 400 "invalidValue" naming the SCIM attribute and the rule.
import type { FastifyError } from 'fastify';
import { ApiError, referenceGone, type FieldError } from '../http/errors';
import { isForeignKeyViolation } from '../db/errors';
import { databaseUnavailable } from '../db/availability';

const SCIM_ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const SCIM_TYPE = 'application/scim+json; charset=utf-8';

export type ScimType = 'uniqueness' | 'tooMany' | 'invalidFilter' | 'mutability' | 'invalidSyntax' | 'invalidPath' | 'noTarget' | 'invalidValue' | 'sensitive';

/** A SCIM failure (scimmy's own, SCIMMY.Types.Error, are read as these by server/scim/protocol.ts). */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly scimType: ScimType | undefined,
    message: string,
  ) {
    super(message);
  }
}

export const invalidValue = (detail: string) => new ScimError(400, 'invalidValue', detail);
export const invalidFilter = (detail: string) => new ScimError(400, 'invalidFilter', detail);
export const scimNotFound = (what: string, id: string) => new ScimError(404, undefined, `${what} ${id} not found`);

interface ScimErrorBody {
  schemas: [typeof SCIM_ERROR];
  status: string;
  scimType?: string;
  detail: string;
}

/** Our field names in the SCIM attributes a provisioning client sent. */
const ATTRIBUTE: Record<string, string> = {
  username: 'userName',
  realName: 'name.formatted',
  email: 'emails',
  mobilePhone: 'phoneNumbers',
  availabilityStatus: 'active',
  password: 'password',
  name: 'displayName',
  tenantId: 'groups',
  parentId: 'groups',
};
const UNIQUENESS = new Set(['rule.usernameTaken', 'rule.emailTaken', 'rule.mobilePhoneTaken', 'rule.duplicate']);

function fieldsOf(error: ApiError): FieldError[] {
  const data = error.data as { fields?: FieldError[] } | null;
  return Array.isArray(data?.fields) ? data.fields : [];
}

/** The API error of a shared service, as SCIM says it. */
function fromApiError(error: ApiError): ScimError {
  const fields = fieldsOf(error);
  if (error.status === 400 && fields.length) {
    const named = fields.map((field) => `${ATTRIBUTE[field.field] ?? field.field}: ${field.rule}`).join('; ');
    if (fields.some((field) => UNIQUENESS.has(field.rule))) return new ScimError(409, 'uniqueness', `Already in use: ${named}`);
    return invalidValue(`Refused by the field rules: ${named}`);
  }
  return new ScimError(error.status, error.status === 400 ? 'invalidSyntax' : undefined, error.message);
}

/** Fastify's own refusals before a handler runs: body too large, unreadable JSON, wrong media type. */
function fromFrameworkError(error: FastifyError): ScimError | undefined {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new ScimError(413, undefined, error.message);
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return new ScimError(415, undefined, error.message);
  const status = error.statusCode;
  if (status && status >= 400 && status < 500) return new ScimError(status, status === 400 ? 'invalidSyntax' : undefined, error.message);
  return undefined;
}

/** Any error of a SCIM call as its SCIM answer; `undefined` for an unexpected one (a 500, logged by the caller). */
export function scimErrorOf(error: unknown): ScimError | undefined {
  if (error instanceof ScimError) return error;
  if (databaseUnavailable(error)) return new ScimError(503, undefined, 'The database is unavailable; try again in a few seconds');
  if (isForeignKeyViolation(error)) return fromApiError(referenceGone());
  if (error instanceof ApiError) return fromApiError(error);
  return fromFrameworkError(error as FastifyError);
}

export function errorBody(error: ScimError): ScimErrorBody {
  return { schemas: [SCIM_ERROR], status: String(error.status), ...(error.scimType ? { scimType: error.scimType } : {}), detail: error.message };
}

/** Runs one of scimmy's coercions: a TypeError there means the client's value has the wrong shape. */
export function coerced<T>(coerce: () => T): T {
  try {
    return coerce();
  } catch (error) {
    if (error instanceof TypeError) throw invalidValue(error.message);
    throw error;
  }
}
