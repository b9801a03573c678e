// The app's settings as a SAML service provider, saved together: entity ID, assertion consumer
// service URLs with their bindings (rows added and removed), Single Logout URL, NameID format, the
// SP's certificates, whether assertions are encrypted and what is signed (checked and sent by
// useSamlSave).
import { useState, type FormEvent } from 'react';
import type { SamlProviderAnswer, SamlProviderChanges } from '../../../core/api/saml';
import { ASSERTION_ENCRYPTIONS, MAX_ACS_URLS, NAME_ID_FORMATS, SAML_BINDINGS, SLO_BINDINGS, type NameIdFormat } from '../../../core/schemas/saml';
import { useT, useTRule } from '../../i18n';
import { CheckboxField, PlainTextField, SelectField, TextAreaField } from '../../widgets/admin/AdminFields';
import { SaveFooter } from '../../widgets/admin/SaveFooter';
import { useSamlSave } from './useSamlSave';
import * as ui from '../../widgets/ui.css';
import * as styles from './SamlPanel.css';

type Provider = NonNullable<SamlProviderAnswer['provider']>;
type Binding = (typeof SAML_BINDINGS)[number];
type SloBinding = (typeof SLO_BINDINGS)[number];
type AssertionEncryption = (typeof ASSERTION_ENCRYPTIONS)[number];

interface Draft {
  entityId: string;
  acsUrls: { url: string; binding: Binding }[];
  sloUrl: string;
  sloBinding: SloBinding;
  nameIdFormat: NameIdFormat;
  signingCert: string;
  encryptionCert: string;
  assertionEncryption: AssertionEncryption;
  encryptAssertions: boolean;
  wantRequestsSigned: boolean;
  signResponse: boolean;
  signAssertion: boolean;
}

const draftOf = (provider: Provider | null): Draft => ({
  entityId: provider?.entityId ?? '',
  acsUrls: provider?.acsUrls.length ? provider.acsUrls : [{ url: '', binding: 'HTTP-POST' }],
  sloUrl: provider?.sloUrl ?? '',
  sloBinding: provider?.sloBinding ?? 'HTTP-Redirect',
  nameIdFormat: provider?.nameIdFormat ?? 'email',
  signingCert: provider?.signingCert ?? '',
  encryptionCert: provider?.encryptionCert ?? '',
  assertionEncryption: provider?.assertionEncryption ?? 'aes256-gcm',
  encryptAssertions: provider?.encryptAssertions ?? false,
  wantRequestsSigned: provider?.wantRequestsSigned ?? false,
  signResponse: provider?.signResponse ?? true,
  signAssertion: provider?.signAssertion ?? true,
});

const bodyOf = (draft: Draft): SamlProviderChanges => ({
  ...draft,
  entityId: draft.entityId.trim(),
  acsUrls: draft.acsUrls.map(({ url, binding }) => ({ url: url.trim(), binding })),
  sloUrl: draft.sloUrl.trim(),
  signingCert: draft.signingCert.trim(),
  encryptionCert: draft.encryptionCert.trim(),
});

export function SamlProviderForm({ appId, provider, onSaved }: { appId: string; provider: Provider | null; onSaved: (answer: SamlProviderAnswer) => void }) {
  const t = useT();
  const tRule = useTRule();
  const [draft, setDraft] = useState(() => draftOf(provider));
  const { errors, failure, busy, save } = useSamlSave(appId, onSaved);
  const change = (changes: Partial<Draft>) => setDraft((current) => ({ ...current, ...changes }));
  const changeAcs = (index: number, changes: Partial<Draft['acsUrls'][number]>) =>
    change({ acsUrls: draft.acsUrls.map((row, at) => (at === index ? { ...row, ...changes } : row)) });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await save(bodyOf(draft), t('admin:saml.saved'));
  };

  return (
    <form className={ui.form} noValidate aria-labelledby="iam-saml-sp" onSubmit={(event) => void submit(event)}>
      <h4 id="iam-saml-sp" className={styles.legend}>
        {t('admin:saml.spTitle')}
      </h4>
      <PlainTextField
        label={t('admin:saml.entityId')}
        required
        hint={t('admin:saml.entityIdHint')}
        value={draft.entityId}
        error={errors.entityId}
        onValue={(value) => change({ entityId: value })}
      />
      <fieldset className={styles.group} aria-describedby={errors.acsUrls ? 'iam-saml-acs-error' : undefined}>
        <legend className={styles.legend}>{t('admin:saml.acsUrls')}</legend>
        {draft.acsUrls.map((row, index) => (
          <div key={index} className={styles.acsRow}>
            <div className={styles.acsUrl}>
              <PlainTextField
                label={t('admin:saml.acsUrl', { n: index + 1 })}
                required
                value={row.url}
                error={errors[`acsUrls.${index}.url`]}
                onValue={(url) => changeAcs(index, { url })}
              />
            </div>
            <SelectField
              label={t('admin:saml.acsBinding', { n: index + 1 })}
              value={row.binding}
              error={errors[`acsUrls.${index}.binding`]}
              onChange={(event) => changeAcs(index, { binding: event.currentTarget.value as Binding })}
            >
              {SAML_BINDINGS.map((binding) => (
                <option key={binding} value={binding}>
                  {binding}
                </option>
              ))}
            </SelectField>
            {draft.acsUrls.length > 1 && (
              <div className={ui.field}>
                <button
                  type="button"
                  className={ui.button.secondary}
                  aria-label={t('admin:saml.removeAcsNumbered', { n: index + 1 })}
                  onClick={() => change({ acsUrls: draft.acsUrls.filter((_, at) => at !== index) })}
                >
                  {t('admin:saml.removeAcs')}
                </button>
              </div>
            )}
          </div>
        ))}
        {errors.acsUrls && (
          <p id="iam-saml-acs-error" className={ui.fieldError}>
            {tRule(errors.acsUrls)}
          </p>
        )}
        {draft.acsUrls.length < MAX_ACS_URLS && (
          <button type="button" className={ui.button.secondary} onClick={() => change({ acsUrls: [...draft.acsUrls, { url: '', binding: 'HTTP-POST' }] })}>
            {t('admin:saml.addAcs')}
          </button>
        )}
        <p className={ui.hint}>{t('admin:saml.acsHint')}</p>
      </fieldset>
      <PlainTextField
        label={t('admin:saml.sloUrl')}
        hint={t('admin:saml.sloHint')}
        value={draft.sloUrl}
        error={errors.sloUrl}
        onValue={(value) => change({ sloUrl: value })}
      />
      <SelectField
        label={t('admin:saml.sloBinding')}
        value={draft.sloBinding}
        error={errors.sloBinding}
        hint={t(`admin:saml.sloBindingHint.${draft.sloBinding}`)}
        onChange={(event) => change({ sloBinding: event.currentTarget.value as SloBinding })}
      >
        {SLO_BINDINGS.map((binding) => (
          <option key={binding} value={binding}>
            {binding}
          </option>
        ))}
      </SelectField>
      <SelectField
        label={t('admin:saml.nameIdFormat')}
        value={draft.nameIdFormat}
        error={errors.nameIdFormat}
        hint={t(`admin:saml.nameIdHint.${draft.nameIdFormat}`)}
        onChange={(event) => change({ nameIdFormat: event.currentTarget.value as NameIdFormat })}
      >
        {NAME_ID_FORMATS.map((format) => (
          <option key={format} value={format}>
            {t(`admin:saml.nameId.${format}`)}
          </option>
        ))}
      </SelectField>
      <TextAreaField
        label={t('admin:saml.signingCert')}
        spellCheck={false}
        hint={t('admin:saml.signingCertHint')}
        value={draft.signingCert}
        error={errors.signingCert}
        onChange={(event) => change({ signingCert: event.currentTarget.value })}
      />
      <TextAreaField
        label={t('admin:saml.encryptionCert')}
        spellCheck={false}
        hint={t('admin:saml.encryptionCertHint')}
        value={draft.encryptionCert}
        error={errors.encryptionCert}
        onChange={(event) => change({ encryptionCert: event.currentTarget.value })}
      />
      <div className={ui.field}>
        <CheckboxField
          label={t('admin:saml.encryptAssertions')}
          checked={draft.encryptAssertions}
          onChange={(encryptAssertions) => change({ encryptAssertions })}
        />
        <p className={ui.hint}>{t('admin:saml.encryptAssertionsHint')}</p>
      </div>
      {draft.encryptAssertions && (
        <SelectField
          label={t('admin:saml.assertionEncryption')}
          value={draft.assertionEncryption}
          error={errors.assertionEncryption}
          hint={t(`admin:saml.assertionEncryptionHint.${draft.assertionEncryption}`)}
          onChange={(event) => change({ assertionEncryption: event.currentTarget.value as AssertionEncryption })}
        >
          {ASSERTION_ENCRYPTIONS.map((algorithm) => (
            <option key={algorithm} value={algorithm}>
              {t(`admin:saml.encryptionAlgorithm.${algorithm}`)}
            </option>
          ))}
        </SelectField>
      )}
      <div className={ui.field}>
        <CheckboxField
          label={t('admin:saml.wantRequestsSigned')}
          checked={draft.wantRequestsSigned}
          onChange={(wantRequestsSigned) => change({ wantRequestsSigned })}
        />
        <CheckboxField label={t('admin:saml.signResponse')} checked={draft.signResponse} onChange={(signResponse) => change({ signResponse })} />
        <CheckboxField label={t('admin:saml.signAssertion')} checked={draft.signAssertion} onChange={(signAssertion) => change({ signAssertion })} />
        {(errors.signAssertion ?? errors.signResponse) && <p className={ui.fieldError}>{tRule(errors.signAssertion ?? errors.signResponse ?? '')}</p>}
        <p className={ui.hint}>{t('admin:saml.signingHint')}</p>
      </div>
      <SaveFooter failure={failure} busy={busy} />
    </form>
  );
}
