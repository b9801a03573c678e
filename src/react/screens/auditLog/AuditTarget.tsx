// An audit event's target: its kind and its name when recorded, linked to the screen that shows it
// (a person, a tenant, an app, a menu plan), or marked as deleted when the server says it is gone.
import { Link } from 'wouter';
import type { AuditEntry } from '../../../core/api/audit';
import { tenantAddress, userAddress } from '../../../core/routes';
import { useT } from '../../i18n';
import * as ui from '../../widgets/ui.css';

/** Where a target's screen is, for the kinds of target that have one. */
const targetPaths: Record<string, (id: string) => string> = {
  user: userAddress,
  tenant: tenantAddress,
  app: (id) => `/app/detail/${encodeURIComponent(id)}`,
  menu: (id) => `/menu/detail/${encodeURIComponent(id)}`,
};

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
  const path = entry.targetId && !entry.targetGone ? targetPaths[entry.targetType]?.(entry.targetId) : undefined;
  return (
    <span>
      {kind}{' '}
      {path ? (
        <Link href={path} className={ui.link}>
          {name}
        </Link>
      ) : entry.targetGone ? (
        <strong>{t('admin:recordLinks.deleted', { name })}</strong>
      ) : (
        <strong>{name}</strong>
      )}
    </span>
  );
}
