// The menu the signed-in person may see: the core's buildMenu over the route table, filtered by
// their permissions (the ACL switch applies), the configuration's allow/deny rules and the feature
// blacklist the session carries (the configuration's moduleConfig.featureBlacklist). When a global menu plan exists, it orders,
// names and decorates those entries (the core's consoleMenu); without one the route table does.
import { useCallback, useMemo } from 'react';
import { useStore } from '../store';
import type { MenuItem } from '../../core/acl';
import { consoleMenu, type PlanMenuItem } from '../../core/api/menu-plans';
import { $config } from '../../core/config-store';
import { buildMenu } from '../../core/routes';
import { $session } from '../../core/session';
import { useLocale } from '../i18n';
import { globalPlanItems, usePortalMenus } from './portalApps';

/** The side menu of someone holding `permissions` under a global plan's `plan` items (as the server
 *  answers them for that person), in this console's configuration and locale. The menu-plan editor's
 *  preview asks it for each kind of person before a plan is saved. */
export function useMenuOf(): (permissions: readonly string[], plan: readonly PlanMenuItem[] | undefined, featureBlacklist?: readonly string[]) => MenuItem[] {
  const { settings } = useStore($config);
  const locale = useLocale();
  const { aclSwitch } = settings.business;
  const { allow, deny } = settings.menuConfig;
  return useCallback(
    (permissions, plan, featureBlacklist = []) => {
      const permitted = buildMenu({ permissions, aclSwitch }, { allow, deny, featureBlacklist });
      return plan?.length ? consoleMenu(plan, permitted, locale) : permitted;
    },
    [aclSwitch, allow, deny, locale],
  );
}

export function useMenu(): MenuItem[] {
  const user = useStore($session).user;
  const plan = globalPlanItems(usePortalMenus());
  const menuOf = useMenuOf();
  return useMemo(() => menuOf(user?.permissions ?? [], plan, user?.featureBlacklist), [menuOf, user?.permissions, user?.featureBlacklist, plan]);
}
