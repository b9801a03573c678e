// Calls of server/routes/app-menus.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration } from './declare';
import { appMenus, appMenusQuery } from '../schemas/menu-plans';

/** GET /menu/app/assignment/public/multi_app_menu/list */
export const getAppMenus = {
  method: 'GET',
  path: '/menu/app/assignment/public/multi_app_menu/list',
  query: appMenusQuery,
  response: appMenus,
} as const satisfies CallDeclaration;
