// Confirming a new email address or mobile phone of one's own: PUT /user/profile leaves it pending
// and sends a code to the NEW address; one small form per pending address takes that code.
import { useForm } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import * as v from 'valibot';
import * as users from '../../core/api/users';
import { loginCode } from '../../core/validation';
import { useT } from '../i18n';
import { TextField } from '../widgets/TextFields';
import * as ui from '../widgets/ui.css';
import { showServerFieldErrors } from './fieldErrors';

export type PendingContacts = Partial<Record<users.ContactChannel, string>>;

const codeForm = v.object({ code: loginCode });

export function ContactCodes({ pending, onConfirmed }: { pending: PendingContacts; onConfirmed: (channel: users.ContactChannel) => void }) {
  return (Object.entries(pending) as [users.ContactChannel, string][]).map(([channel, address]) => (
    <ContactCode key={channel} channel={channel} address={address} onConfirmed={() => onConfirmed(channel)} />
  ));
}

function ContactCode({ channel, address, onConfirmed }: { channel: users.ContactChannel; address: string; onConfirmed: () => void }) {
  const t = useT();
  const { register, handleSubmit, setError, formState } = useForm<{ code: string }>({ resolver: valibotResolver(codeForm), defaultValues: { code: '' } });
  const onSubmit = handleSubmit(async ({ code }) => {
    try {
      await users.confirmContact(channel, code);
    } catch (error) {
      // A wrong code, or (checked again now) an address another account took meanwhile.
      showServerFieldErrors(error, { code: 'code', [channel]: 'code' }, setError);
      return;
    }
    onConfirmed();
  });
  return (
    <form className={ui.form} noValidate onSubmit={(event) => void onSubmit(event)}>
      <p className={ui.hint} role="status">
        {t('console:profile.codeSent', { address })}
      </p>
      <TextField
        label={t('console:profile.code', { address })}
        inputMode="numeric"
        autoComplete="one-time-code"
        error={formState.errors.code?.message}
        registration={register('code')}
      />
      <div className={ui.actions}>
        <button type="submit" className={ui.button.secondary} disabled={formState.isSubmitting} aria-label={t('console:profile.confirmCode', { address })}>
          {t('console:profile.confirm')}
        </button>
      </div>
    </form>
  );
}
