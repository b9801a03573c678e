// A 400 answer names the failed fields and their `rule.*` keys (types.ts FieldErrors): show each
// under its field, like the form's own validation (and not again in a toast).
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { HttpError, showInline } from '../../core/http';
import type { FieldErrors } from '../../core/types';

/** Puts the server's field messages on the form's fields; answers whether there were any.
 *  `fields` names the form fields the server may report, or maps the server's names to them
 *  (e.g. the payload's `opUserPassword` is the form's `oldPassword`). */
export function showServerFieldErrors<T extends FieldValues>(
  error: unknown,
  fields: readonly Path<T>[] | Readonly<Record<string, Path<T>>>,
  setError: UseFormSetError<T>,
): boolean {
  if (!(error instanceof HttpError) || error.status !== 400) return false;
  const reported = (error.data as Partial<FieldErrors> | null)?.fields ?? [];
  const nameOf = (field: string): Path<T> | undefined =>
    Array.isArray(fields) ? fields.find((candidate) => candidate === field) : (fields as Readonly<Record<string, Path<T>>>)[field];
  let shown = false;
  for (const { field, rule } of reported) {
    const name = nameOf(field);
    if (!name) continue;
    setError(name, { type: 'server', message: rule });
    shown = true;
  }
  if (shown) showInline(error);
  return shown;
}
