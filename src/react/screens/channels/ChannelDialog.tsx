// Create or edit a channel: name, service type, vendor, enabled, and the settings of its service
// type. Secrets are write-only: a stored one shows empty with "kept unless you type a new one".
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import * as channels from '../../../core/api/channels';
import { HttpError, showInline } from '../../../core/http';
import { notifySuccess } from '../../../core/messages';
import { MessageServiceType } from '../../../core/enums';
import { channelFields, serviceTypes, type Channel, type ChannelField, type ChannelSettingName } from '../../../core/schemas/messaging';
import type { FieldErrors } from '../../../core/types';
import { DialogFrame } from '../../dialogs/DialogFrame';
import { useT } from '../../i18n';
import { PasswordField, TextField } from '../../widgets/TextFields';
import { CheckboxField, SelectField, TextAreaField } from '../../widgets/admin/AdminFields';
import * as table from '../../widgets/admin/admin.css';
import * as ui from '../../widgets/ui.css';
import { formSchema, formValues, hasVendor, storedSecrets, toInput, type ChannelFormValues } from './channelForm';

export interface ChannelDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The channel edited; absent: a new one. */
  channel?: Channel;
  onSaved: () => void;
}

/** Settings whose meaning needs a word of explanation. */
const HINTED = ['webhook', 'secret', 'templateParams', 'from', 'url'] as const;
const isHinted = (name: ChannelSettingName): name is (typeof HINTED)[number] => HINTED.some((hinted) => hinted === name);

const inputType = (field: ChannelField) => (field.kind === 'port' ? 'number' : field.kind === 'email' ? 'email' : field.kind === 'url' ? 'url' : 'text');

export default function ChannelDialog({ open, onOpenChange, channel, onSaved }: ChannelDialogProps) {
  const t = useT();
  const [type, setType] = useState<MessageServiceType>(channel?.serviceType ?? MessageServiceType.EMAIL);
  const kept = channel?.serviceType === type ? storedSecrets(channel) : new Set<string>();
  // The rules follow the chosen type: the resolver reads the current schema.
  const schema = useRef(formSchema(type, kept));
  schema.current = formSchema(type, kept);
  const form = useForm<ChannelFormValues>({
    resolver: (values, context, options) => valibotResolver(schema.current)(values, context, options),
    defaultValues: formValues(channel, type),
  });
  const { register, handleSubmit, reset, setError, formState, watch, setValue } = form;
  const { errors } = formState;
  const [failure, setFailure] = useState<string>();

  useEffect(() => {
    if (!open) return;
    const initialType = channel?.serviceType ?? MessageServiceType.EMAIL;
    setType(initialType);
    setFailure(undefined);
    reset(formValues(channel, initialType));
  }, [open, channel, reset]);

  const changeType = (next: MessageServiceType) => {
    setType(next);
    // The settings differ per type: start the new type's from the stored ones (same type) or defaults.
    reset({ ...form.getValues(), serviceType: next, config: formValues(channel, next).config });
  };

  const submit = handleSubmit(async (values) => {
    setFailure(undefined);
    try {
      if (channel) await channels.update(channel.id, { ...toInput(values), version: channel.version });
      else await channels.create(toInput(values));
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      showInline(error);
      const fields = error.status === 400 ? ((error.data as Partial<FieldErrors> | null)?.fields ?? []) : [];
      fields.forEach(({ field, rule }) => setError(field as keyof ChannelFormValues, { type: 'server', message: rule }));
      if (!fields.length) setFailure(error.status === 409 ? t('settings:channel.stale') : error.message);
      return;
    }
    notifySuccess(t(channel ? 'settings:done.channelSaved' : 'settings:done.channelCreated', { name: values.name }));
    onSaved();
    onOpenChange(false);
  });

  const settingError = (name: string) => errors.config?.[name]?.message;

  return (
    <DialogFrame open={open} onOpenChange={onOpenChange} title={t(channel ? 'settings:channel.edit' : 'settings:channel.create')}>
      <form className={ui.form} noValidate onSubmit={(event) => void submit(event)}>
        <div className={table.formGrid}>
          <TextField label={t('settings:channel.name')} required error={errors.name?.message} registration={register('name')} />
          <SelectField
            label={t('settings:channel.serviceType')}
            required
            value={type}
            onChange={(event) => changeType(event.currentTarget.value as MessageServiceType)}
          >
            {serviceTypes.map((value) => (
              <option key={value} value={value}>
                {t(`settings:serviceType.${value}`)}
              </option>
            ))}
          </SelectField>
          {hasVendor(type) && (
            <TextField
              label={t('settings:channel.vendor')}
              required
              hint={t('settings:channel.vendorHint')}
              error={errors.vendor?.message}
              registration={register('vendor')}
            />
          )}
          <div className={table.full}>
            <CheckboxField
              label={t('settings:channel.enabled')}
              checked={watch('enabled')}
              onChange={(checked) => setValue('enabled', checked, { shouldDirty: true })}
            />
          </div>
          {channelFields[type].length === 0 && <p className={`${ui.hint} ${table.full}`}>{t('settings:channel.noSettings')}</p>}
          {channelFields[type].map((field) => {
            const label = t(`settings:channelField.${field.name}`);
            const required = field.required && !kept.has(field.name);
            const hint = kept.has(field.name) ? t('settings:channel.secretKept') : isHinted(field.name) ? t(`settings:channelHint.${field.name}`) : undefined;
            const registration = register(`config.${field.name}`);
            if (field.kind === 'select') {
              return (
                <SelectField key={field.name} label={label} error={settingError(field.name)} registration={registration}>
                  {field.options?.map((option) => (
                    <option key={option} value={option}>
                      {t(`settings:channelOption.${option}`)}
                    </option>
                  ))}
                </SelectField>
              );
            }
            if (field.kind === 'json') {
              return (
                <div key={field.name} className={table.full}>
                  <TextAreaField label={label} hint={hint} spellCheck={false} error={settingError(field.name)} registration={registration} />
                </div>
              );
            }
            const Field = field.secret ? PasswordField : TextField;
            return (
              <div key={field.name} className={field.kind === 'url' ? table.full : undefined}>
                <Field
                  label={label}
                  required={required}
                  hint={hint}
                  type={field.secret ? undefined : inputType(field)}
                  autoComplete={field.secret ? 'new-password' : 'off'}
                  placeholder={kept.has(field.name) ? t('settings:channel.secretPlaceholder') : undefined}
                  error={settingError(field.name)}
                  registration={registration}
                />
              </div>
            );
          })}
        </div>
        {failure && (
          <p role="alert" className={ui.formError}>
            {failure}
          </p>
        )}
        <div className={ui.actions}>
          <button type="button" className={ui.button.secondary} onClick={() => onOpenChange(false)}>
            {t('console:action.cancel')}
          </button>
          <button type="submit" className={ui.button.primary} disabled={formState.isSubmitting} part="primary-button">
            {t('console:action.save')}
          </button>
        </div>
      </form>
    </DialogFrame>
  );
}
