// Branding / system config (operate/setting, second tab): app name, logos, brand images for both
// themes, favicon, login page logo and sign, copyright, top menu type and third-party sign-in,
// saved with PUT /config and applied at once through the core's config store (title, logo block,
// sign-in page) and the page's favicon link.
import * as v from 'valibot';
import { useForm } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import * as api from '../../../core/api/settings';
import type { IamConfig } from '../../../core/config';
import { setConfig } from '../../../core/config-store';
import { TopMenuType } from '../../../core/enums';
import { systemConfig } from '../../../core/schemas/settings';
import type { UploadPurpose } from '../../../core/upload';
import { useConsole } from '../../app/context';
import { useT } from '../../i18n';
import { TextField } from '../../widgets/TextFields';
import { ImageUpload } from '../../widgets/ImageUpload';
import * as ui from '../../widgets/ui.css';
import { CheckboxField, SelectField } from '../../widgets/admin/AdminFields';
import { Section } from './Section';
import { applyFavicon } from './favicon';
import { SaveBar } from './SaveBar';
import * as styles from './settings.css';
import { useVersionedSave } from './versionedSave';

type Branding = v.InferInput<typeof systemConfig>;

const toForm = (config: IamConfig): Branding => ({ favicon: '', ...config.system });

const images: { name: 'appLogo' | 'appBrandImage' | 'appBrandImageLight' | 'favicon' | 'loginLogoPath'; purpose: UploadPurpose }[] = [
  { name: 'appLogo', purpose: 'icon' },
  { name: 'appBrandImage', purpose: 'icon' },
  { name: 'appBrandImageLight', purpose: 'icon' },
  { name: 'favicon', purpose: 'favicon' },
  { name: 'loginLogoPath', purpose: 'icon' },
];

export function BrandingForm({ initial }: { initial: api.Versioned<IamConfig> }) {
  const t = useT();
  const { routing } = useConsole();
  const form = useForm<Branding>({ resolver: valibotResolver(systemConfig), defaultValues: toForm(initial.value) });
  const { register, watch, setValue, formState } = form;
  const { errors } = formState;
  const { submit, stale, reloadLatest } = useVersionedSave(
    form,
    initial,
    toForm,
    (values, version) => api.saveConfig({ system: values }, version),
    api.config,
    (saved) => {
      setConfig(saved);
      if (routing === 'history') applyFavicon(toForm(saved).favicon ?? '');
    },
  );

  return (
    <form className={ui.form} noValidate onSubmit={(event) => void submit(event)} aria-label={t('settings:tab.branding')}>
      <Section title={t('settings:branding.identity')}>
        <TextField label={t('settings:branding.appName')} required error={errors.appName?.message} registration={register('appName')} />
        <TextField label={t('settings:branding.copyright')} error={errors.copyright?.message} registration={register('copyright')} />
        <TextField label={t('settings:branding.loginSign')} error={errors.loginSign?.message} registration={register('loginSign')} />
        <SelectField label={t('settings:branding.topMenuType')} error={errors.topMenuType?.message} registration={register('topMenuType')}>
          {Object.values(TopMenuType).map((value) => (
            <option key={value} value={value}>
              {t(`settings:topMenuType.${value}`)}
            </option>
          ))}
        </SelectField>
        <div className={styles.wide}>
          <CheckboxField
            label={t('settings:branding.supportThirdLogin')}
            checked={watch('supportThirdLogin') === 'Y'}
            onChange={(checked) => setValue('supportThirdLogin', checked ? 'Y' : 'N', { shouldDirty: true })}
          />
          <p className={ui.hint}>{t('settings:branding.supportThirdLoginHint')}</p>
        </div>
      </Section>

      <Section title={t('settings:branding.images')} description={t('settings:branding.imagesText')} wide>
        {images.map(({ name, purpose }) => (
          <ImageUpload
            key={name}
            label={t(`settings:branding.${name}`)}
            purpose={purpose}
            hint={t(purpose === 'favicon' ? 'settings:branding.faviconHint' : 'settings:branding.iconHint')}
            value={watch(name) ?? ''}
            onChange={(url) => setValue(name, url, { shouldDirty: true })}
          />
        ))}
      </Section>

      <SaveBar stale={stale} busy={formState.isSubmitting} onReload={() => void reloadLatest()} />
    </form>
  );
}
