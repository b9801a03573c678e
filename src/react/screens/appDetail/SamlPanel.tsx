// The app as a SAML 2.0 service provider (the "SAML" tab, loaded when opened): this identity
// provider's details to give the app, the app's metadata to read, its settings, and removing them.
import { lazy, Suspense, useState } from 'react';
import { removeSamlProvider, samlProviderOf, type SamlProviderAnswer } from '../../../core/api/saml';
import { notifySuccess } from '../../../core/messages';
import { useT } from '../../i18n';
import { useResource } from '../../widgets/useResource';
import * as ui from '../../widgets/ui.css';
import * as clientStyles from './ClientPanel.css';
import * as styles from './SamlPanel.css';
import { SamlIdpDetails } from './SamlIdpDetails';
import { SamlMetadataForm } from './SamlMetadataForm';
import { SamlProviderForm } from './SamlProviderForm';

const ConfirmDialog = lazy(() => import('../../dialogs/ConfirmDialog'));

export default function SamlPanel({ appId }: { appId: string }) {
  const t = useT();
  const loaded = useResource(() => samlProviderOf(appId), [appId]);
  // A save answers the settings as saved: shown without reading them again.
  const [saved, setSaved] = useState<SamlProviderAnswer>();
  const [confirming, setConfirming] = useState(false);
  const answer = saved ?? loaded.data;
  if (!answer) return <p className={ui.empty}>{t(loaded.failed ? 'console:unavailable' : 'console:loading')}</p>;
  const { provider, idp } = answer;

  const remove = async () => {
    try {
      setSaved(await removeSamlProvider(appId));
      notifySuccess(t('admin:saml.removed'));
    } catch {
      // shown by the HTTP client
    }
  };

  return (
    <section aria-labelledby="iam-saml-title">
      <h3 id="iam-saml-title" className={clientStyles.title}>
        {t('admin:saml.title')}
      </h3>
      <div className={styles.intro}>
        <p className={ui.hint} role="status">
          {t(provider ? 'admin:saml.registered' : 'admin:saml.notRegistered')}
        </p>
        <p className={ui.hint}>{t('admin:saml.sharedWithOidc')}</p>
      </div>
      <SamlIdpDetails idp={idp} />
      <div className={clientStyles.panel}>
        <SamlMetadataForm key={`metadata-${provider?.metadataUrl ?? ''}`} appId={appId} savedUrl={provider?.metadataUrl ?? null} onSaved={setSaved} />
      </div>
      <div className={clientStyles.panel}>
        {/* A new key when the saved settings change: the form starts from what the server kept. */}
        <SamlProviderForm key={JSON.stringify(provider)} appId={appId} provider={provider} onSaved={setSaved} />
      </div>
      {provider && (
        <div className={`${clientStyles.panel} ${ui.actions}`}>
          <button type="button" className={ui.button.danger} onClick={() => setConfirming(true)}>
            {t('admin:saml.remove')}
          </button>
        </div>
      )}
      <Suspense fallback={null}>
        {confirming && (
          <ConfirmDialog
            open
            onOpenChange={setConfirming}
            title={t('admin:saml.removeTitle')}
            question={t('admin:saml.removeQuestion')}
            confirmLabel={t('admin:saml.remove')}
            onConfirm={remove}
          />
        )}
      </Suspense>
    </section>
  );
}
