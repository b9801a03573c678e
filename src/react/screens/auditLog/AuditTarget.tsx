// An audit event's target: its kind and its name when recorded, linked to the screen that shows it
// (a person, a tenant, an app, a menu plan), or marked as deleted when the server says it is gone.
import { Link } from 'wouter';
import type { AuditEntry } from '../../../core/api/audit';
import { GLOBAL_MENU, planById } from '../../../core/api/menu-plans';
import { menuDetailPath, tenantAddress, userAddress } from '../../../core/routes';
import { useT } from '../../i18n';
import { useResource } from '../../widgets/useResource';
import * as ui from '../../widgets/ui.css';

/** Where a target's screen is, for the kinds of target whose id is the screen's address. */
const targetPaths: Record<string, (id: string) => string> = {
  user: userAddress,
  tenant: tenantAddress,
  app: (id) => `/app/detail/${encodeURIComponent(id)}`,
};

/** The menu plan screens are addressed by the plan's app (or the global menu), not by the plan's
 *  id the event names: one read of each plan a page of the log shows, shared by its rows. */
const planApps = new Map<string, Promise<string>>();
const planPath = (id: string) => {
  if (!planApps.has(id)) {
    const path = planById(id).then((found) => menuDetailPath(found.appId ?? GLOBAL_MENU));
    // A failed read is asked again by the next page that shows the plan.
    path.catch(() => planApps.delete(id));
    planApps.set(id, path);
  }
  return planApps.get(id)!;
};

function TargetLink({ type, id, name }: { type: string; id: string; name: string }) {
  const menu = useResource(() => (type === 'menu' ? planPath(id) : Promise.resolve(targetPaths[type]?.(id))), [type, id]);
  return menu.data ? (
    <Link href={menu.data} className={ui.link}>
      {name}
    </Link>
  ) : (
    <strong>{name}</strong>
  );
}

const TARGET_TYPES = {
  user: 1,
  tenant: 1,
  app: 1,
  role: 1,
  menu: 1,
  channel: 1,
  webhook: 1,
  privilege: 1,
  scim_token: 1,
  passkey: 1,
  settings: 1,
  session: 1,
  import: 1,
  idp: 1,
  file: 1,
  license: 1,
  message: 1,
} as const;
type TargetType = keyof typeof TARGET_TYPES;

/** "user alice", "tenant Sales (deleted)". */
export function AuditTarget({ entry }: { entry: AuditEntry }) {
  const t = useT();
  if (!entry.targetType) return <>—</>;
  const kind = entry.targetType in TARGET_TYPES ? t(`admin:audit.targetTypes.${entry.targetType as TargetType}`) : entry.targetType;
  const name = entry.targetName ?? entry.targetId ?? '';
  return (
    <span>
      {kind}{' '}
      {entry.targetId && !entry.targetGone ? (
        <TargetLink type={entry.targetType} id={entry.targetId} name={name} />
      ) : entry.targetGone ? (
        <strong>{t('admin:recordLinks.deleted', { name })}</strong>
      ) : (
        <strong>{name}</strong>
      )}
    </span>
  );
}
