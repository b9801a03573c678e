// Add or edit an OpenID Connect identity provider: code (on add only), button label, issuer, client
// id, client secret (write-only: a stored one shows empty, "Unchanged", and is kept unless retyped),
// scopes, enabled and the button's icon.
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import * as v from 'valibot';
import * as idps from '../../../core/api/idps';
import { notifySuccess } from '../../../core/messages';
import { idpConfig } from '../../../core/schemas/idp';
import { rules } from '../../../core/validation';
import { DialogFrame } from '../../dialogs/DialogFrame';
import { useT } from '../../i18n';
import { ImageUpload } from '../../widgets/ImageUpload';
import { PasswordField, TextField } from '../../widgets/TextFields';
import { CheckboxField } from '../../widgets/admin/AdminFields';
import { SaveFooter } from '../../widgets/admin/SaveFooter';
import { refusalOf } from '../../widgets/admin/serverErrors';
import * as table from '../../widgets/admin/admin.css';
import * as ui from '../../widgets/ui.css';

const { issuer, clientId, clientSecret, scopes } = idpConfig.entries;
const schema = v.object({
  code: rules.safeCode,
  name: rules.resourceName,
  issuer: issuer.wrapped,
  clientId: v.pipe(rules.required, clientId.wrapped),
  clientSecret: clientSecret.wrapped,
  scopes: scopes.wrapped,
  enabled: v.boolean(),
  icon: v.string(),
});
type Values = v.InferInput<typeof schema>;
const fields: readonly string[] = Object.keys(schema.entries);

const valuesOf = (provider: idps.IdpDetail | undefined): Values => ({
  code: provider?.code ?? '',
  name: provider?.name ?? '',
  issuer: provider?.issuer ?? '',
  clientId: provider?.clientId ?? '',
  clientSecret: '',
  scopes: provider?.scopes ?? 'openid profile email',
  enabled: provider?.enabled ?? true,
  icon: provider?.icon ?? '',
});

export interface IdpDialogProps {
  /** The provider edited; absent: a new one. */
  provider?: idps.IdpDetail;
  onClose: () => void;
  onSaved: () => void;
}

export default function IdpDialog({ provider, onClose, onSaved }: IdpDialogProps) {
  const t = useT();
  const [failure, setFailure] = useState<string>();
  const { register, handleSubmit, setError, setValue, watch, formState } = useForm<Values>({
    resolver: valibotResolver(schema),
    defaultValues: valuesOf(provider),
  });
  const { errors, isSubmitting } = formState;
  const secretKept = provider?.hasClientSecret === true;

  const onSubmit = handleSubmit(async ({ code, name, enabled, icon, ...config }) => {
    setFailure(undefined);
    try {
      if (provider) await idps.update(provider.code, { name, enabled, icon, config });
      else await idps.create({ code, name, type: 'OIDC', enabled, icon, config });
    } catch (error) {
      const refusal = refusalOf(error);
      // The server names the settings config.<name>: the form has them at the top level.
      refusal.fields.forEach(({ field, message }) => {
        const name = field.replace(/^config\./, '');
        if (fields.includes(name)) setError(name as keyof Values, { type: 'server', message });
      });
      setFailure(refusal.message);
      return;
    }
    notifySuccess(t('settings:done.idpSaved', { name }));
    onSaved();
    onClose();
  });

  return (
    <DialogFrame open onOpenChange={(open) => !open && onClose()} title={t(provider ? 'settings:idp.edit' : 'settings:idp.create')}>
      <form className={ui.form} noValidate onSubmit={(event) => void onSubmit(event)}>
        <div className={table.formGrid}>
          <TextField
            label={t('settings:idp.code')}
            required
            readOnly={!!provider}
            hint={provider ? undefined : t('settings:idp.codeHint')}
            autoComplete="off"
            error={errors.code?.message}
            registration={register('code')}
          />
          <TextField
            label={t('settings:idp.name')}
            required
            hint={t('settings:idp.nameHint')}
            autoComplete="off"
            error={errors.name?.message}
            registration={register('name')}
          />
          <div className={table.full}>
            <TextField
              label={t('settings:idp.issuer')}
              required
              type="url"
              hint={t('settings:idp.issuerHint')}
              autoComplete="off"
              error={errors.issuer?.message}
              registration={register('issuer')}
            />
          </div>
          <TextField label={t('settings:idp.clientId')} required autoComplete="off" error={errors.clientId?.message} registration={register('clientId')} />
          <PasswordField
            label={t('settings:idp.clientSecret')}
            autoComplete="new-password"
            placeholder={secretKept ? t('settings:idp.secretUnchanged') : undefined}
            hint={secretKept ? t('settings:idp.secretKept') : undefined}
            error={errors.clientSecret?.message}
            registration={register('clientSecret')}
          />
          <div className={table.full}>
            <TextField
              label={t('settings:idp.scopes')}
              hint={t('settings:idp.scopesHint')}
              autoComplete="off"
              spellCheck={false}
              error={errors.scopes?.message}
              registration={register('scopes')}
            />
          </div>
          <div className={table.full}>
            <CheckboxField
              label={t('settings:idp.enabled')}
              checked={watch('enabled')}
              onChange={(checked) => setValue('enabled', checked, { shouldDirty: true })}
            />
          </div>
          <div className={table.full}>
            <ImageUpload
              label={t('settings:idp.icon')}
              purpose="icon"
              hint={t('upload.iconType')}
              value={watch('icon')}
              onChange={(url) => setValue('icon', url, { shouldDirty: true })}
            />
          </div>
        </div>
        <SaveFooter failure={failure} busy={isSubmitting} onCancel={onClose} />
      </form>
    </DialogFrame>
  );
}
