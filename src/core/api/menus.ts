// menu plan calls.
import type * as v from 'valibot';
import { getAppMenus } from '../contract/app-menus';
import type { CallInput } from '../contract/declare';
import type { appMenus } from '../schemas/menu-plans';
import { call } from './call';

export type MultiAppMenu = v.InferOutput<typeof appMenus>[number];

/** GET /menu/app/assignment/public/multi_app_menu/list with the given query params. */
export function multiAppMenuList(query: CallInput<typeof getAppMenus>['query'] = {}): Promise<MultiAppMenu[]> {
  return call(getAppMenus, { query });
}
