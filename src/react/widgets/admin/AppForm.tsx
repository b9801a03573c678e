// An app's basics (name, detail, entrypoint, callback URL, master) with the shared app rules;
// creates when there is no app, else saves the changes over the version it started from. A
// refused save keeps what was typed and says why (taken name, stale version).
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import type * as v from 'valibot';
import * as appApi from '../../../core/api/apps';
import type { App } from '../../../core/api/apps';
import { notifySuccess } from '../../../core/messages';
import { appCreateBody } from '../../../core/schemas/resources';
import { useT } from '../../i18n';
import { TextField } from '../TextFields';
import { CheckboxField, TextAreaField } from './AdminFields';
import { refusalOf } from './serverErrors';
import { useAdminScope } from './scope';
import * as ui from '../ui.css';
import { SaveFooter } from './SaveFooter';
import { useFieldRules } from '../useFieldRules';

type Values = v.InferInput<typeof appCreateBody>;
const fields = ['name', 'detail', 'entrypoint', 'callbackUrl'] as const;

export interface AppFormProps {
  app?: App;
  onSaved: (app: App) => void;
  onCancel?: () => void;
}

export function AppForm({ app, onSaved, onCancel }: AppFormProps) {
  const t = useT();
  // The names and phone numbers below follow the field rules in force (login settings).
  useFieldRules();
  const scope = useAdminScope();
  const [version, setVersion] = useState(app?.version);
  const [stale, setStale] = useState(false);
  const [failure, setFailure] = useState<string>();
  const { register, handleSubmit, setError, formState } = useForm<Values>({
    resolver: valibotResolver(appCreateBody),
    defaultValues: {
      name: app?.name ?? '',
      detail: app?.detail ?? '',
      entrypoint: app?.entrypoint ?? '',
      callbackUrl: app?.callbackUrl ?? '',
      isMaster: app?.isMaster ?? false,
    },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(async (values) => {
    setFailure(undefined);
    // Only a platform administrator decides which app is the master.
    const body = {
      name: values.name,
      detail: values.detail ?? '',
      entrypoint: values.entrypoint ?? '',
      callbackUrl: values.callbackUrl ?? '',
      ...(scope.platform ? { isMaster: values.isMaster ?? false } : {}),
    };
    let saved: App;
    try {
      saved = app ? await appApi.update(app.id, { ...body, version: version ?? app.version }) : await appApi.create(body);
    } catch (error) {
      const refusal = refusalOf(error);
      setStale(refusal.stale);
      refusal.fields.forEach(({ field, message }) => {
        const name = fields.find((candidate) => candidate === field);
        if (name) setError(name, { type: 'server', message });
      });
      if (refusal.message) setFailure(refusal.message);
      return;
    }
    setVersion(saved.version);
    notifySuccess(t(app ? 'admin:done.appSaved' : 'admin:done.appCreated', { name: saved.name }));
    onSaved(saved);
  });

  const takeLatest = async () => {
    if (!app) return;
    try {
      setVersion((await appApi.get(app.id)).version);
      setStale(false);
    } catch {
      // shown by the HTTP client
    }
  };

  return (
    <form className={ui.form} noValidate onSubmit={(event) => void onSubmit(event)}>
      <TextField label={t('admin:app.name')} required autoComplete="off" error={errors.name?.message} registration={register('name')} />
      <TextAreaField label={t('admin:app.detail')} error={errors.detail?.message} registration={register('detail')} />
      <TextField
        label={t('admin:app.entrypoint')}
        autoComplete="off"
        hint={t('admin:app.entrypointHint')}
        error={errors.entrypoint?.message}
        registration={register('entrypoint')}
      />
      <TextField label={t('admin:app.callbackUrl')} type="url" autoComplete="off" error={errors.callbackUrl?.message} registration={register('callbackUrl')} />
      {scope.platform && <CheckboxField label={t('admin:app.master')} registration={register('isMaster')} />}
      {stale && (
        <div className={ui.formError} role="alert">
          <p>{t('admin:app.stale')}</p>
          <button type="button" className={ui.button.secondary} onClick={() => void takeLatest()}>
            {t('admin:user.takeLatest')}
          </button>
        </div>
      )}
      <SaveFooter failure={failure} busy={isSubmitting} onCancel={onCancel} />
    </form>
  );
}
