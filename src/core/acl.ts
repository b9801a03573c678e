// Access control of the console. The UI's ACL is convenience; the server enforces the same
// permissions on every call.
//
// Permission codes (the `Permission` map of permission-codes.ts says what each opens) are strings in
// the session, each optionally `code|flag`. The flag after the pipe is an AclValue: True (2) or no flag grants the patterns; Disabled (1)
// keeps the entries visible in the menu but greyed out and not navigable; False (0) and anything
// unparseable grant nothing (fail closed).
//
// Matching: a route is checked as its path, the path + '/', and the path + '/view'. A pattern
// matches a candidate when the candidate's LAST segments equal the pattern's segments; a trailing
// '*' stands for one or more segments. So '/user' matches '/operate/user', '/setting' matches
// '/operate/setting', '/operate/*' matches every '/operate/…' route (and '/operate' through
// '/operate/view'), and '/app/*' matches '/app/detail/:id' and '/operate/app' (through '/operate/app/view').
import type { YesNo } from './enums';
import { AclValue, isAclEnabled, permissionTable } from './permissions';
import { Permission } from './permission-codes';
import type { SessionUser } from './types';

export { AclValue, accessDenial, isAclEnabled, parsePermission, permissionTable, type AccessDenial, type PermissionEntry } from './permissions';
export { Permission } from './permission-codes';

/** The console route patterns a permission code opens (a function, not a table keyed by
 *  `Permission.*`: such a table would stay in the sign-in entry, which never asks it). */
export function permissionPatterns(code: string): readonly string[] {
  switch (code) {
    case Permission.Apps:
      return ['/app/*'];
    case Permission.Users:
      return ['/user'];
    case Permission.Settings:
      return ['/setting'];
    case Permission.Operations:
      return ['/operate/*'];
    // SelfService opens no guarded route; an unknown code opens nothing.
    default:
      return [];
  }
}

/** The optional parts of the console an operator may hide by listing them in the configuration's
 *  `moduleConfig.featureBlacklist`: the route table marks their entries, and the menu (with the
 *  home page's areas) leaves them out. Hiding is not a permission: the API still decides. */
export const Feature = {
  Tenants: 'tenants',
  Messaging: 'messaging',
  MenuPlans: 'menuPlans',
} as const;
export type Feature = (typeof Feature)[keyof typeof Feature];

export type Access = 'allowed' | 'disabled' | 'denied';

function segments(path: string): string[] {
  return path.split('/').filter(Boolean);
}

/** Whether `pattern` matches `path` as its trailing whole segments ('*' at the end: one or more segments). */
export function patternMatches(pattern: string, path: string): boolean {
  const wanted = segments(pattern);
  const actual = segments(path);
  const wildcard = wanted[wanted.length - 1] === '*';
  const fixed = wildcard ? wanted.slice(0, -1) : wanted;
  const fixedAt = (start: number) => fixed.every((segment, i) => actual[start + i] === segment);
  if (!wildcard) return actual.length >= fixed.length && fixedAt(actual.length - fixed.length);
  // The fixed part followed by at least one more segment, which the '*' takes (with the rest of the path).
  for (let start = 0; start + fixed.length < actual.length; start += 1) if (fixedAt(start)) return true;
  return false;
}

/** The paths checks for a route: the path, the path with a slash, the path plus /view. */
export function aclCandidates(path: string): string[] {
  const base = path.replace(/\/+$/, '');
  return [base || '/', `${base}/`, `${base}/view`];
}

export interface AclContext {
  permissions: readonly string[];
  /** The ACL-check switch: 'N' disables the check (every route is allowed). */
  aclSwitch?: YesNo;
}

/** The best access the table's entries whose code `applies` give: the True flag (or none) allows,
 *  Disabled shows greyed out; False and unparseable entries give nothing. */
function bestAccess(permissions: readonly string[], applies: (code: string) => boolean): Access {
  let access: Access = 'denied';
  for (const entry of permissionTable(permissions)) {
    if (entry.flag === AclValue.False || !applies(entry.code)) continue;
    if (entry.flag === AclValue.True) return 'allowed';
    access = 'disabled';
  }
  return access;
}

/** The access the permission table gives to `path` (ignoring skip-ACL and the switch; see `routeAccess`). */
export function pathAccess(path: string, permissions: readonly string[]): Access {
  const candidates = aclCandidates(path);
  return bestAccess(permissions, (code) => permissionPatterns(code).some((pattern) => candidates.some((candidate) => patternMatches(pattern, candidate))));
}

export interface AclSubject {
  /** The path checked for this route (a route may borrow its parent's, see routes.ts `aclPath`). */
  aclPath: string;
  skipAcl?: boolean;
  /** A code the route needs besides its path's (see routes.ts `alsoNeeds`). */
  alsoNeeds?: Permission;
}

/** The access one code of the table gives. */
function codeAccess(permissions: readonly string[], code: Permission): Access {
  return bestAccess(permissions, (entryCode) => entryCode === code);
}

/** The access to a route: skip-ACL routes and a disabled switch always allow; otherwise the path's
 *  access, lowered to the `alsoNeeds` code's when the route names one. */
export function routeAccess(route: AclSubject, context: AclContext): Access {
  if (route.skipAcl || !isAclEnabled(context.aclSwitch)) return 'allowed';
  const byPath = pathAccess(route.aclPath, context.permissions);
  if (route.alsoNeeds === undefined) return byPath;
  const byCode = codeAccess(context.permissions, route.alsoNeeds);
  if (byPath === 'denied' || byCode === 'denied') return 'denied';
  return byPath === 'allowed' && byCode === 'allowed' ? 'allowed' : 'disabled';
}

/** For template conditions ("hide unless the admin flag or an ACL is met"): whether `user` is an
 *  administrator (when `admin` is asked) or holds permission `code` with the True flag. */
export function hasAccess(user: Pick<SessionUser, 'isAdmin' | 'permissions'> | undefined, need: { admin?: boolean; code?: Permission }): boolean {
  if (!user) return false;
  if (need.admin && user.isAdmin) return true;
  return need.code !== undefined && codeAccess(user.permissions, need.code) === 'allowed';
}

/** Whether the user may assign app roles to people at all: the server's grant rule
 *  (server/auth/grants.ts) lets only the platform administrator and an app's administrators grant
 *  that app's roles, so the console offers role assignment to them only. */
export function mayGrantAppRoles(scope: { platform: boolean; ownedAppIds: readonly string[] }): boolean {
  return scope.platform || scope.ownedAppIds.length > 0;
}

/** A menu entry as the console draws it (from the route table or from the menus API). */
export interface MenuItem {
  path: string;
  /** The entry's name: a route's text key, or a menu plan's name (data, see nameText in src/core/i18n). */
  name: string;
  icon?: string;
  feature?: string;
  disabled?: boolean;
  children?: MenuItem[];
}

export interface MenuFilter {
  /** When non-empty, only entries matching one of these path patterns (or with such a descendant) stay. */
  allow?: readonly string[];
  /** Entries matching one of these path patterns are removed with their children. */
  deny?: readonly string[];
  /** Entries whose `feature` is listed are removed (with their children). */
  featureBlacklist?: readonly string[];
}

function matchesAny(patterns: readonly string[], path: string): boolean {
  return patterns.some((pattern) => patternMatches(pattern, path));
}

/** Menu entries filtered by the configuration's allow/deny rules and the feature blacklist. A
 *  parent whose children are all filtered out disappears too. */
export function filterMenu(items: readonly MenuItem[], filter: MenuFilter = {}): MenuItem[] {
  const { allow = [], deny = [], featureBlacklist = [] } = filter;
  return items.flatMap((item): MenuItem[] => {
    if (item.feature && featureBlacklist.includes(item.feature)) return [];
    if (matchesAny(deny, item.path)) return [];
    if (item.children?.length) {
      const children = filterMenu(item.children, { allow: matchesAny(allow, item.path) ? [] : allow, deny, featureBlacklist });
      return children.length ? [{ ...item, children }] : [];
    }
    return !allow.length || matchesAny(allow, item.path) ? [{ ...item }] : [];
  });
}
