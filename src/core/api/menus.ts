// menu plan calls.
import { request, type Query } from '../http';

export interface MultiAppMenu {
  appId?: string;
  appName?: string;
  menus?: unknown[];
  [key: string]: unknown;
}

/** GET /menu/app/assignment/public/multi_app_menu/list with the given query params. */
export function multiAppMenuList(query: Query = {}): Promise<MultiAppMenu[]> {
  return request<MultiAppMenu[]>('GET', '/menu/app/assignment/public/multi_app_menu/list', { query });
}
