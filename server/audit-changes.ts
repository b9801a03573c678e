// What a change changed, for its audit record: the fields whose value differs, each old → new, with
// secrets masked. Nested settings (a password policy) are compared field by field under dotted
// names ("passwordPolicy.minLength"). Used by the services' records; webhooks carry the same detail.

/** A changed field: its value before and after (MASKED for a secret). */
interface FieldChange {
  from: unknown;
  to: unknown;
}
export type FieldChanges = Record<string, FieldChange>;

const MASKED = '••••••';

/** Names of fields whose values are secrets: recorded as changed, never with their values. Read
 *  on a field's own name, the last part of a dotted one: "smtp.password" is a secret,
 *  "passwordPolicy.minLength" (a setting about passwords) is not. */
const SECRET_FIELD = /secret|password|token|credential|apikey|privatekey|accesskey/i;
const isSecretName = (field: string) => SECRET_FIELD.test(field.slice(field.lastIndexOf('.') + 1));

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function flatten(value: Record<string, unknown>, prefix = '', into: Record<string, unknown> = {}): Record<string, unknown> {
  for (const [key, inner] of Object.entries(value)) {
    if (isPlainObject(inner) && Object.keys(inner).length) flatten(inner, `${prefix}${key}.`, into);
    else into[`${prefix}${key}`] = inner;
  }
  return into;
}

/** Blank and missing are one "nothing" (an empty text stored as null). */
const normal = (value: unknown) => (value === undefined || value === '' ? null : value);

/**
 * The fields of `after` whose value differs from `before` (of `fields`, when given: the ones the
 * change wrote), old → new; secret values masked: those named as secrets, and the dotted names in
 * `secrets` (a channel's robot URL carries its token under a plain name: "config.webhook").
 */
export function changedFields(before: object, after: object, fields?: readonly string[], secrets: readonly string[] = []): FieldChanges {
  const written = after as Record<string, unknown>;
  const old = flatten(before as Record<string, unknown>);
  const next = flatten(fields ? Object.fromEntries(fields.filter((field) => field in written).map((field) => [field, written[field]])) : written);
  const changes: FieldChanges = {};
  for (const [field, value] of Object.entries(next)) {
    if (JSON.stringify(normal(old[field])) === JSON.stringify(normal(value))) continue;
    changes[field] = isSecretName(field) || secrets.includes(field) ? { from: MASKED, to: MASKED } : { from: normal(old[field]), to: normal(value) };
  }
  return changes;
}

/** A record's detail for an update: the changed fields' names (what webhooks list) and their changes. */
export const changeDetail = (changes: FieldChanges) => ({ fields: Object.keys(changes), changes });
