// Linking a third-party sign-in to the existing account with the provider's email: the person
// proves the account is theirs with its password (and a code from its authenticator app when the
// server asks for one). The server then remembers the link and signs them in (or, for an
// administrator who must set up an authenticator app, answers that step).
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import * as v from 'valibot';
import { linkAccount } from '../../../core/api/third-party';
import { HttpError } from '../../../core/http';
import type { FieldErrors, LoginAnswer } from '../../../core/types';
import { linkBody } from '../../../core/schemas/idp';
import { showServerFieldErrors } from '../../dialogs/fieldErrors';
import { useT } from '../../i18n';
import { PasswordField, TextField } from '../../widgets/TextFields';
import * as ui from '../../widgets/ui.css';

/** The password as typed (the server's body carries it transformed). */
const linkForm = v.object({ password: v.pipe(v.string('rule.required'), v.trim(), v.nonEmpty('rule.required')), code: linkBody.entries.code });
type LinkValues = v.InferInput<typeof linkForm>;

export interface LinkAccountFormProps {
  idpCode: string;
  accessTicket: string;
  username: string;
  /** The person confirmed that this sign-in replaces the browser's current session. */
  switchAccount: boolean;
  /** The sign-in's answer (it may ask a second step). */
  onLinked: (answer: LoginAnswer) => void;
  onBack: () => void;
}

export function LinkAccountForm({ idpCode, accessTicket, username, switchAccount, onLinked, onBack }: LinkAccountFormProps) {
  const t = useT();
  // Asked for once the server says the account has an authenticator app.
  const [codeAsked, setCodeAsked] = useState(false);
  const { register, handleSubmit, setError, formState } = useForm<LinkValues>({
    resolver: valibotResolver(linkForm),
    defaultValues: { password: '', code: undefined },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(async ({ password, code }) => {
    let answer: LoginAnswer;
    try {
      answer = await linkAccount(idpCode, accessTicket, { password, code: code || undefined, switchAccount });
    } catch (error) {
      showServerFieldErrors(error, ['password', 'code'], setError);
      if (hasCodeError(error)) setCodeAsked(true);
      return;
    }
    onLinked(answer);
  });

  return (
    <form className={`${ui.form} ${ui.card}`} noValidate onSubmit={(event) => void onSubmit(event)}>
      <p className={ui.muted}>{t('console:infoComplete.linkText', { username })}</p>
      <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
      <PasswordField
        label={t('console:infoComplete.password')}
        required
        autoComplete="current-password"
        error={errors.password?.message}
        registration={register('password')}
      />
      {codeAsked && (
        <TextField
          label={t('login:code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          required
          error={errors.code?.message}
          registration={register('code')}
        />
      )}
      <div className={ui.actions}>
        <button type="button" className={ui.button.secondary} onClick={onBack}>
          {t('console:infoComplete.back')}
        </button>
        <button type="submit" className={ui.button.primary} disabled={isSubmitting}>
          {t('console:infoComplete.linkSubmit')}
        </button>
      </div>
    </form>
  );
}

/** The server named the code field: the account has an authenticator app. */
function hasCodeError(error: unknown): boolean {
  const fields = error instanceof HttpError ? ((error.data as Partial<FieldErrors> | null)?.fields ?? []) : [];
  return fields.some((field) => field.field === 'code');
}
