// Menu plan calls: the §7 multi-app menu list, one app's (or the global) plan, and saving it.
import type * as v from 'valibot';
import { request } from '../http';
import { GLOBAL_MENU, type appMenus, type plan, type PlanMenuItem } from '../schemas/menuPlans';
import { apiPath } from './path';

export type { PlanMenuItem };
export type Plan = v.InferOutput<typeof plan>;
export type AppMenu = v.InferOutput<typeof appMenus>[number];
export { GLOBAL_MENU };

/** GET /menu/app/assignment/public/multi_app_menu/list: every plan, with the items the caller may see. */
export function appMenuList(query: { appId?: string } = {}): Promise<AppMenu[]> {
  return request<AppMenu[]>('GET', '/menu/app/assignment/public/multi_app_menu/list', { query });
}

/** The plan of an app, or of the global menu (`GLOBAL_MENU`); null when there is none yet. */
export function planFor(appId: string): Promise<Plan | null> {
  return request<Plan | null>('GET', apiPath`/menu-plans/for/${appId}`);
}

/** Creates the plan of `appId` (null: the global one). Silent: the screen shows field errors. */
export function create(fields: { appId: string | null; name: string; items: PlanMenuItem[] }): Promise<Plan> {
  return request<Plan>('POST', '/menu-plans', { body: fields, silent: true });
}

export function update(id: string, fields: { name?: string; items?: PlanMenuItem[]; version: number }): Promise<Plan> {
  return request<Plan>('PUT', apiPath`/menu-plans/${id}`, { body: fields, silent: true });
}

export function remove(id: string): Promise<void> {
  return request<void>('DELETE', apiPath`/menu-plans/${id}`);
}
