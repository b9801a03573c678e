// API errors: the HTTP status carries the class, the envelope carries the message and data.
import type { FieldErrors } from '../../src/core/types';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly data: unknown = null,
    /** Envelope code when it differs from the status (e.g. 1001 for the login captcha). */
    readonly code: number = status,
  ) {
    super(message);
  }
}

export type FieldError = FieldErrors['fields'][number];

export const fieldError = (fields: FieldError[], extra: Record<string, unknown> = {}) => new ApiError(400, 'Validation failed', { fields, ...extra });
export const unauthorized = (message = 'Authorization Error') => new ApiError(401, message);
export const forbidden = (message = 'No Authenticated') => new ApiError(403, message);
export const notFound = (what = 'Resource') => new ApiError(404, `${what} not found`);
export const conflict = (message = 'The record was changed by someone else; reload and try again') => new ApiError(409, message);
/** A row the change refers to was removed by another change meanwhile (a database foreign-key violation). */
export const referenceGone = () => new ApiError(409, 'Something this change refers to was removed meanwhile; reload and try again');
export const tooMany = (message: string) => new ApiError(429, message);
/** The database cannot be reached right now (restart, failover, busy file): answered with Retry-After. */
export const unavailable = () => new ApiError(503, 'The database is unavailable; try again in a few seconds');
