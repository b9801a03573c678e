// Menu plans: one menu tree per app, plus the global (unify) menu that the console's own side menu
// follows. Items keep their order (the array order), carry an icon and may be bound to a privilege
// (an id from the privilege tree of any app): only people holding it see the item.
import * as v from 'valibot';
import { patterns, rules } from '../validation';
import { id, optionalDescription, pageQueryFields, pagedList, version } from './common';

export interface PlanMenuItem {
  /** The name in English (or a text key), shown when no name of the reader's language is given. */
  name: string;
  /** The name in Chinese. Without it, a console screen shows its own Chinese name (see consoleMenu). */
  nameZh?: string;
  path: string;
  icon?: string;
  /** Shown only to people holding this privilege (through a role), when set. */
  privilegeId?: string;
  children?: PlanMenuItem[];
}

/** A path inside the console or an app ('/operate/user', 'orders/list'), or an http(s) link. */
const menuPath = v.pipe(
  v.string('rule.required'),
  v.nonEmpty('rule.required'),
  v.maxLength(500, 'rule.maxLength?max=500'),
  v.check((value) => patterns.path.test(value) || patterns.url.test(value), 'rule.path'),
);

const planMenuItem: v.GenericSchema<PlanMenuItem> = v.object({
  name: v.pipe(v.string('rule.required'), v.trim(), v.nonEmpty('rule.required'), v.maxLength(60, 'rule.maxLength?max=60')),
  nameZh: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(60, 'rule.maxLength?max=60'))),
  path: menuPath,
  icon: v.optional(v.pipe(v.string(), v.regex(/^[\w-]{0,40}$/, 'rule.icon'))),
  privilegeId: v.optional(id),
  children: v.optional(v.pipe(v.array(v.lazy(() => planMenuItem)), v.maxLength(200, 'rule.maxLength?max=200'))),
});
const items = v.pipe(v.array(planMenuItem, 'rule.required'), v.maxLength(200, 'rule.maxLength?max=200'));

/** The path segment that names the global menu where an app id would stand. */
export const GLOBAL_MENU = 'global';

export const planListQuery = v.object({ ...pageQueryFields, searchProp: v.optional(v.picklist(['name'], 'rule.searchProp')), appId: v.optional(id) });
export const planBody = v.object({
  /** Absent or null: the global menu. One plan per app, one global plan. */
  appId: v.optional(v.nullable(id)),
  name: rules.resourceName,
  description: optionalDescription,
  items,
});
export const planUpdateBody = v.object({ name: v.optional(rules.resourceName), description: optionalDescription, items: v.optional(items), version });
export const plan = v.object({
  id: v.string(),
  appId: v.nullable(v.string()),
  name: v.string(),
  description: v.nullable(v.string()),
  items: v.array(planMenuItem),
  version: v.number(),
  createdAt: v.number(),
  updatedAt: v.number(),
});
export const planList = pagedList(plan);
/** GET /menu-plans/for/{appId} ('global' for the global menu): the plan, or null when there is none yet. */
export const planForParams = v.object({ appId: id });

/** GET /menu/app/assignment/public/multi_app_menu/list: every plan's menu as the caller may see it. */
export const appMenusQuery = v.object({ appId: v.optional(id) });
export const appMenus = v.array(
  v.object({
    appId: v.nullable(v.string()),
    appName: v.string(),
    planId: v.string(),
    planName: v.string(),
    entrypoint: v.nullable(v.string()),
    /** The app is a SAML service provider: the portal opens it by IdP-initiated sign-in. */
    saml: v.boolean(),
    menus: v.array(planMenuItem),
  }),
);
