// The menu the signed-in person may see: the core's buildMenu over the route table, filtered by
// their permissions (the ACL switch applies), the configuration's allow/deny rules and the feature
// blacklist the session carries (the configuration's moduleConfig.featureBlacklist). When a global menu plan exists, it orders,
// names and decorates those entries (the core's consoleMenu); without one the route table does.
import { useMemo } from 'react';
import { useStore } from '../store';
import type { MenuItem } from '../../core/acl';
import { consoleMenu } from '../../core/api/menu-plans';
import { $config } from '../../core/config-store';
import { buildMenu } from '../../core/routes';
import { $session } from '../../core/session';
import { globalPlanItems, usePortalMenus } from './portalApps';

export function useMenu(): MenuItem[] {
  const user = useStore($session).user;
  const { settings } = useStore($config);
  const permissions = user?.permissions;
  const featureBlacklist = user?.featureBlacklist;
  const { aclSwitch } = settings.business;
  const { allow, deny } = settings.menuConfig;
  const plan = globalPlanItems(usePortalMenus());
  return useMemo(() => {
    const permitted = buildMenu({ permissions: permissions ?? [], aclSwitch }, { allow, deny, featureBlacklist: featureBlacklist ?? [] });
    return plan?.length ? consoleMenu(plan, permitted) : permitted;
  }, [permissions, aclSwitch, allow, deny, featureBlacklist, plan]);
}
