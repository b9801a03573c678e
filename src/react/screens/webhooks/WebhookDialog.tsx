// Create or edit a webhook endpoint: URL, description, the events it receives, enabled, and (new
// ones) the tenant whose subtree's events it gets. A new endpoint's signing secret is shown once,
// in the same dialog, after saving.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import * as webhooks from '../../../core/api/webhooks';
import { notifySuccess } from '../../../core/messages';
import { webhookEvents, type Webhook, type WebhookEvent } from '../../../core/schemas/webhooks';
import type { Tenant } from '../../../core/api/tenants';
import { DialogFrame } from '../../dialogs/DialogFrame';
import { useT, useTRule } from '../../i18n';
import { SecretValue } from '../../widgets/SecretValue';
import { CheckboxField, PlainTextField, SelectField } from '../../widgets/admin/AdminFields';
import { refusalOf } from '../../widgets/admin/serverErrors';
import * as table from '../../widgets/admin/admin.css';
import * as ui from '../../widgets/ui.css';
import { eventName } from './texts';
import * as styles from './webhooks.css';

export interface WebhookDialogProps {
  /** The endpoint edited; absent: a new one. */
  webhook?: Webhook;
  tenants: readonly Tenant[];
  /** A platform administrator may make endpoints that receive every tenant's events. */
  platform: boolean;
  onClose: () => void;
  onSaved: () => void;
}

const PLATFORM = '';

export default function WebhookDialog({ webhook, tenants, platform, onClose, onSaved }: WebhookDialogProps) {
  const t = useT();
  const tRule = useTRule();
  const id = useId();
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [description, setDescription] = useState(webhook?.description ?? '');
  const [events, setEvents] = useState<ReadonlySet<string>>(new Set(webhook?.events ?? ['user.created', 'user.updated', 'user.deleted']));
  const [enabled, setEnabled] = useState(webhook?.enabled ?? true);
  const [tenantId, setTenantId] = useState(platform ? PLATFORM : (tenants[0]?.id ?? PLATFORM));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  // A refused save: the focus goes to the first field the server named (on a phone it is scrolled
  // out of sight at the top), or back to Save, which was disabled while it ran.
  const form = useRef<HTMLFormElement>(null);
  const [refused, setRefused] = useState(0);
  useEffect(() => {
    if (!refused) return;
    const target = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? form.current?.querySelector<HTMLElement>('[type="submit"]');
    target?.focus();
  }, [refused]);
  const [created, setCreated] = useState<{ url: string; secret: string }>();

  const toggle = (event: string, on: boolean) =>
    setEvents((current) => {
      const next = new Set(current);
      if (on) next.add(event);
      else next.delete(event);
      return next;
    });

  const save = async (submitted: FormEvent) => {
    submitted.preventDefault();
    setBusy(true);
    setErrors({});
    setFailure(undefined);
    const chosen = webhookEvents.filter<WebhookEvent>((event): event is WebhookEvent => events.has(event));
    try {
      if (webhook) await webhooks.update(webhook.id, { url: url.trim(), description: description.trim(), events: chosen, enabled, version: webhook.version });
      else {
        const saved = await webhooks.create({ url: url.trim(), description: description.trim(), events: chosen, enabled, tenantId: tenantId || null });
        setCreated({ url: saved.url, secret: saved.secret });
      }
    } catch (error) {
      const refusal = refusalOf(error);
      setErrors(Object.fromEntries(refusal.fields.map(({ field, message }) => [field.split('.')[0] ?? field, message])));
      if (refusal.stale) setFailure(t('admin:user.stale'));
      else if (refusal.message) setFailure(refusal.message);
      setRefused((count) => count + 1);
      return;
    } finally {
      setBusy(false);
    }
    onSaved();
    if (webhook) {
      notifySuccess(t('webhooks:savedNotice'));
      onClose();
    }
  };

  if (created) {
    return (
      <DialogFrame open onOpenChange={(open) => !open && onClose()} title={t('webhooks:secretTitle')}>
        <SecretValue label={t('webhooks:secretLabel', { url: created.url })} value={created.secret} warning={t('webhooks:secretWarning')} />
        <div className={ui.actions}>
          <button type="button" className={ui.button.primary} onClick={onClose}>
            {t('webhooks:done')}
          </button>
        </div>
      </DialogFrame>
    );
  }

  return (
    <DialogFrame
      open
      onOpenChange={(open) => !open && onClose()}
      title={t(webhook ? 'webhooks:editTitle' : 'webhooks:createTitle')}
      description={t('webhooks:intro')}
    >
      <form ref={form} className={ui.form} noValidate onSubmit={(event) => void save(event)}>
        <div className={table.formGrid}>
          <div className={table.full}>
            <PlainTextField label={t('webhooks:url')} required hint={t('webhooks:urlHint')} error={errors.url} value={url} onValue={setUrl} />
          </div>
          <div className={table.full}>
            <PlainTextField label={t('webhooks:description')} error={errors.description} value={description} onValue={setDescription} />
          </div>
          {!webhook && (
            <SelectField
              label={t('webhooks:allEventsOf')}
              value={tenantId}
              error={errors.tenantId}
              onChange={(event) => setTenantId(event.currentTarget.value)}
            >
              {platform && <option value={PLATFORM}>{t('webhooks:platformWide')}</option>}
              {tenants.map((tenant) => (
                <option key={tenant.id} value={tenant.id}>
                  {tenant.name}
                </option>
              ))}
            </SelectField>
          )}
          <div className={table.full}>
            <CheckboxField label={t('webhooks:enabled')} checked={enabled} onChange={setEnabled} />
          </div>
          <fieldset className={`${styles.events} ${table.full}`} aria-describedby={errors.events ? `${id}-events-error` : undefined}>
            <legend className={styles.legend}>{t('webhooks:events')}</legend>
            {webhookEvents.map((event) => (
              <CheckboxField key={event} label={eventName(t, event)} checked={events.has(event)} onChange={(on) => toggle(event, on)} />
            ))}
          </fieldset>
          {errors.events && (
            <p id={`${id}-events-error`} className={`${ui.fieldError} ${table.full}`}>
              {tRule(errors.events)}
            </p>
          )}
        </div>
        {failure && (
          <p role="alert" className={ui.formError}>
            {failure}
          </p>
        )}
        <div className={ui.actions}>
          <button type="button" className={ui.button.secondary} onClick={onClose}>
            {t('console:action.cancel')}
          </button>
          <button type="submit" className={ui.button.primary} disabled={busy} part="primary-button">
            {t('console:action.save')}
          </button>
        </div>
      </form>
    </DialogFrame>
  );
}
