// Menu plan calls: the multi-app menu list, the plans in full, one app's (or the global) plan, what
// its items are bound to, and saving it.
import type * as v from 'valibot';
import type { MenuItem } from '../acl';
import * as calls from '../contract/menu-plans';
import { getAppMenus } from '../contract/app-menus';
import type { CallInput } from '../contract/declare';
import { GLOBAL_MENU, type appMenus, type plan, type PlanMenuItem } from '../schemas/menu-plans';
import type { Locale } from '../i18n';
import type { Privilege } from './apps';
import { call, type CallBody } from './call';

export type { PlanMenuItem };
export type Plan = v.InferOutput<typeof plan>;
export type AppMenu = v.InferOutput<typeof appMenus>[number];
export { GLOBAL_MENU };

/** GET /menu/app/assignment/public/multi_app_menu/list: every plan, with the items the caller may see.
 *  Silent: the console's menu falls back to the route table, and the list screen shows its own state. */
export function appMenuList(query: CallInput<typeof getAppMenus>['query'] = {}): Promise<AppMenu[]> {
  return call(getAppMenus, { query }, { silent: true });
}

/**
 * The name of a plan's item in `locale`: its Chinese name in Chinese; without one, the console
 * screen's own name (`route`'s text key) rather than English; otherwise the name as written (a
 * text key also works, see nameText in src/core/i18n).
 */
function itemName(item: Pick<PlanMenuItem, 'name' | 'nameZh'>, locale: Locale, route?: MenuItem): string {
  if (locale !== 'zh') return item.name;
  return item.nameZh || route?.name || item.name;
}

/**
 * The console's side menu as the global plan orders, names and decorates it: each plan item whose
 * path is an entry of `permitted` (the route-table menu the person may see) is kept with the plan's
 * name (in `locale`, see itemName) and icon; other items (links elsewhere, routes not permitted)
 * are left out, and a parent stays when something under it does. The server has already removed
 * items bound to privileges the person does not hold and put back every administration screen the
 * plan left out (src/core/administration-menu.ts).
 */
export function consoleMenu(items: readonly PlanMenuItem[], permitted: readonly MenuItem[], locale: Locale = 'en'): MenuItem[] {
  const entries = new Map<string, MenuItem>();
  const collect = (menu: readonly MenuItem[]) =>
    menu.forEach((entry) => {
      entries.set(entry.path, entry);
      collect(entry.children ?? []);
    });
  collect(permitted);
  return items.flatMap((item) => {
    const children = consoleMenu(item.children ?? [], permitted, locale);
    const entry = entries.get(item.path);
    if (!entry && !children.length) return [];
    const icon = item.icon || entry?.icon;
    return [
      {
        path: item.path,
        name: itemName(item, locale, entry),
        ...(icon ? { icon } : {}),
        ...(entry?.disabled ? { disabled: true } : {}),
        ...(children.length ? { children } : {}),
      },
    ];
  });
}

/** GET /menu-plans: every plan with all its items (the administration's view; a console has a
 *  handful of plans, one per app at most). */
export async function plans(): Promise<Plan[]> {
  return (await call(calls.getMenuPlans, { query: { size: 100 } })).list;
}

/** GET /menu-plans/{id}: one plan by its own id (an audit event names a plan by it). Silent: a
 *  plan deleted since is shown as a name without a link. */
export function planById(id: string): Promise<Plan> {
  return call(calls.getMenuPlansById, { params: { id } }, { silent: true });
}

/** GET /menu-plans/{id}/privileges: the privileges the plan's items are bound to. */
export function boundPrivileges(planId: string): Promise<Privilege[]> {
  return call(calls.getMenuPlansPrivileges, { params: { id: planId } });
}

/** The plan of an app, or of the global menu (`GLOBAL_MENU`); null when there is none yet. */
export function planFor(appId: string): Promise<Plan | null> {
  return call(calls.getMenuPlansForApp, { params: { appId } });
}

/** Creates the plan of `appId` (null: the global one). Silent: the screen shows field errors. */
export function create(fields: CallBody<typeof calls.postMenuPlans>): Promise<Plan> {
  return call(calls.postMenuPlans, { body: fields }, { silent: true });
}

export function update(id: string, fields: CallBody<typeof calls.putMenuPlansById>): Promise<Plan> {
  return call(calls.putMenuPlansById, { params: { id }, body: fields }, { silent: true });
}

export function remove(id: string): Promise<null> {
  return call(calls.deleteMenuPlansById, { params: { id } });
}
