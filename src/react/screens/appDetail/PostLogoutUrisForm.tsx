// Where the app may send the browser after RP-initiated logout (post_logout_redirect_uri): http(s)
// URLs like its callback URLs, one a line, saved with the app's OpenID Connect client.
import { useId, useState, type FormEvent } from 'react';
import * as v from 'valibot';
import { updateOidcClient } from '../../../core/api/sso';
import { HttpError } from '../../../core/http';
import { notifySuccess } from '../../../core/messages';
import { postLogoutUrisBody } from '../../../core/schemas/sso';
import { useT } from '../../i18n';
import * as ui from '../../widgets/ui.css';
import * as styles from './ClientPanel.css';

const linesOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

export function PostLogoutUrisForm({ appId, saved, onSaved }: { appId: string; saved: string[]; onSaved: () => void }) {
  const t = useT();
  const id = useId();
  const [text, setText] = useState(saved.join('\n'));
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = { postLogoutRedirectUris: linesOf(text) };
    if (!v.safeParse(postLogoutUrisBody, body).success) return setError(t('admin:clientSecret.postLogoutInvalid'));
    setBusy(true);
    setError(undefined);
    try {
      await updateOidcClient(appId, body);
      onSaved();
      notifySuccess(t('admin:done.postLogoutSaved'));
    } catch (failure) {
      setError(failure instanceof HttpError ? failure.message : t('message.requestFailed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className={ui.form} noValidate onSubmit={(event) => void submit(event)}>
      <div className={ui.field}>
        <label htmlFor={id} className={ui.label}>
          {t('admin:clientSecret.postLogoutUris')}
        </label>
        <textarea
          id={id}
          className={`${ui.input} ${styles.uriList}`}
          value={text}
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          onChange={(event) => setText(event.currentTarget.value)}
        />
        <p id={`${id}-hint`} className={ui.hint}>
          {t('admin:clientSecret.postLogoutHint')}
        </p>
        {error && (
          <p id={`${id}-error`} role="alert" className={ui.fieldError}>
            {error}
          </p>
        )}
      </div>
      <div className={ui.actions}>
        <button type="submit" className={ui.button.secondary} disabled={busy}>
          {t('admin:clientSecret.postLogoutSave')}
        </button>
      </div>
    </form>
  );
}
