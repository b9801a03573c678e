// The administration screens a global menu plan can never take away. The global plan orders, names
// and decorates the console's side menu (src/core/api/menu-plans.ts consoleMenu), but who may open
// an administration screen is decided by permission codes alone (src/core/acl.ts): a plan that left
// the menu-plan screen out, or bound it to a privilege, would lock every administrator out of the
// way back. So the menu a viewer reads (server/services/menu-plans.ts visibleMenus) and the
// editor's preview both pass the global plan through `withAdministration`; the console's ACL then
// shows each screen only to those whose codes open it, as without a plan.
import type { PlanMenuItem } from './schemas/menu-plans';
import type { TextKey } from './i18n/resources';
import { Permission } from './permission-codes';

interface MenuEntry {
  path: string;
  /** The route's text key (translated where the menu is drawn, see nameText in src/core/i18n). */
  name: TextKey;
  icon: string;
}

interface AdministrationScreen extends MenuEntry {
  /** The permission codes that open it (Operations opens /operate/…; routes.ts `alsoNeeds` adds one). */
  codes: readonly Permission[];
}

/** The administration group of the route table (src/core/routes.ts '/operate'). */
export const ADMINISTRATION_GROUP: MenuEntry = { path: '/operate', name: 'route.operate', icon: 'operate' };

const ops = [Permission.Operations];
/** Every administration screen of the route table, in its order (test/unit/core/administration-menu.test.ts
 *  holds this list against the routes under '/operate' and what opens them). */
export const ADMINISTRATION_SCREENS: readonly AdministrationScreen[] = [
  // '/app/*' (Apps) also opens '/operate/app' (acl.ts): an app's administrators manage their apps there.
  { path: '/operate/app', name: 'route.app', icon: 'app', codes: [Permission.Apps] },
  { path: '/operate/user', name: 'route.user', icon: 'user', codes: ops },
  { path: '/operate/tenant/list', name: 'route.tenant', icon: 'tenant', codes: ops },
  { path: '/operate/setting', name: 'route.setting', icon: 'setting', codes: [...ops, Permission.Settings] },
  { path: '/operate/tunnel', name: 'route.tunnel', icon: 'tunnel', codes: [...ops, Permission.Settings] },
  { path: '/operate/menu', name: 'route.menu', icon: 'menu', codes: ops },
  { path: '/operate/audit', name: 'route.audit', icon: 'audit', codes: ops },
  { path: '/operate/scim', name: 'route.scim', icon: 'key', codes: ops },
  { path: '/operate/webhooks', name: 'route.webhooks', icon: 'webhook', codes: ops },
];

/** The administration screens someone holding `permissions` (plain codes, as the server grants
 *  them) may open. */
export function administrationOf(permissions: readonly string[]): AdministrationScreen[] {
  return ADMINISTRATION_SCREENS.filter((screen) => screen.codes.every((code) => permissions.includes(code)));
}

function pathsIn(items: readonly PlanMenuItem[]): string[] {
  return items.flatMap((item) => [item.path, ...pathsIn(item.children ?? [])]);
}

/** The administration screens `items` leave out, in the route table's order. */
export function missingAdministration(
  items: readonly PlanMenuItem[],
  screens: readonly AdministrationScreen[] = ADMINISTRATION_SCREENS,
): AdministrationScreen[] {
  const present = new Set(pathsIn(items));
  return screens.filter((screen) => !present.has(screen.path));
}

/** Drops the privilege binding of every item on the way to one of `paths`. */
function unbind(items: readonly PlanMenuItem[], paths: ReadonlySet<string>): PlanMenuItem[] {
  const leadsThere = (item: PlanMenuItem): boolean => paths.has(item.path) || (item.children ?? []).some(leadsThere);
  return items.map((item) => {
    const children = item.children ? unbind(item.children, paths) : undefined;
    const kept: PlanMenuItem = { ...item, ...(children ? { children } : {}) };
    if (leadsThere(item)) delete kept.privilegeId;
    return kept;
  });
}

/**
 * The global plan's items with every administration screen someone holding `permissions` may open
 * reachable: bindings to privileges on the way to one are ignored, and the screens the plan leaves
 * out are added under its top-level '/operate' item (or under a new one at the end), with their
 * route names. Other screens and items stay as the plan has them.
 */
export function withAdministration(items: readonly PlanMenuItem[], permissions: readonly string[]): PlanMenuItem[] {
  const screens = administrationOf(permissions);
  const kept = unbind(items, new Set(screens.map((screen) => screen.path)));
  const missing = missingAdministration(kept, screens).map(({ path, name, icon }) => ({ path, name, icon }));
  if (!missing.length) return kept;
  const group = kept.findIndex((item) => item.path === ADMINISTRATION_GROUP.path);
  if (group < 0) return [...kept, { ...ADMINISTRATION_GROUP, children: missing }];
  return kept.map((item, index) => (index === group ? { ...item, children: [...(item.children ?? []), ...missing] } : item));
}
