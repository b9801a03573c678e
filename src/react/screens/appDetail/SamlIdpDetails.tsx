// What an administrator gives a SAML app about this identity provider: the metadata URL (also its
// entity ID) to copy, the SSO and SLO URLs, and the signing certificates the metadata publishes.
import { useRef } from 'react';
import { idpSigningCertificates, type SamlProviderAnswer } from '../../../core/api/saml';
import { useT } from '../../i18n';
import { useCopy } from '../../widgets/useCopy';
import { useResource } from '../../widgets/useResource';
import * as ui from '../../widgets/ui.css';
import * as clientStyles from './ClientPanel.css';
import * as styles from './SamlPanel.css';

function CopyValue({ label, value }: { label: string; value: string }) {
  const t = useT();
  const shown = useRef<HTMLElement>(null);
  const { copy, manual } = useCopy();
  return (
    <>
      <code ref={shown}>{value}</code>{' '}
      <button
        type="button"
        className={ui.button.secondary}
        aria-label={t('console:secret.copyNamed', { name: label })}
        onClick={() => void copy(value, shown.current, t('console:secret.copied'))}
      >
        {t('console:secret.copy')}
      </button>
      {manual && <p className={ui.hint}>{t('console:secret.copyManually')}</p>}
    </>
  );
}

export function SamlIdpDetails({ idp }: { idp: SamlProviderAnswer['idp'] }) {
  const t = useT();
  const certificates = useResource(() => idpSigningCertificates(idp.metadataUrl), [idp.metadataUrl]);
  return (
    <section aria-labelledby="iam-saml-idp">
      <h4 id="iam-saml-idp" className={clientStyles.title}>
        {t('admin:saml.idpTitle')}
      </h4>
      <dl className={clientStyles.details}>
        <dt className={ui.muted}>{t('admin:saml.idpMetadataUrl')}</dt>
        <dd className={clientStyles.value}>
          <CopyValue label={t('admin:saml.idpMetadataUrl')} value={idp.metadataUrl} />
        </dd>
        <dt className={ui.muted}>{t('admin:saml.idpSsoUrl')}</dt>
        <dd className={clientStyles.value}>
          <code>{idp.ssoUrl}</code>
        </dd>
        <dt className={ui.muted}>{t('admin:saml.idpSloUrl')}</dt>
        <dd className={clientStyles.value}>
          <code>{idp.sloUrl}</code>
        </dd>
        <dt className={ui.muted}>{t('admin:saml.idpCertificate')}</dt>
        <dd className={clientStyles.value}>
          {certificates.data ? (
            certificates.data.map((pem, index) => (
              <pre key={pem} className={styles.certificate} tabIndex={0} aria-label={t('admin:saml.idpCertificateNumbered', { n: index + 1 })}>
                {pem}
              </pre>
            ))
          ) : (
            <span className={ui.muted}>{t(certificates.failed ? 'console:unavailable' : 'console:loading')}</span>
          )}
        </dd>
      </dl>
    </section>
  );
}
