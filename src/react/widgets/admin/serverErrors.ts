// What a refused save answered, for a form: the 400 field errors (their `rule.*` keys, the rules
// only the administration calls use translated from the admin namespace), a stale version (409),
// or another failure's message. The form shows what it answers, so the HTTP client's toast is
// dropped (showInline): a failure is said once.
import { HttpError, showInline } from '../../../core/http';
import type { FieldErrors } from '../../../core/types';

/** Rules the administration calls answer that the common rule texts do not have. */
const ADMIN_RULES = new Set([
  'rule.usernameTaken',
  'rule.duplicate',
  'rule.parentId',
  'rule.userIds',
  'rule.roleIds',
  'rule.privilegeIds',
  'rule.tenantId',
  'rule.isMaster',
  'rule.ids',
  'rule.keyTaken',
  'rule.roleTaken',
  'rule.icon',
]);

export interface Refusal {
  fields: { field: string; message: string }[];
  stale: boolean;
  /** Anything else: the server's (or the HTTP client's) message. */
  message?: string;
}

export function refusalOf(error: unknown): Refusal {
  showInline(error);
  if (!(error instanceof HttpError)) return { fields: [], stale: false, message: String(error) };
  if (error.status === 409) return { fields: [], stale: true };
  const reported = error.status === 400 ? ((error.data as Partial<FieldErrors> | null)?.fields ?? []) : [];
  const fields = reported.map(({ field, rule }) => ({ field, message: ADMIN_RULES.has(rule.split('?')[0] ?? '') ? `admin:${rule}` : rule }));
  return { fields, stale: false, ...(fields.length ? {} : { message: error.message }) };
}

/** A read whose "not found" the screen says in place (a person, app or plan that is gone): the
 *  HTTP client's toast would say it a second time. Other failures keep their toast. */
export function missingSaidInPlace<T>(read: Promise<T>): Promise<T> {
  return read.catch((error: unknown) => {
    if (error instanceof HttpError && error.status === 404) showInline(error);
    throw error;
  });
}
