// The app's client type: confidential (a server app, with a secret) or public (a single-page or
// native app, no secret). Saved as soon as it is chosen; making a client with a secret public asks
// first, since its secret (and machine access and trust) are revoked at once.
import { lazy, Suspense, useState } from 'react';
import { ClientType } from '../../../core/schemas/sso';
import { updateOidcClient, type OidcClientStatus } from '../../../core/api/sso';
import { notifySuccess } from '../../../core/messages';
import { useT } from '../../i18n';
import { SelectField } from '../../widgets/admin/AdminFields';

const ConfirmDialog = lazy(() => import('../../dialogs/ConfirmDialog'));

export function ClientTypeField({ appId, client, onSaved }: { appId: string; client: OidcClientStatus; onSaved: () => void }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const save = async (clientType: ClientType) => {
    setBusy(true);
    try {
      await updateOidcClient(appId, { clientType });
      onSaved();
      notifySuccess(t('admin:done.clientTypeSaved'));
    } catch {
      // shown by the HTTP client
    } finally {
      setBusy(false);
    }
  };

  const choose = (clientType: ClientType) => {
    if (clientType === ClientType.Public && client.hasSecret) setConfirming(true);
    else void save(clientType);
  };

  return (
    <>
      <SelectField
        label={t('admin:clientSecret.clientType')}
        hint={t('admin:clientSecret.clientTypeHint')}
        value={client.clientType}
        disabled={busy}
        onChange={(event) => choose(event.target.value as ClientType)}
      >
        <option value={ClientType.Confidential}>{t('admin:clientSecret.confidential')}</option>
        <option value={ClientType.Public}>{t('admin:clientSecret.public')}</option>
      </SelectField>
      <Suspense fallback={null}>
        {confirming && (
          <ConfirmDialog
            open
            onOpenChange={setConfirming}
            title={t('admin:clientSecret.toPublicTitle')}
            question={t('admin:clientSecret.toPublicQuestion')}
            confirmLabel={t('admin:clientSecret.toPublic')}
            onConfirm={() => save(ClientType.Public)}
          />
        )}
      </Suspense>
    </>
  );
}
