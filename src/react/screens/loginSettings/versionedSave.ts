// Saving a versioned settings document from a form: success replaces the form's baseline, a 409
// keeps every typed value and flags the form stale, a 400 puts the server's messages on fields
// (both shown inline, so not again in a toast); anything else is the HTTP client's one toast.
import { useState } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { HttpError, showInline } from '../../../core/http';
import { notifySuccess } from '../../../core/messages';
import type { Versioned } from '../../../core/api/settings';
import type { FieldErrors } from '../../../core/types';
import { useT } from '../../i18n';

export function useVersionedSave<T extends FieldValues, D>(
  form: UseFormReturn<T>,
  initial: Versioned<D>,
  toForm: (document: D) => T,
  save: (values: T, version: number) => Promise<Versioned<D>>,
  load: () => Promise<Versioned<D>>,
  onSaved?: (document: D) => void,
) {
  const t = useT();
  const [version, setVersion] = useState(initial.version);
  const [stale, setStale] = useState(false);

  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = await save(values, version);
      setVersion(saved.version);
      setStale(false);
      form.reset(toForm(saved.value));
      onSaved?.(saved.value);
      notifySuccess(t('settings:done.settingsSaved'));
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      if (error.status === 409) {
        showInline(error);
        return setStale(true);
      }
      const fields = error.status === 400 ? ((error.data as Partial<FieldErrors> | null)?.fields ?? []) : [];
      fields.forEach(({ field, rule }) => form.setError(field as Path<T>, { type: 'server', message: rule }));
      if (fields.length) showInline(error);
    }
  });

  /** Takes the latest saved version; fields the person changed keep their typed values. */
  const reloadLatest = async () => {
    const latest = await load();
    setVersion(latest.version);
    form.reset(toForm(latest.value), { keepDirtyValues: true });
    setStale(false);
  };

  return { submit, stale, reloadLatest };
}
