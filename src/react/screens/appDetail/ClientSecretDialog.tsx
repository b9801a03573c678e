// The app's new client secret, shown this once with a Copy button and a warning.
import { DialogFrame } from '../../dialogs/DialogFrame';
import { useT } from '../../i18n';
import * as ui from '../../widgets/ui.css';
import { SecretValue } from '../../widgets/SecretValue';

export default function ClientSecretDialog({ secret, onClose }: { secret: string; onClose: () => void }) {
  const t = useT();
  return (
    <DialogFrame open onOpenChange={(open) => !open && onClose()} title={t('admin:clientSecret.shownTitle')}>
      <SecretValue label={t('admin:clientSecret.secret')} value={secret} warning={t('admin:clientSecret.once')} />
      <div className={ui.actions}>
        <button type="button" className={ui.button.primary} onClick={onClose}>
          {t('admin:clientSecret.done')}
        </button>
      </div>
    </DialogFrame>
  );
}
