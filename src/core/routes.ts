// The route table as data, and the router guard as a pure function. The core has no router:
// a UI router asks `guard()` what to do with a path and follows the answer.
import { Feature, filterMenu, routeAccess, type Access, type AclContext, type MenuFilter, type MenuItem } from './acl';
import { Permission } from './permission-codes';
import { t, type TextKey, type Translate } from './i18n';
import { FORBIDDEN_PATH, LOGIN_PATH, NOT_FOUND_PATH, matchPath, pathOf, publicRoutes, withRedirect } from './public-routes';
import type { SessionStatus } from './types';

/** The lazily loaded screen a route shows; the UI maps each id to a dynamic import. */
export type ScreenId =
  | 'login'
  | 'verified'
  | 'infoComplete'
  | 'onlySignIn'
  | 'notFound'
  | 'forbidden'
  | 'authRedirect'
  | 'home'
  | 'appList'
  | 'appDetail'
  | 'userList'
  | 'tenantList'
  | 'loginSettings'
  | 'channels'
  | 'menuList'
  | 'menuDetail'
  | 'auditLog'
  | 'scimTokens'
  | 'webhooks'
  | 'messages'
  | 'messageHistory'
  | 'userInfo'
  | 'oauthAuthorize'
  | 'samlAuthorize';

export interface RouteDef {
  /** Path pattern; `:name` matches one segment. */
  path: string;
  /** i18n key of the route's name (menu, breadcrumb, document title). */
  name: TextKey;
  /** Path of the parent route (menu nesting and breadcrumb). */
  parent?: string;
  /** Not shown in the menu. */
  hidden?: boolean;
  /** Reachable without signing in. */
  noLogin?: boolean;
  /** Never checked against the permission table. */
  skipAcl?: boolean;
  /** Inside the section layout (top bar, side menu, breadcrumb) rather than a bare page. */
  layout: boolean;
  /** The screen shown; a route without one redirects to its first permitted child. */
  screen?: ScreenId;
  /** Menu icon name. */
  icon?: string;
  /** Position among its siblings in the menu. */
  order: number;
  /** The path the ACL checks, when not the route's own (detail pages borrow their list's). */
  aclPath?: string;
  /** The optional part of the console the route belongs to, for the feature blacklist. */
  feature?: Feature;
  /**
   * A permission code needed besides the path's own: Operations opens every /operate/… path, but a
   * tenant administrator (Users and Operations) is refused the Apps and Settings calls by the
   * server, so those entries stay out of their menu.
   */
  alsoNeeds?: typeof Permission.Apps | typeof Permission.Settings;
}

export {
  AUTH_REDIRECT_PATH,
  FORBIDDEN_PATH,
  LOGIN_PATH,
  NOT_FOUND_PATH,
  isPublicLocation,
  matchPath,
  pathOf,
  publicRoutes,
  withRedirect,
} from './public-routes';

export const routes: readonly RouteDef[] = [
  ...publicRoutes,
  { path: '/home/index', name: 'route.home', skipAcl: true, layout: true, screen: 'home', icon: 'home', order: 1 },
  { path: '/operate', name: 'route.operate', layout: true, icon: 'operate', order: 2 },
  { path: '/operate/app', name: 'route.app', parent: '/operate', layout: true, screen: 'appList', icon: 'app', order: 1, alsoNeeds: Permission.Apps },
  {
    path: '/app/detail/:id',
    name: 'route.appDetail',
    parent: '/operate/app',
    hidden: true,
    layout: true,
    screen: 'appDetail',
    order: 1,
    alsoNeeds: Permission.Apps,
  },
  { path: '/operate/user', name: 'route.user', parent: '/operate', layout: true, screen: 'userList', icon: 'user', order: 2 },
  {
    path: '/operate/tenant/list',
    name: 'route.tenant',
    parent: '/operate',
    layout: true,
    screen: 'tenantList',
    icon: 'tenant',
    order: 3,
    feature: Feature.Tenants,
  },
  {
    path: '/operate/setting',
    name: 'route.setting',
    parent: '/operate',
    layout: true,
    screen: 'loginSettings',
    icon: 'setting',
    order: 4,
    alsoNeeds: Permission.Settings,
  },
  {
    path: '/operate/tunnel',
    name: 'route.tunnel',
    parent: '/operate',
    layout: true,
    screen: 'channels',
    icon: 'tunnel',
    order: 5,
    alsoNeeds: Permission.Settings,
    feature: Feature.Messaging,
  },
  { path: '/operate/menu', name: 'route.menu', parent: '/operate', layout: true, screen: 'menuList', icon: 'menu', order: 6, feature: Feature.MenuPlans },
  { path: '/operate/audit', name: 'route.audit', parent: '/operate', layout: true, screen: 'auditLog', icon: 'audit', order: 7 },
  { path: '/operate/scim', name: 'route.scim', parent: '/operate', layout: true, screen: 'scimTokens', icon: 'key', order: 8 },
  { path: '/operate/webhooks', name: 'route.webhooks', parent: '/operate', layout: true, screen: 'webhooks', icon: 'webhook', order: 9 },
  // No permission pattern covers /menu/…: the detail is reachable whenever its list is.
  {
    path: '/menu/detail/:id',
    name: 'route.menuDetail',
    parent: '/operate/menu',
    hidden: true,
    layout: true,
    screen: 'menuDetail',
    aclPath: '/operate/menu',
    order: 1,
  },
  { path: '/profile', name: 'route.profile', layout: true, icon: 'profile', order: 3 },
  {
    path: '/profile/message',
    name: 'route.message',
    parent: '/profile',
    skipAcl: true,
    layout: true,
    screen: 'messages',
    icon: 'message',
    order: 1,
    feature: Feature.Messaging,
  },
  {
    path: '/profile/messageHis',
    name: 'route.messageHis',
    parent: '/profile',
    skipAcl: true,
    layout: true,
    screen: 'messageHistory',
    icon: 'history',
    order: 2,
    feature: Feature.Messaging,
  },
  { path: '/profile/userInfo', name: 'route.userInfo', parent: '/profile', skipAcl: true, layout: true, screen: 'userInfo', icon: 'userInfo', order: 3 },
  { path: '/oauth/authorize', name: 'route.authorize', hidden: true, skipAcl: true, layout: true, screen: 'oauthAuthorize', order: 4 },
  { path: '/saml/authorize', name: 'route.samlAuthorize', hidden: true, skipAcl: true, layout: true, screen: 'samlAuthorize', order: 4 },
];

export interface RouteMatch {
  route: RouteDef;
  params: Record<string, string>;
}

/** The route a location shows, with its decoded parameters; undefined for an unknown path. */
export function matchRoute(location: string): RouteMatch | undefined {
  for (const route of routes) {
    const params = matchPath(route.path, location);
    if (params) return { route, params };
  }
  return undefined;
}

export function routeByPath(path: string): RouteDef | undefined {
  return routes.find((route) => route.path === path);
}

export function childrenOf(path: string): RouteDef[] {
  return routes.filter((route) => route.parent === path).sort((a, b) => a.order - b.order);
}

/** The ancestors of a route, outermost first, then the route itself (for the breadcrumb). */
export function breadcrumbOf(route: RouteDef): RouteDef[] {
  const trail = [route];
  for (let parent = route.parent && routeByPath(route.parent); parent; parent = parent.parent && routeByPath(parent.parent)) trail.unshift(parent);
  return trail;
}

/** `pattern` with its `:name` segments filled from `params` (encoded); undefined when one is missing. */
export function fillPath(pattern: string, params: Record<string, string>): string | undefined {
  let complete = true;
  const path = pattern.replace(/:([^/]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) complete = false;
    return encodeURIComponent(value ?? '');
  });
  return complete ? path : undefined;
}

/**
 * Where "up" leads from a route shown with `params` (Back when the console was opened on this
 * page): the nearest ancestor with a screen, its parameters filled from the current location's
 * (the ancestor `/app/detail/:id` of `/app/detail/42/x` is `/app/detail/42`), else `fallback`.
 */
export function upPathOf(trail: readonly RouteDef[], params: Record<string, string>, fallback: string): string {
  const route = trail[trail.length - 1];
  for (const crumb of [...trail].reverse()) {
    if (crumb === route || !crumb.screen) continue;
    const path = fillPath(crumb.path, params);
    if (path) return path;
  }
  return fallback;
}

export function accessOf(route: RouteDef, context: AclContext): Access {
  return routeAccess({ aclPath: route.aclPath ?? route.path, skipAcl: route.skipAcl, alsoNeeds: route.alsoNeeds }, context);
}

/** A route is permitted when it is allowed itself, or (a parent without a screen) has a permitted child. */
function isPermitted(route: RouteDef, context: AclContext): boolean {
  if (route.screen) return accessOf(route, context) === 'allowed';
  return childrenOf(route.path).some((child) => isPermitted(child, context));
}

/** The layout routes in menu order: top level by order, each followed by its children. */
function inMenuOrder(parent?: string): RouteDef[] {
  return routes
    .filter((route) => route.layout && route.parent === parent)
    .sort((a, b) => a.order - b.order)
    .flatMap((route) => [route, ...inMenuOrder(route.path)]);
}

/** The first visible page (not hidden, with a screen) the user may open: where sign-in lands. */
export function firstPermittedPath(context: AclContext): string | undefined {
  return inMenuOrder().find((route) => !route.hidden && route.screen && isPermitted(route, context))?.path;
}

/** Whether `target` is a same-site path the console may navigate to after sign-in (no open redirect). */
export function isSafeRedirect(target: string | null | undefined): target is string {
  return !!target && target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/\\');
}

/** Where to go after signing in: the redirect query when it is safe and permitted, else the first permitted page. */
export function afterLoginPath(redirect: string | null | undefined, context: AclContext): string {
  const landing = firstPermittedPath(context) ?? FORBIDDEN_PATH;
  if (!isSafeRedirect(redirect)) return landing;
  const match = matchRoute(redirect);
  if (!match || match.route.path === LOGIN_PATH || !isPermitted(match.route, context)) return landing;
  return redirect;
}

/** Document title: the route's translated name, ' – ', the app name. */
export function documentTitle(route: RouteDef, appName: string, translate: Translate = t): string {
  return `${translate(route.name)} – ${appName}`;
}

/** The side menu: visible layout routes the user may see, nested, filtered by the configuration's
 *  allow/deny rules and the feature blacklist. Disabled permissions show as disabled entries. */
export function buildMenu(context: AclContext, filter: MenuFilter = {}): MenuItem[] {
  const build = (parent?: string): MenuItem[] =>
    routes
      .filter((route) => route.layout && !route.hidden && route.parent === parent)
      .sort((a, b) => a.order - b.order)
      .flatMap((route): MenuItem[] => {
        const item = { path: route.path, name: route.name, icon: route.icon, feature: route.feature };
        if (!route.screen) {
          const children = build(route.path);
          return children.length ? [{ ...item, children }] : [];
        }
        const access = accessOf(route, context);
        if (access === 'denied') return [];
        return [access === 'disabled' ? { ...item, disabled: true } : item];
      });
  return filterMenu(build(), filter);
}

export interface GuardInput extends AclContext {
  /** The requested location (path, optionally with query and hash). */
  location: string;
  status: SessionStatus;
  appName: string;
  translate?: Translate;
}

export type GuardDecision =
  | { kind: 'render'; route: RouteDef; params: Record<string, string>; title: string }
  | { kind: 'redirect'; to: string }
  /** The session is still unknown: load it (session.reload) and ask again. */
  | { kind: 'pending' };

/**
 * The router guard:
 * - unknown path → /404; '/' → the first permitted page (or sign-in);
 * - noLogin routes and /auth-redirect render for everybody; a signed-in user opening /login goes on
 *   to `afterLoginPath(redirect)`;
 * - not signed in → /login?redirect=<location>;
 * - a parent without a screen → its first permitted child;
 * - not permitted → /403?redirect=<location>.
 */
export function guard(input: GuardInput): GuardDecision {
  const { location, status } = input;
  const path = pathOf(location);
  const render = (match: RouteMatch): GuardDecision => ({
    kind: 'render',
    route: match.route,
    params: match.params,
    title: documentTitle(match.route, input.appName, input.translate),
  });

  if (path === '/') {
    if (status === 'unknown') return { kind: 'pending' };
    return { kind: 'redirect', to: status === 'authenticated' ? afterLoginPath(undefined, input) : LOGIN_PATH };
  }
  const match = matchRoute(location);
  if (!match) return { kind: 'redirect', to: NOT_FOUND_PATH };
  const { route } = match;

  if (route.noLogin) {
    if (route.path === LOGIN_PATH && status === 'authenticated') {
      const redirect = new URL(location, 'http://console.invalid').searchParams.get('redirect');
      return { kind: 'redirect', to: afterLoginPath(redirect, input) };
    }
    return render(match);
  }
  if (status === 'unknown') return { kind: 'pending' };
  if (status !== 'authenticated') return { kind: 'redirect', to: withRedirect(LOGIN_PATH, location) };

  if (!route.screen) {
    const child = childrenOf(route.path).find((candidate) => !candidate.hidden && isPermitted(candidate, input));
    return { kind: 'redirect', to: child ? child.path : withRedirect(FORBIDDEN_PATH, location) };
  }
  if (accessOf(route, input) !== 'allowed') return { kind: 'redirect', to: withRedirect(FORBIDDEN_PATH, location) };
  return render(match);
}

/** The query parameter by which a list screen opens one of its records (the audit log links there). */
export const RECORD_PARAM = { user: 'user', tenant: 'tenant' } as const;

/** The people list showing one person. */
export const userAddress = (id: string): string => `/operate/user?${new URLSearchParams({ [RECORD_PARAM.user]: id })}`;

/** The menu plan of one app, or the global one (`GLOBAL_MENU`): route menu/detail/{id}. */
export const menuDetailPath = (appId: string): string => `/menu/detail/${encodeURIComponent(appId)}`;

/** The tenant screen with one tenant chosen. */
export const tenantAddress = (id: string): string => `/operate/tenant/list?${new URLSearchParams({ [RECORD_PARAM.tenant]: id })}`;
