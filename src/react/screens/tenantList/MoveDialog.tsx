// Move a tenant (with its subtree) under another parent of my scope; its own subtree is not offered.
import { useState } from 'react';
import * as tenantApi from '../../../core/api/tenants';
import type { Tenant } from '../../../core/api/tenants';
import { notifySuccess } from '../../../core/messages';
import { DialogFrame } from '../../dialogs/DialogFrame';
import { useT } from '../../i18n';
import { SelectField } from '../../widgets/admin/AdminFields';
import { refusalOf } from '../../widgets/admin/serverErrors';
import { TenantOptions } from '../../widgets/admin/TenantFilter';
import * as ui from '../../widgets/ui.css';
import { tRule } from '../../../core/i18n';

export interface MoveDialogProps {
  tenant: Tenant;
  tenants: readonly Tenant[];
  onClose: () => void;
  onSaved: (tenant: Tenant) => void;
}

export default function MoveDialog({ tenant, tenants, onClose, onSaved }: MoveDialogProps) {
  const t = useT();
  const [parentId, setParentId] = useState(tenant.parentId ?? '');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();

  const move = async () => {
    setBusy(true);
    setFailure(undefined);
    try {
      onSaved(await tenantApi.move(tenant.id, parentId, tenant.version));
    } catch (error) {
      const refusal = refusalOf(error);
      setFailure(refusal.stale ? t('admin:tenant.stale') : refusal.fields[0] ? tRule(refusal.fields[0].message) : refusal.message);
      return;
    } finally {
      setBusy(false);
    }
    notifySuccess(t('admin:done.tenantMoved', { name: tenant.name }));
    onClose();
  };

  return (
    <DialogFrame open onOpenChange={(open) => !open && onClose()} title={t('admin:tenant.moveTitle', { name: tenant.name })} size="small">
      <div className={ui.form}>
        <SelectField label={t('admin:tenant.newParent')} value={parentId} onChange={(event) => setParentId(event.currentTarget.value)}>
          <TenantOptions tenants={tenants} exclude={tenant.id} />
        </SelectField>
        {failure && (
          <p className={ui.formError} role="alert">
            {failure}
          </p>
        )}
        <div className={ui.actions}>
          <button type="button" className={ui.button.secondary} onClick={onClose}>
            {t('console:action.cancel')}
          </button>
          <button type="button" className={ui.button.primary} disabled={busy || parentId === tenant.parentId} onClick={() => void move()}>
            {t('admin:tenant.move')}
          </button>
        </div>
      </div>
    </DialogFrame>
  );
}
