// "Send test": sends a test message through the channel now and shows what happened (sent, or
// failed with the reason). Email and SMS need a recipient; robots may @mention a mobile number;
// the in-site channel sends to my own inbox.
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import * as channels from '../../../core/api/channels';
import { MessageServiceType } from '../../../core/enums';
import type { Channel, Delivery } from '../../../core/schemas/messaging';
import { patterns } from '../../../core/validation';
import { DialogFrame } from '../../dialogs/DialogFrame';
import { useT } from '../../i18n';
import type { TextKey } from '../../../core/i18n';
import { TextField } from '../../widgets/TextFields';
import * as ui from '../../widgets/ui.css';
import * as styles from './channels.css';
import { StatusBadge } from '../../widgets/StatusBadge';
import { deliveryErrorText } from '../../widgets/messageTexts';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** What the address field asks for, and how it is checked, per service type. */
function addressOf(type: string): { label: TextKey; required: boolean; valid: (value: string) => boolean; rule: string } | undefined {
  if (type === MessageServiceType.EMAIL) return { label: 'settings:test.email', required: true, valid: (value) => EMAIL.test(value), rule: 'rule.email' };
  if (type === MessageServiceType.SMS)
    return { label: 'settings:test.mobile', required: true, valid: (value) => patterns.phone.test(value), rule: 'rule.phoneNumber' };
  if (type === MessageServiceType.SITE_MESSAGE) return undefined;
  return { label: 'settings:test.mention', required: false, valid: (value) => !value || patterns.phone.test(value), rule: 'rule.phoneNumber' };
}

export default function TestDialog({
  channel,
  onOpenChange,
  onSent,
}: {
  channel: Channel | undefined;
  onOpenChange: (open: boolean) => void;
  onSent: () => void;
}) {
  const t = useT();
  const id = useId();
  const { register, handleSubmit, reset, formState } = useForm<{ address: string }>({ defaultValues: { address: '' } });
  const [outcome, setOutcome] = useState<Delivery>();
  const field = channel ? addressOf(channel.serviceType) : undefined;

  useEffect(() => {
    reset({ address: '' });
    setOutcome(undefined);
  }, [channel, reset]);

  const send = handleSubmit(async ({ address }) => {
    if (!channel) return;
    try {
      setOutcome(await channels.sendTest(channel.id, address.trim() || undefined));
      onSent();
    } catch {
      // shown by the HTTP client
    }
  });

  const failed = outcome?.status === 'failed';
  return (
    <DialogFrame open={channel !== undefined} onOpenChange={onOpenChange} title={t('settings:test.title', { name: channel?.name ?? '' })} size="small">
      <form className={ui.form} noValidate onSubmit={(event) => void send(event)} aria-describedby={`${id}-text`}>
        <p id={`${id}-text`} className={ui.hint}>
          {t(field ? 'settings:test.text' : 'settings:test.inboxText')}
        </p>
        {field && (
          <TextField
            label={t(field.label)}
            required={field.required}
            error={formState.errors.address?.message}
            inputMode={channel?.serviceType === MessageServiceType.EMAIL ? 'email' : 'tel'}
            registration={register('address', {
              validate: (value) => {
                const text = value.trim();
                if (field.required && !text) return 'rule.required';
                return field.valid(text) || field.rule;
              },
            })}
          />
        )}
        {outcome && (
          <div role={failed ? 'alert' : 'status'} className={`${styles.outcome} ${failed ? styles.outcomeFailed : ''}`}>
            <StatusBadge status={outcome.status} /> {failed ? deliveryErrorText(t, outcome) : t('settings:test.delivered')}
          </div>
        )}
        <div className={ui.actions}>
          <button type="button" className={ui.button.secondary} onClick={() => onOpenChange(false)}>
            {t('console:action.close')}
          </button>
          <button type="submit" className={ui.button.primary} disabled={formState.isSubmitting} part="primary-button">
            {t('settings:test.send')}
          </button>
        </div>
      </form>
    </DialogFrame>
  );
}
