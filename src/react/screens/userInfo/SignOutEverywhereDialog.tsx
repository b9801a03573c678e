// "Sign out everywhere" for oneself, asked first: every console session and every app grant of the
// person end; this device's session too unless "Keep me signed in on this device" stays ticked
// (then the console goes to the sign-in page).
import { useState } from 'react';
import { signOutEverywhere } from '../../../core/api/account';
import { notifySuccess } from '../../../core/messages';
import { logout } from '../../../core/session';
import { DialogFrame } from '../../dialogs/DialogFrame';
import { useT } from '../../i18n';
import { CheckboxField } from '../../widgets/admin/AdminFields';
import * as ui from '../../widgets/ui.css';

export default function SignOutEverywhereDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const t = useT();
  const [keepCurrent, setKeepCurrent] = useState(true);
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    setBusy(true);
    try {
      const { revoked } = await signOutEverywhere(keepCurrent);
      notifySuccess(t('account:everywhere.done', { count: revoked }));
      if (!keepCurrent) {
        await logout();
        return;
      }
      onDone();
      onClose();
    } catch {
      // the HTTP client has shown why
    } finally {
      setBusy(false);
    }
  };

  return (
    <DialogFrame
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('account:everywhere.title')}
      description={t('account:everywhere.question')}
      size="small"
    >
      <CheckboxField label={t('account:everywhere.keepCurrent')} checked={keepCurrent} onChange={setKeepCurrent} />
      <div className={ui.actions}>
        <button type="button" className={ui.button.secondary} onClick={onClose}>
          {t('console:action.cancel')}
        </button>
        <button type="button" className={ui.button.danger} disabled={busy} onClick={() => void confirm()}>
          {t('account:everywhere.confirm')}
        </button>
      </div>
    </DialogFrame>
  );
}
