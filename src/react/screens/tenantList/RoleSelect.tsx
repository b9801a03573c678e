// The role a directory group maps to, chosen by name: the roles the administrator may grant, grouped
// by app, narrowed by the text of the "Find a role" field above the mapping (a native select: arrows,
// Home/End and type-ahead work as everywhere). A stored role this list does not hold stays chosen,
// named by its id, so saving never drops it silently.
import { SelectField } from '../../widgets/admin/AdminFields';
import type { UserAppRoles } from '../../../core/api/user-admin';
import { useT } from '../../i18n';

export function RoleSelect({
  label,
  apps,
  filter,
  value,
  onValue,
  error,
}: {
  label: string;
  apps: readonly UserAppRoles[];
  filter: string;
  value: string;
  onValue: (roleId: string) => void;
  error?: string;
}) {
  const t = useT();
  const wanted = filter.trim().toLowerCase();
  const matches = (appName: string, roleName: string) => !wanted || `${appName} ${roleName}`.toLowerCase().includes(wanted);
  const known = apps.some((app) => app.roles.some((role) => role.id === value));
  return (
    <SelectField label={label} required aria-required value={value} error={error} onChange={(event) => onValue(event.currentTarget.value)}>
      <option value="">{t('admin:roleChoice.choose')}</option>
      {value && !known && <option value={value}>{t('admin:roleChoice.unknown', { id: value })}</option>}
      {apps.map((app) => {
        const roles = app.roles.filter((role) => role.id === value || matches(app.appName, role.name));
        return (
          roles.length > 0 && (
            <optgroup key={app.appId} label={app.appName}>
              {roles.map((role) => (
                <option key={role.id} value={role.id}>
                  {t('admin:roleChoice.option', { app: app.appName, role: role.name })}
                </option>
              ))}
            </optgroup>
          )
        );
      })}
    </SelectField>
  );
}
