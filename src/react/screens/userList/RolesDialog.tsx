// The roles a user holds, per app: every app with its roles as checkboxes; saving writes the apps
// whose choice changed.
import { useEffect, useState } from 'react';
import { appRoles, setAppRoles, type AdminUser, type UserAppRoles } from '../../../core/api/user-admin';
import { notifySuccess } from '../../../core/messages';
import { DialogFrame } from '../../dialogs/DialogFrame';
import { useT } from '../../i18n';
import { CheckboxField } from '../../widgets/admin/AdminFields';
import * as styles from '../../widgets/admin/admin.css';
import * as ui from '../../widgets/ui.css';

const heldIn = (entry: UserAppRoles) => entry.roles.filter((role) => role.assigned).map((role) => role.id);
const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id) => b.includes(id));

export default function RolesDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const t = useT();
  const [apps, setApps] = useState<UserAppRoles[]>();
  const [chosen, setChosen] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    appRoles(user.id).then(
      (answer) => {
        if (!live) return;
        setApps(answer);
        setChosen(Object.fromEntries(answer.map((entry) => [entry.appId, heldIn(entry)])));
      },
      () => undefined, // shown by the HTTP client
    );
    return () => {
      live = false;
    };
  }, [user.id]);

  const toggle = (appId: string, roleId: string, on: boolean) =>
    setChosen((current) => ({ ...current, [appId]: on ? [...(current[appId] ?? []), roleId] : (current[appId] ?? []).filter((id) => id !== roleId) }));

  const save = async () => {
    const changed = (apps ?? []).filter((entry) => !sameSet(heldIn(entry), chosen[entry.appId] ?? []));
    setBusy(true);
    try {
      for (const entry of changed) await setAppRoles(user.id, entry.appId, chosen[entry.appId] ?? []);
    } catch {
      return; // shown by the HTTP client; the dialog stays open with the choice
    } finally {
      setBusy(false);
    }
    notifySuccess(t('admin:done.rolesSaved', { name: user.username }));
    onClose();
  };

  const withRoles = apps?.filter((entry) => entry.roles.length) ?? [];
  return (
    <DialogFrame open onOpenChange={(open) => !open && onClose()} title={t('admin:roles.title', { name: user.username })}>
      <div className={styles.stack}>
        {!apps && <p role="status">{t('console:loading')}</p>}
        {apps && !withRoles.length && <p className={ui.empty}>{t('admin:roles.none')}</p>}
        {withRoles.map((entry) => (
          <fieldset key={entry.appId} className={styles.checkGroup}>
            <legend className={styles.legend}>{entry.appName}</legend>
            {entry.roles.map((role) => (
              <CheckboxField
                key={role.id}
                label={role.name}
                checked={chosen[entry.appId]?.includes(role.id) ?? false}
                onChange={(on) => toggle(entry.appId, role.id, on)}
              />
            ))}
          </fieldset>
        ))}
        <div className={ui.actions}>
          <button type="button" className={ui.button.secondary} onClick={onClose}>
            {t('console:action.cancel')}
          </button>
          <button type="button" className={ui.button.primary} disabled={!apps || busy} onClick={() => void save()}>
            {t('console:action.save')}
          </button>
        </div>
      </div>
    </DialogFrame>
  );
}
