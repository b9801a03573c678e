// The app's administrators: platform administrators choose them; an app administrator sees them.
import { useCallback, useEffect, useState } from 'react';
import * as appApi from '../../../core/api/apps';
import { notifySuccess } from '../../../core/messages';
import { useT } from '../../i18n';
import { MemberPicker, type Person } from '../../widgets/admin/MemberPicker';
import { useAdminScope } from '../../widgets/admin/scope';
import * as ui from '../../widgets/ui.css';

export default function AdminsPanel({ appId }: { appId: string }) {
  const t = useT();
  const scope = useAdminScope();
  const [saved, setSaved] = useState<Person[]>();
  const [chosen, setChosen] = useState<Person[]>([]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    appApi.admins(appId).then(
      (found) => {
        if (!live) return;
        setSaved(found);
        setChosen(found);
      },
      () => undefined, // shown by the HTTP client
    );
    return () => {
      live = false;
    };
  }, [appId]);

  const search = useCallback((text: string) => appApi.lookupMembers(appId, text), [appId]);
  const save = async () => {
    setBusy(true);
    try {
      const answer = await appApi.setAdmins(
        appId,
        chosen.map((person) => person.id),
      );
      setSaved(answer);
      setChosen(answer);
    } catch {
      return;
    } finally {
      setBusy(false);
    }
    notifySuccess(t('admin:done.adminsSaved'));
  };

  if (!saved) return <p role="status">{t('console:loading')}</p>;
  const changed = saved.length !== chosen.length || saved.some((person) => !chosen.some((each) => each.id === person.id));
  return (
    <div className={ui.form}>
      <MemberPicker label={t('admin:app.admins')} members={chosen} onChange={setChosen} search={search} disabled={!scope.platform} />
      {scope.platform && (
        <div className={ui.actions}>
          <button type="button" className={ui.button.primary} disabled={!changed || busy} onClick={() => void save()}>
            {t('admin:app.saveAdmins')}
          </button>
        </div>
      )}
    </div>
  );
}
