// A new SCIM token, shown this once: the tenant URL and the secret to paste into the identity
// provider's provisioning settings, each with a Copy button.
import type { ScimTokenCreated } from '../../../core/api/scim-tokens';
import { DialogFrame } from '../../dialogs/DialogFrame';
import { useT } from '../../i18n';
import { SecretValue } from '../../widgets/SecretValue';
import * as ui from '../../widgets/ui.css';
import { details } from '../../widgets/admin/admin.css';

export default function CreatedDialog({ created, onClose }: { created: ScimTokenCreated; onClose: () => void }) {
  const t = useT();
  return (
    <DialogFrame open onOpenChange={(open) => !open && onClose()} title={t('admin:scim.shownTitle')}>
      <dl className={`${ui.field} ${details}`}>
        <dt className={ui.label}>{t('admin:scim.endpoint')}</dt>
        <dd>
          <code>{created.endpoint}</code>
        </dd>
      </dl>
      <SecretValue label={t('admin:scim.secret')} value={created.secret} warning={t('admin:scim.once')} />
      <div className={ui.actions}>
        <button type="button" className={ui.button.primary} onClick={onClose}>
          {t('admin:scim.done')}
        </button>
      </div>
    </DialogFrame>
  );
}
