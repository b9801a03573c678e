// menu plan calls.
import type * as v from 'valibot';
import { request, type Query } from '../http';
import type { appMenus } from '../schemas/menu-plans';

export type MultiAppMenu = v.InferOutput<typeof appMenus>[number];

/** GET /menu/app/assignment/public/multi_app_menu/list with the given query params. */
export function multiAppMenuList(query: Query = {}): Promise<MultiAppMenu[]> {
  return request<MultiAppMenu[]>('GET', '/menu/app/assignment/public/multi_app_menu/list', { query });
}
