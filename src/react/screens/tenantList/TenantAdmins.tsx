// A tenant's administrators: its own users with the admin flag, chosen from that tenant's users.
import { useCallback, useEffect, useState } from 'react';
import * as tenantApi from '../../../core/api/tenants';
import type { Tenant } from '../../../core/api/tenants';
import { listUsers } from '../../../core/api/user-admin';
import { notifySuccess } from '../../../core/messages';
import { useT } from '../../i18n';
import { MemberPicker, type Person } from '../../widgets/admin/MemberPicker';
import * as ui from '../../widgets/ui.css';

export function TenantAdmins({ tenant }: { tenant: Tenant }) {
  const t = useT();
  const [admins, setAdmins] = useState<Person[]>();
  const [chosen, setChosen] = useState<Person[]>([]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    tenantApi.admins(tenant.id).then(
      (found) => {
        if (!live) return;
        setAdmins(found);
        setChosen(found);
      },
      () => undefined, // shown by the HTTP client
    );
    return () => {
      live = false;
    };
  }, [tenant.id]);

  const search = useCallback(
    async (text: string) => (await listUsers({ tenantId: tenant.id, tenantMatch: 'exact', searchProp: 'username', searchValue: text, size: 20 })).list,
    [tenant.id],
  );

  const save = async () => {
    setBusy(true);
    try {
      const saved = await tenantApi.setAdmins(
        tenant.id,
        chosen.map((person) => person.id),
      );
      setAdmins(saved);
      setChosen(saved);
    } catch {
      return; // shown by the HTTP client
    } finally {
      setBusy(false);
    }
    notifySuccess(t('admin:done.adminsSaved'));
  };

  const changed = !!admins && (admins.length !== chosen.length || admins.some((admin) => !chosen.some((person) => person.id === admin.id)));
  return (
    <section className={ui.card} aria-labelledby="iam-tenant-admins">
      <div className={ui.cardHeader}>
        <h2 id="iam-tenant-admins" className={ui.cardTitle}>
          {t('admin:tenant.admins')}
        </h2>
        <button type="button" className={ui.button.primary} disabled={!changed || busy} onClick={() => void save()}>
          {t('admin:tenant.saveAdmins')}
        </button>
      </div>
      {admins ? (
        <MemberPicker label={t('admin:tenant.admins')} members={chosen} onChange={setChosen} search={search} />
      ) : (
        <p role="status">{t('console:loading')}</p>
      )}
    </section>
  );
}
