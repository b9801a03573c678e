// Where the provider posts a signed logout token when a person's access to the app ends
// (back-channel logout): one http(s) URL, saved with the app's OpenID Connect client; empty removes it.
import { useId, useState, type FormEvent } from 'react';
import * as v from 'valibot';
import { updateOidcClient } from '../../../core/api/sso';
import { HttpError } from '../../../core/http';
import { notifySuccess } from '../../../core/messages';
import { oidcClientBody } from '../../../core/schemas/sso';
import { useT, useTRule } from '../../i18n';
import type { FieldErrors } from '../../../core/types';
import * as ui from '../../widgets/ui.css';

export function BackchannelLogoutForm({ appId, saved, onSaved }: { appId: string; saved: string | null; onSaved: () => void }) {
  const t = useT();
  const tRule = useTRule();
  const id = useId();
  const [text, setText] = useState(saved ?? '');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = { backchannelLogoutUri: text.trim() || null };
    if (!v.safeParse(oidcClientBody, body).success) return setError(t('admin:clientSecret.backchannelInvalid'));
    setBusy(true);
    setError(undefined);
    try {
      await updateOidcClient(appId, body);
      onSaved();
      notifySuccess(t('admin:done.backchannelSaved'));
    } catch (failure) {
      // A 400 names the rule the URI broke (e.g. rule.outboundUrl: a local or private address).
      const rule = failure instanceof HttpError && failure.status === 400 ? (failure.data as Partial<FieldErrors> | null)?.fields?.[0]?.rule : undefined;
      setError(rule ? tRule(rule) : failure instanceof HttpError ? failure.message : t('message.requestFailed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className={ui.form} noValidate onSubmit={(event) => void submit(event)}>
      <div className={ui.field}>
        <label htmlFor={id} className={ui.label}>
          {t('admin:clientSecret.backchannelUri')}
        </label>
        <input
          id={id}
          type="url"
          className={ui.input}
          value={text}
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          onChange={(event) => setText(event.currentTarget.value)}
        />
        <p id={`${id}-hint`} className={ui.hint}>
          {t('admin:clientSecret.backchannelHint')}
        </p>
        {error && (
          <p id={`${id}-error`} role="alert" className={ui.fieldError}>
            {error}
          </p>
        )}
      </div>
      <div className={ui.actions}>
        <button type="submit" className={ui.button.secondary} disabled={busy}>
          {t('admin:clientSecret.backchannelSave')}
        </button>
      </div>
    </form>
  );
}
