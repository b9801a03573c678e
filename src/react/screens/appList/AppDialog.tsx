// A new app, in a dialog (platform administrators).
import type { App } from '../../../core/api/apps';
import { DialogFrame } from '../../dialogs/DialogFrame';
import { useT } from '../../i18n';
import { AppForm } from '../../widgets/admin/AppForm';

export default function AppDialog({ onClose, onSaved }: { onClose: () => void; onSaved: (app: App) => void }) {
  const t = useT();
  return (
    <DialogFrame open onOpenChange={(open) => !open && onClose()} title={t('admin:app.createTitle')}>
      <AppForm
        onCancel={onClose}
        onSaved={(app) => {
          onSaved(app);
          onClose();
        }}
      />
    </DialogFrame>
  );
}
