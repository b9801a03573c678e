// Registers the app from its own SAML metadata: pasted, or fetched by the server from a URL
// (through its outbound address guard). What the metadata says fills the settings below it.
import { useState, type FormEvent } from 'react';
import type { SamlProviderAnswer } from '../../../core/api/saml';
import { useT } from '../../i18n';
import { PlainTextField, TextAreaField } from '../../widgets/admin/AdminFields';
import { useSamlSave } from './useSamlSave';
import * as ui from '../../widgets/ui.css';
import * as styles from './SamlPanel.css';

export function SamlMetadataForm({ appId, savedUrl, onSaved }: { appId: string; savedUrl: string | null; onSaved: (answer: SamlProviderAnswer) => void }) {
  const t = useT();
  const [metadataXml, setXml] = useState('');
  const [metadataUrl, setUrl] = useState(savedUrl ?? '');
  const { errors, failure, busy, save } = useSamlSave(appId, onSaved);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // Pasted metadata wins over the URL: the server reads one document.
    const body = metadataXml.trim() ? { metadataXml: metadataXml.trim() } : { metadataUrl: metadataUrl.trim() };
    if (await save(body, t('admin:saml.metadataRead'), !body.metadataXml && !body.metadataUrl ? 'metadataXml' : undefined)) setXml('');
  };

  return (
    <form className={ui.form} noValidate aria-labelledby="iam-saml-metadata" onSubmit={(event) => void submit(event)}>
      <h4 id="iam-saml-metadata" className={styles.legend}>
        {t('admin:saml.metadataTitle')}
      </h4>
      <p className={ui.hint}>{t('admin:saml.metadataHint')}</p>
      <TextAreaField
        label={t('admin:saml.metadataXml')}
        spellCheck={false}
        value={metadataXml}
        error={errors.metadataXml}
        onChange={(event) => setXml(event.currentTarget.value)}
      />
      <PlainTextField label={t('admin:saml.metadataUrl')} value={metadataUrl} error={errors.metadataUrl} onValue={setUrl} />
      {failure && (
        <p className={ui.formError} role="alert">
          {failure}
        </p>
      )}
      <div className={ui.actions}>
        <button type="submit" className={ui.button.secondary} disabled={busy}>
          {t('admin:saml.readMetadata')}
        </button>
      </div>
    </form>
  );
}
