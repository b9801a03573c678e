// A question with Cancel and OK (e.g. 'Are you sure to logout?').
import { useState } from 'react';
import { useT } from '../i18n';
import * as ui from '../widgets/ui.css';
import { DialogFrame } from './DialogFrame';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  question: string;
  confirmLabel?: string;
  onConfirm: () => Promise<void> | void;
}

export default function ConfirmDialog({ open, onOpenChange, title, question, confirmLabel, onConfirm }: ConfirmDialogProps) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
      onOpenChange(false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <DialogFrame open={open} onOpenChange={onOpenChange} title={title} description={question} size="small">
      <div className={ui.actions}>
        <button type="button" className={ui.button.secondary} onClick={() => onOpenChange(false)}>
          {t('console:action.cancel')}
        </button>
        <button type="button" className={ui.button.primary} disabled={busy} onClick={() => void confirm()} part="primary-button">
          {confirmLabel ?? t('console:action.confirm')}
        </button>
      </div>
    </DialogFrame>
  );
}
