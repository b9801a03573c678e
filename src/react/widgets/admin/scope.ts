// What the signed-in administrator may do, read from the session (user type, admin and master
// flags, administered apps), so screens hide what the server would refuse. The server decides.
import { useStore } from '../../store';
import { UserType } from '../../../core/enums';
import { $session } from '../../../core/session';
import { mayGrantAppRoles, permissionTable } from '../../../core/acl';
import { AclValue } from '../../../core/enums';

const holds = (permissions: readonly string[], code: string) =>
  permissionTable(permissions).some((entry) => entry.code === code && entry.flag === AclValue.True);

export interface AdminScope {
  userId?: string;
  /** Platform (or system) administrator: everything, everywhere. */
  platform: boolean;
  /** Tenant administrator: their tenant's subtree. */
  tenantAdmin: boolean;
  tenantId?: string;
  ownedAppIds: readonly string[];
  /** May assign app roles to people (platform, or administrator of some app). */
  grantsAppRoles: boolean;
  /** Holds permission code `code`, enabled. */
  may: (code: string) => boolean;
}

export function useAdminScope(): AdminScope {
  const user = useStore($session).user;
  const type = user?.extraProp.intProperty1;
  const platform = !!user && (type === UserType.Platform || type === UserType.System) && user.isAdmin && user.isMaster;
  const ownedAppIds = user?.ownedApps.map((app) => app.id) ?? [];
  return {
    userId: user?.id,
    platform,
    tenantAdmin: !!user && type === UserType.Tenant && user.isAdmin,
    tenantId: user?.tenantId,
    ownedAppIds,
    grantsAppRoles: mayGrantAppRoles({ platform, ownedAppIds }),
    may: (code) => holds(user?.permissions ?? [], code),
  };
}
