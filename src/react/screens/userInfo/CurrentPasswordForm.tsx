// What the personal center's password-guarded steps share: Cancel beside a submit button, and the
// step that asks for the current password before a change (setting up an authenticator app, a new
// set of recovery codes). A wrong password shows at the field.
import { useForm } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import * as v from 'valibot';
import { rules } from '../../../core/validation';
import { showServerFieldErrors } from '../../dialogs/fieldErrors';
import { useT } from '../../i18n';
import { PasswordField } from '../../widgets/TextFields';
import * as ui from '../../widgets/ui.css';
import * as styles from './UserInfoScreen.css';

export function FormActions({ submitLabel, busy, onCancel }: { submitLabel: string; busy: boolean; onCancel: () => void }) {
  const t = useT();
  return (
    <div className={ui.actions}>
      <button type="button" className={ui.button.secondary} onClick={onCancel}>
        {t('console:action.cancel')}
      </button>
      <button type="submit" className={ui.button.primary} disabled={busy}>
        {submitLabel}
      </button>
    </div>
  );
}

const passwordForm = v.object({ password: rules.currentPassword });

interface CurrentPasswordFormProps {
  /** What the password is for, above the field. */
  text: string;
  label: string;
  submitLabel: string;
  onPassword: (password: string) => Promise<void>;
  onCancel: () => void;
}

export function CurrentPasswordForm({ text, label, submitLabel, onPassword, onCancel }: CurrentPasswordFormProps) {
  const { register, handleSubmit, setError, formState } = useForm<{ password: string }>({
    resolver: valibotResolver(passwordForm),
    defaultValues: { password: '' },
  });
  const onSubmit = handleSubmit(async ({ password }) => {
    try {
      await onPassword(password);
    } catch (error) {
      showServerFieldErrors(error, ['password'], setError);
    }
  });
  return (
    <form className={ui.form} onSubmit={(event) => void onSubmit(event)} noValidate>
      <p className={styles.text}>{text}</p>
      <PasswordField label={label} autoComplete="current-password" required error={formState.errors.password?.message} registration={register('password')} />
      <FormActions submitLabel={submitLabel} busy={formState.isSubmitting} onCancel={onCancel} />
    </form>
  );
}
