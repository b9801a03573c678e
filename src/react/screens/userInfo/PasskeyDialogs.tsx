// The personal center's passkey dialogs: adding one (a name and the current password, then the
// browser's prompt; ../../../core/passkeys is loaded on submit), renaming one and removing one
// (the current password again). The calls are silent: a wrong password or name shows at its
// field, anything else in the dialog.
import { useState } from 'react';
import { useForm, type UseFormRegisterReturn } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import * as v from 'valibot';
import { removePasskey, renamePasskey, type PasskeyInfo } from '../../../core/api/passkeys';
import { notifySuccess } from '../../../core/messages';
import { passkeyName, passkeyRenameBody } from '../../../core/schemas/passkeys';
import { rules } from '../../../core/validation';
import { DialogFrame } from '../../dialogs/DialogFrame';
import { showServerFieldErrors } from '../../dialogs/fieldErrors';
import { useT } from '../../i18n';
import { PasswordField, TextField } from '../../widgets/TextFields';
import * as ui from '../../widgets/ui.css';
import { FormActions } from './CurrentPasswordForm';

const addForm = v.object({ name: passkeyName, password: rules.currentPassword });
type AddValues = v.InferOutput<typeof addForm>;
const removeForm = v.object({ password: rules.currentPassword });

interface DialogProps {
  onOpenChange: (open: boolean) => void;
  onSaved: () => void;
}

interface ProofProps {
  error: string | undefined;
  registration: UseFormRegisterReturn;
  failure: string | undefined;
  label: string;
  busy: boolean;
  onCancel: () => void;
}

/** The current password a change takes, the refusal of anything but a field, and the buttons. */
function ProofAndActions({ error, registration, failure, label, busy, onCancel }: ProofProps) {
  const t = useT();
  return (
    <>
      <PasswordField label={t('account:passkeys.password')} autoComplete="current-password" required error={error} registration={registration} />
      {failure && (
        <p role="alert" className={ui.formError}>
          {failure}
        </p>
      )}
      <FormActions submitLabel={label} busy={busy} onCancel={onCancel} />
    </>
  );
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function AddPasskeyDialog({ onOpenChange, onSaved }: DialogProps) {
  const t = useT();
  const [failure, setFailure] = useState<string>();
  const { register, handleSubmit, setError, formState } = useForm<AddValues>({
    resolver: valibotResolver(addForm),
    defaultValues: { name: t('account:passkeys.defaultName'), password: '' },
  });
  const onSubmit = handleSubmit(async ({ name, password }) => {
    setFailure(undefined);
    const passkeys = await import('../../../core/passkeys');
    try {
      await passkeys.createPasskey(name, password);
    } catch (error) {
      if (!showServerFieldErrors(error, ['name', 'password'], setError))
        setFailure(passkeys.promptDeclined(error) ? t('account:passkeys.cancelled') : messageOf(error));
      return;
    }
    notifySuccess(t('account:passkeys.added'));
    onSaved();
    onOpenChange(false);
  });
  return (
    <DialogFrame open onOpenChange={onOpenChange} title={t('account:passkeys.add')} description={t('account:passkeys.addText')}>
      <form className={ui.form} onSubmit={(event) => void onSubmit(event)} noValidate>
        <TextField
          label={t('account:passkeys.name')}
          placeholder={t('account:passkeys.namePlaceholder')}
          maxLength={64}
          required
          error={formState.errors.name?.message}
          registration={register('name')}
        />
        <ProofAndActions
          error={formState.errors.password?.message}
          registration={register('password')}
          failure={failure}
          label={t('account:passkeys.add')}
          busy={formState.isSubmitting}
          onCancel={() => onOpenChange(false)}
        />
      </form>
    </DialogFrame>
  );
}

export function RenamePasskeyDialog({ passkey, onOpenChange, onSaved }: DialogProps & { passkey: PasskeyInfo }) {
  const t = useT();
  const [failure, setFailure] = useState<string>();
  const { register, handleSubmit, setError, formState } = useForm<{ name: string }>({
    resolver: valibotResolver(passkeyRenameBody),
    defaultValues: { name: passkey.name },
  });
  const onSubmit = handleSubmit(async ({ name }) => {
    try {
      await renamePasskey(passkey.id, name);
    } catch (error) {
      if (!showServerFieldErrors(error, ['name'], setError)) setFailure(messageOf(error));
      return;
    }
    notifySuccess(t('account:passkeys.renamed'));
    onSaved();
    onOpenChange(false);
  });
  return (
    <DialogFrame open onOpenChange={onOpenChange} title={t('account:passkeys.renameTitle')} size="small">
      <form className={ui.form} onSubmit={(event) => void onSubmit(event)} noValidate>
        <TextField label={t('account:passkeys.name')} maxLength={64} required error={formState.errors.name?.message} registration={register('name')} />
        {failure && (
          <p role="alert" className={ui.formError}>
            {failure}
          </p>
        )}
        <FormActions submitLabel={t('console:action.save')} busy={formState.isSubmitting} onCancel={() => onOpenChange(false)} />
      </form>
    </DialogFrame>
  );
}

export function RemovePasskeyDialog({ passkey, onOpenChange, onSaved }: DialogProps & { passkey: PasskeyInfo }) {
  const t = useT();
  const [failure, setFailure] = useState<string>();
  const { register, handleSubmit, setError, formState } = useForm<{ password: string }>({
    resolver: valibotResolver(removeForm),
    defaultValues: { password: '' },
  });
  const onSubmit = handleSubmit(async ({ password }) => {
    setFailure(undefined);
    try {
      await removePasskey(passkey.id, password);
    } catch (error) {
      if (!showServerFieldErrors(error, ['password'], setError)) setFailure(messageOf(error));
      return;
    }
    notifySuccess(t('account:passkeys.removed'));
    onSaved();
    onOpenChange(false);
  });
  return (
    <DialogFrame
      open
      onOpenChange={onOpenChange}
      title={t('account:passkeys.removeTitle')}
      description={`${t('account:passkeys.removeQuestion', { name: passkey.name })} ${t('account:passkeys.removeProof')}`}
      size="small"
    >
      <form className={ui.form} onSubmit={(event) => void onSubmit(event)} noValidate>
        <ProofAndActions
          error={formState.errors.password?.message}
          registration={register('password')}
          failure={failure}
          label={t('account:passkeys.remove')}
          busy={formState.isSubmitting}
          onCancel={() => onOpenChange(false)}
        />
      </form>
    </DialogFrame>
  );
}
