// Login management (operate/setting, first tab): login method, second step (and whether
// administrators must use a strong second factor), captcha, lockout,
// password policy, session timeouts, the field rules of names, usernames and phone numbers and
// the sign-in page background, saved with
// PUT /settings/login. The server and the sign-in page follow a save at once.
import { useForm } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import * as api from '../../../core/api/settings';
import { BackgroundType, CaptchaKind, LoginMethod, SecondAuth } from '../../../core/enums';
import { loginSettings, type LoginSettings } from '../../../core/schemas/settings';
import { fieldRulesModes } from '../../../core/validation/field-rules-modes';
import { fieldRulesSaved } from '../../widgets/useFieldRules';
import { useT, useTexts } from '../../i18n';
import { TextField } from '../../widgets/TextFields';
import { ImageUpload } from '../../widgets/ImageUpload';
import * as ui from '../../widgets/ui.css';
import { CheckboxField, SelectField, TextAreaField } from '../../widgets/admin/AdminFields';
import { Section } from './Section';
import { SaveBar } from './SaveBar';
import * as styles from './settings.css';
import { useVersionedSave } from './versionedSave';

/** Second authentication: PASSWORD is the password alone (no second step); PHONE_CAPTCHA adds a
 *  code; TOTP the authenticator app's code (saving it needs the administrator's own app: the
 *  server says so under the field). Their labels are in the `login` namespace. */
const secondAuths = Object.values(SecondAuth);

const toForm = (settings: LoginSettings): LoginSettings => ({ ...settings, background: settings.background ?? '' });

export function SignInPolicyForm({ initial }: { initial: api.Versioned<LoginSettings> }) {
  const t = useT();
  const loginTexts = useTexts(undefined, 'login');
  const form = useForm<LoginSettings>({ resolver: valibotResolver(loginSettings), defaultValues: toForm(initial.value) });
  const { register, watch, setValue, formState } = form;
  const { errors } = formState;
  const { submit, stale, reloadLatest } = useVersionedSave(
    form,
    initial,
    toForm,
    async (values, version) => {
      const saved = await api.saveLoginSettings(values, version);
      fieldRulesSaved(saved.value.fieldRules);
      return saved;
    },
    api.loginSettings,
  );

  const number = (name: Parameters<typeof register>[0]) => register(name, { valueAsNumber: true });
  const backgroundType = watch('backgroundType');
  const options = <V extends string>(values: readonly V[], label: (value: V) => string) =>
    values.map((value) => (
      <option key={value} value={value}>
        {label(value)}
      </option>
    ));

  return (
    <form className={ui.form} noValidate onSubmit={(event) => void submit(event)} aria-label={t('settings:tab.signIn')}>
      <Section title={t('settings:signIn.methods')}>
        <SelectField label={t('settings:signIn.loginMethod')} error={errors.loginMethod?.message} registration={register('loginMethod')}>
          {options(Object.values(LoginMethod), (value) => t(`settings:loginMethod.${value}`))}
        </SelectField>
        <SelectField
          label={t('settings:signIn.secondAuth')}
          hint={t('settings:signIn.secondAuthHint')}
          error={errors.secondAuth?.message}
          registration={register('secondAuth', { setValueAs: (value: string | null) => value || null })}
        >
          {/* The form keeps null for "password only": its option's value is ''. */}
          {secondAuths.map((value) => (
            <option key={value} value={value === SecondAuth.PASSWORD ? '' : value}>
              {loginTexts ? t(`login:secondAuth.${value}`) : value}
            </option>
          ))}
        </SelectField>
        <div className={styles.checkCell}>
          <CheckboxField label={t('settings:signIn.adminStrongFactor')} registration={register('adminStrongFactor')} />
          <p className={ui.hint}>{t('settings:signIn.adminStrongFactorHint')}</p>
        </div>
      </Section>

      <Section title={t('settings:signIn.captcha')} description={t('settings:signIn.captchaText')}>
        <div className={styles.checkCell}>
          <CheckboxField label={t('settings:signIn.captchaEnabled')} registration={register('captchaEnabled')} />
        </div>
        <TextField
          label={t('settings:signIn.captchaAfterFailures')}
          type="number"
          min={0}
          max={100}
          hint={t('settings:signIn.captchaAfterFailuresHint')}
          error={errors.captchaAfterFailures?.message}
          registration={number('captchaAfterFailures')}
        />
        <SelectField label={t('settings:signIn.captchaKind')} error={errors.captchaKind?.message} registration={register('captchaKind')}>
          {options(Object.values(CaptchaKind), (value) => t(`settings:captchaKind.${value}`))}
        </SelectField>
        <TextField
          label={t('settings:signIn.captchaLength')}
          type="number"
          min={4}
          max={8}
          error={errors.captchaLength?.message}
          registration={number('captchaLength')}
        />
      </Section>

      <Section title={t('settings:signIn.lockout')}>
        <TextField
          label={t('settings:signIn.maxFailures')}
          type="number"
          min={1}
          max={100}
          error={errors.maxFailures?.message}
          registration={number('maxFailures')}
        />
        <TextField
          label={t('settings:signIn.lockMinutes')}
          type="number"
          min={1}
          max={1440}
          error={errors.lockMinutes?.message}
          registration={number('lockMinutes')}
        />
      </Section>

      <Section title={t('settings:signIn.passwordPolicy')} description={t('settings:signIn.passwordPolicyText')}>
        <TextField
          label={t('settings:signIn.minLength')}
          type="number"
          min={6}
          max={20}
          error={errors.passwordPolicy?.minLength?.message}
          registration={number('passwordPolicy.minLength')}
        />
        <TextField
          label={t('settings:signIn.maxLength')}
          type="number"
          min={6}
          max={20}
          error={errors.passwordPolicy?.maxLength?.message}
          registration={number('passwordPolicy.maxLength')}
        />
        <TextField
          label={t('settings:signIn.history')}
          type="number"
          min={0}
          max={24}
          hint={t('settings:signIn.historyHint')}
          error={errors.passwordPolicy?.history?.message}
          registration={number('passwordPolicy.history')}
        />
        <TextField
          label={t('settings:signIn.expiryDays')}
          type="number"
          min={0}
          max={3650}
          hint={t('settings:signIn.expiryDaysHint')}
          error={errors.passwordPolicy?.expiryDays?.message}
          registration={number('passwordPolicy.expiryDays')}
        />
        <div className={styles.checkRow}>
          <CheckboxField label={t('settings:signIn.requireUppercase')} registration={register('passwordPolicy.requireUppercase')} />
          <CheckboxField label={t('settings:signIn.requireLowercase')} registration={register('passwordPolicy.requireLowercase')} />
          <CheckboxField label={t('settings:signIn.requireSymbol')} registration={register('passwordPolicy.requireSymbol')} />
        </div>
      </Section>

      <Section title={t('settings:signIn.sessions')}>
        <TextField
          label={t('settings:signIn.sessionIdleMinutes')}
          type="number"
          min={1}
          max={10080}
          error={errors.sessionIdleMinutes?.message}
          registration={number('sessionIdleMinutes')}
        />
        <TextField
          label={t('settings:signIn.sessionAbsoluteHours')}
          type="number"
          min={1}
          max={720}
          error={errors.sessionAbsoluteHours?.message}
          registration={number('sessionAbsoluteHours')}
        />
      </Section>

      <Section title={t('settings:signIn.fieldRules')} description={t('settings:signIn.fieldRulesText')}>
        <SelectField label={t('settings:signIn.fieldRulesMode')} error={errors.fieldRules?.message} registration={register('fieldRules')}>
          {options(fieldRulesModes, (value) => t(`settings:fieldRules.${value}`))}
        </SelectField>
      </Section>

      <Section title={t('settings:signIn.background')}>
        <SelectField label={t('settings:signIn.backgroundType')} error={errors.backgroundType?.message} registration={register('backgroundType')}>
          {options(Object.values(BackgroundType), (value) => t(`settings:backgroundType.${value}`))}
        </SelectField>
        {backgroundType === BackgroundType.SolidColorBackground && (
          <TextField
            label={t('settings:signIn.backgroundColor')}
            type="color"
            className={styles.colorInput}
            error={errors.background?.message}
            registration={register('background')}
          />
        )}
        {backgroundType === BackgroundType.PictureBackground && (
          <div className={styles.wide}>
            <ImageUpload
              label={t('settings:signIn.backgroundPicture')}
              purpose="image"
              value={watch('background') ?? ''}
              onChange={(url) => setValue('background', url, { shouldDirty: true })}
            />
          </div>
        )}
        {backgroundType === BackgroundType.CustomCss && (
          <div className={styles.wide}>
            <TextAreaField
              label={t('settings:signIn.backgroundCss')}
              hint={t('settings:signIn.backgroundCssHint')}
              spellCheck={false}
              error={errors.background?.message}
              registration={register('background')}
            />
          </div>
        )}
      </Section>

      <SaveBar stale={stale} busy={formState.isSubmitting} onReload={() => void reloadLatest()} />
    </form>
  );
}
