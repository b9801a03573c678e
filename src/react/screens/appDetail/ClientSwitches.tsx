// The switches of the app's OpenID Connect client, each saved as soon as it is changed: the
// client_credentials grant for the app's machines, JWT access tokens for the app's own resource, and
// (platform administrators only) trusted:
// the app's sign-ins skip the consent page. A public client has no secret: only JWT access tokens.
import { useState } from 'react';
import { updateOidcClient, type OidcClientChanges, type OidcClientStatus } from '../../../core/api/sso';
import { ClientType } from '../../../core/schemas/sso';
import { notifySuccess } from '../../../core/messages';
import { useT } from '../../i18n';
import { CheckboxField } from '../../widgets/admin/AdminFields';
import { useAdminScope } from '../../widgets/admin/scope';
import * as ui from '../../widgets/ui.css';

export function ClientSwitches({ appId, client, onSaved }: { appId: string; client: OidcClientStatus; onSaved: () => void }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const scope = useAdminScope();
  const confidential = client.clientType === ClientType.Confidential;

  const save = async (changes: OidcClientChanges) => {
    setBusy(true);
    try {
      await updateOidcClient(appId, changes);
      onSaved();
      notifySuccess(t('admin:done.clientSaved'));
    } catch {
      // shown by the HTTP client
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={ui.field}>
      {confidential && (
        <>
          <CheckboxField
            label={t('admin:clientSecret.clientCredentials')}
            checked={client.clientCredentials}
            disabled={busy}
            onChange={(clientCredentials) => void save({ clientCredentials })}
          />
          <p className={ui.hint}>{t('admin:clientSecret.clientCredentialsHint')}</p>
        </>
      )}
      <CheckboxField
        label={t('admin:clientSecret.jwtAccessTokens')}
        checked={client.jwtAccessTokens}
        disabled={busy}
        onChange={(jwtAccessTokens) => void save({ jwtAccessTokens })}
      />
      <p className={ui.hint}>{t('admin:clientSecret.jwtAccessTokensHint')}</p>
      {scope.platform && confidential && (
        <>
          <CheckboxField label={t('admin:clientSecret.trusted')} checked={client.trusted} disabled={busy} onChange={(trusted) => void save({ trusted })} />
          <p className={ui.hint}>{t('admin:clientSecret.trustedHint')}</p>
        </>
      )}
    </div>
  );
}
