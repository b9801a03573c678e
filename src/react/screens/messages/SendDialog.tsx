// An administrator sends a message to chosen users and/or a tenant (with the tenants below it),
// in-site or through an enabled channel (email, SMS, robots: queued and delivered by the server).
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import * as channels from '../../../core/api/channels';
import * as messages from '../../../core/api/messages';
import * as tenants from '../../../core/api/tenants';
import * as users from '../../../core/api/users';
import { HttpError } from '../../../core/http';
import { notifySuccess } from '../../../core/messages';
import type { FieldErrors } from '../../../core/types';
import { DialogFrame } from '../../dialogs/DialogFrame';
import { useT, useTRule } from '../../i18n';
import { TextField } from '../../widgets/TextFields';
import { MemberPicker, type Person } from '../../widgets/admin/MemberPicker';
import { SelectField, TextAreaField } from '../../widgets/admin/AdminFields';
import * as table from '../../widgets/admin/admin.css';
import { TenantOptions } from '../../widgets/admin/TenantFilter';
import { useResource } from '../../widgets/useResource';
import * as ui from '../../widgets/ui.css';
import * as styles from './messages.css';

interface SendValues {
  title: string;
  content: string;
  tenantId: string;
  channelId: string;
}

const findPeople = async (text: string): Promise<Person[]> => (await users.list({ searchProp: 'username', searchValue: text, size: 8 })).list;

export default function SendDialog({ open, onOpenChange, onSent }: { open: boolean; onOpenChange: (open: boolean) => void; onSent: () => void }) {
  const t = useT();
  const tRule = useTRule();
  const { register, handleSubmit, setError, formState } = useForm<SendValues>({ defaultValues: { title: '', content: '', tenantId: '', channelId: '' } });
  const { errors } = formState;
  const [people, setPeople] = useState<Person[]>([]);
  const [recipientsError, setRecipientsError] = useState<string>();
  const tenantList = useResource(tenants.tree, []);
  const channelList = useResource(channels.options, []);

  const submit = handleSubmit(async (values) => {
    if (!people.length && !values.tenantId) return setRecipientsError('rule.recipients');
    setRecipientsError(undefined);
    try {
      const sent = await messages.send({
        title: values.title.trim(),
        content: values.content.trim(),
        ...(people.length ? { userIds: people.map((person) => person.id) } : {}),
        ...(values.tenantId ? { tenantId: values.tenantId } : {}),
        ...(values.channelId ? { channelId: values.channelId } : {}),
      });
      notifySuccess(
        sent.skipped ? t('settings:send.sentSkipped', { count: sent.count, skipped: sent.skipped }) : t('settings:send.sent', { count: sent.count }),
      );
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      const fields = error.status === 400 ? ((error.data as Partial<FieldErrors> | null)?.fields ?? []) : [];
      for (const { field, rule } of fields) {
        if (field === 'userIds' || field === 'tenantId') setRecipientsError(rule);
        else setError(field as keyof SendValues, { type: 'server', message: rule });
      }
      return;
    }
    onSent();
    onOpenChange(false);
  });

  const required = (value: string) => (value.trim() ? true : 'rule.required');
  return (
    <DialogFrame open={open} onOpenChange={onOpenChange} title={t('settings:send.title')}>
      <form className={ui.form} noValidate onSubmit={(event) => void submit(event)}>
        <TextField
          label={t('settings:send.subject')}
          required
          maxLength={200}
          error={errors.title?.message}
          registration={register('title', { validate: required })}
        />
        <TextAreaField
          label={t('settings:send.content')}
          required
          maxLength={5000}
          error={errors.content?.message}
          registration={register('content', { validate: required })}
        />
        <fieldset className={styles.group}>
          <legend className={`${ui.label} ${styles.legend}`}>{t('settings:send.users')}</legend>
          <MemberPicker label={t('settings:send.users')} members={people} onChange={setPeople} search={findPeople} />
        </fieldset>
        <SelectField
          label={t('settings:send.tenant')}
          hint={t('settings:send.tenantHint')}
          error={errors.tenantId?.message}
          registration={register('tenantId')}
        >
          <option value="">{t('settings:send.noTenant')}</option>
          {tenantList.data && <TenantOptions tenants={tenantList.data} />}
        </SelectField>
        {recipientsError && (
          <p role="alert" className={ui.fieldError}>
            {tRule(recipientsError)}
          </p>
        )}
        <SelectField
          label={t('settings:send.channel')}
          hint={t('settings:send.channelHint')}
          error={errors.channelId?.message}
          registration={register('channelId')}
        >
          <option value="">{t('settings:send.inbox')}</option>
          {channelList.data?.map((channel) => (
            <option key={channel.id} value={channel.id}>
              {`${channel.name} (${t(`settings:serviceType.${channel.serviceType}`)})`}
            </option>
          ))}
        </SelectField>
        <div className={`${ui.actions} ${table.full}`}>
          <button type="button" className={ui.button.secondary} onClick={() => onOpenChange(false)}>
            {t('console:action.cancel')}
          </button>
          <button type="submit" className={ui.button.primary} disabled={formState.isSubmitting} part="primary-button">
            {t('settings:send.send')}
          </button>
        </div>
      </form>
    </DialogFrame>
  );
}
