// A setting of the app's OpenID Connect client that holds URLs, saved with the client: where the app
// may send the browser after RP-initiated logout (post_logout_redirect_uri, one URL a line, like its
// callback URLs) and where the provider posts a signed logout token when a person's access to the
// app ends (back-channel logout, one URL; empty removes it).
import { useId, useState, type FormEvent } from 'react';
import * as v from 'valibot';
import { updateOidcClient, type OidcClientChanges } from '../../../core/api/sso';
import { HttpError } from '../../../core/http';
import { notifySuccess } from '../../../core/messages';
import { oidcClientBody } from '../../../core/schemas/sso';
import type { TextKey } from '../../../core/i18n';
import type { FieldErrors } from '../../../core/types';
import { useT, useTRule } from '../../i18n';
import * as ui from '../../widgets/ui.css';
import * as styles from './ClientPanel.css';

interface ClientUrlsSetting {
  /** One URL a line in a text area, or one URL in a field. */
  multiline: boolean;
  /** The change the text saves. */
  changeOf: (text: string) => OidcClientChanges;
  texts: { label: TextKey; hint: TextKey; invalid: TextKey; save: TextKey; saved: TextKey };
}

const linesOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

export const postLogoutUris: ClientUrlsSetting = {
  multiline: true,
  changeOf: (text) => ({ postLogoutRedirectUris: linesOf(text) }),
  texts: {
    label: 'admin:clientSecret.postLogoutUris',
    hint: 'admin:clientSecret.postLogoutHint',
    invalid: 'admin:clientSecret.postLogoutInvalid',
    save: 'admin:clientSecret.postLogoutSave',
    saved: 'admin:done.postLogoutSaved',
  },
};

export const backchannelLogoutUri: ClientUrlsSetting = {
  multiline: false,
  changeOf: (text) => ({ backchannelLogoutUri: text.trim() || null }),
  texts: {
    label: 'admin:clientSecret.backchannelUri',
    hint: 'admin:clientSecret.backchannelHint',
    invalid: 'admin:clientSecret.backchannelInvalid',
    save: 'admin:clientSecret.backchannelSave',
    saved: 'admin:done.backchannelSaved',
  },
};

export function ClientUrlsForm({ appId, setting, saved, onSaved }: { appId: string; setting: ClientUrlsSetting; saved: string; onSaved: () => void }) {
  const t = useT();
  const tRule = useTRule();
  const id = useId();
  const [text, setText] = useState(saved);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const { texts } = setting;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const change = setting.changeOf(text);
    if (!v.safeParse(oidcClientBody, change).success) return setError(t(texts.invalid));
    setBusy(true);
    setError(undefined);
    try {
      await updateOidcClient(appId, change);
      onSaved();
      notifySuccess(t(texts.saved));
    } catch (failure) {
      // A 400 names the rule a URL broke (e.g. rule.outboundUrl: a local or private address).
      const rule = failure instanceof HttpError && failure.status === 400 ? (failure.data as Partial<FieldErrors> | null)?.fields?.[0]?.rule : undefined;
      setError(rule ? tRule(rule) : failure instanceof HttpError ? failure.message : t('message.requestFailed'));
    } finally {
      setBusy(false);
    }
  };

  const fieldProps = {
    id,
    value: text,
    spellCheck: false,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': `${id}-hint${error ? ` ${id}-error` : ''}`,
  };
  return (
    <form className={ui.form} noValidate onSubmit={(event) => void submit(event)}>
      <div className={ui.field}>
        <label htmlFor={id} className={ui.label}>
          {t(texts.label)}
        </label>
        {setting.multiline ? (
          <textarea {...fieldProps} className={`${ui.input} ${styles.uriList}`} onChange={(event) => setText(event.currentTarget.value)} />
        ) : (
          <input {...fieldProps} type="url" className={ui.input} onChange={(event) => setText(event.currentTarget.value)} />
        )}
        <p id={`${id}-hint`} className={ui.hint}>
          {t(texts.hint)}
        </p>
        {error && (
          <p id={`${id}-error`} role="alert" className={ui.fieldError}>
            {error}
          </p>
        )}
      </div>
      <div className={ui.actions}>
        <button type="submit" className={ui.button.secondary} disabled={busy}>
          {t(texts.save)}
        </button>
      </div>
    </form>
  );
}
