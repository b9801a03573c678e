// Stored values are never re-validated. The field rules can change after a value was stored (the
// login setting of src/core/validation/field-rules.ts): a person whose stored name the rules in
// force refuse must still be editable, disabled and re-imported unchanged. So only a value a request
// changes is checked against the rules in force: update bodies take `keptText` for those fields
// (the stored value, whatever it is, must pass), the server checks the fields that differ from the
// stored record with `changesFollowRules` (server/services/users.ts, the CSV import), and the
// console's forms do the same with `unlessKept`.
import * as v from 'valibot';
import { validate, type ValidationResult } from '../validation';

/** A field of an update body that may carry its stored value as it is (checked when it changes). */
export const keptText = v.string('rule.required');

const blank = (value: unknown) => value === undefined || value === null || value === '';
/** An empty field and an absent stored value are the same (a cleared phone is stored as null). */
const same = (value: unknown, stored: unknown) => value === stored || (blank(value) && blank(stored));

/** `input` with each field named in `rules` checked by its rule when it differs from `stored`
 *  (every one of them for a new record, `stored` undefined) and replaced by the rule's output (a
 *  phone number without its separators); the fields refused otherwise, each with its rule. A field
 *  the input leaves out of an update is not checked. */
export function changesFollowRules<T extends Record<string, unknown>>(
  rules: Readonly<Record<string, v.GenericSchema>>,
  input: T,
  stored?: Readonly<Record<string, unknown>>,
): ValidationResult<T> {
  const changed = Object.entries(rules).filter(([name]) => !stored || (input[name] !== undefined && !same(input[name], stored[name])));
  const checked = validate(v.object(Object.fromEntries(changed)), Object.fromEntries(changed.map(([name]) => [name, input[name]])));
  return checked.success ? { success: true, output: { ...input, ...(checked.output as Partial<T>) } } : checked;
}

/** A form field whose record is stored: its stored value passes as it is, another value `rule`. */
export function unlessKept<TRule extends v.GenericSchema>(stored: string | null | undefined, rule: TRule) {
  return v.lazy((input: unknown) => (same(input, stored) ? v.custom<v.InferOutput<TRule>>(() => true) : rule));
}
