// The console's default menu (the route table's, as when there is no global plan), as plan items
// the editor can start again from: "Reset to the default menu" on the global plan.
import type { MenuItem } from '../../../core/acl';
import type { PlanMenuItem } from '../../../core/api/menu-plans';
import { translate, type TextKey } from '../../../core/i18n';
import { Permission } from '../../../core/permission-codes';
import { buildMenu } from '../../../core/routes';

function toItems(entries: readonly MenuItem[]): PlanMenuItem[] {
  return entries.map((entry) => ({
    // The English name to edit; the Chinese console shows each screen's own Chinese name (itemName).
    name: translate('en', entry.name as TextKey),
    path: entry.path,
    ...(entry.icon ? { icon: entry.icon } : {}),
    ...(entry.children?.length ? { children: toItems(entry.children) } : {}),
  }));
}

/** Every entry of the route table's menu, as a platform administrator sees it without a plan. */
export function defaultConsoleMenu(): PlanMenuItem[] {
  return toItems(buildMenu({ permissions: Object.values(Permission) }));
}
