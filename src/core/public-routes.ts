// The routes that need no sign-in, the paths the core itself navigates to, and path
// matching. Kept apart from the full route table (routes.ts, which adds the guarded routes, the
// menu and the guard) so that the HTTP client and the session (hence the sign-in entry) load
// neither the table nor the ACL.
import type { RouteDef } from './routes';

export const LOGIN_PATH = '/login';
export const NOT_FOUND_PATH = '/404';
export const FORBIDDEN_PATH = '/403';
/** Exempt from the login guard: it finishes a sign-in started elsewhere. */
export const AUTH_REDIRECT_PATH = '/auth-redirect';

/** The first rows of the route table: reachable without signing in. */
export const publicRoutes: readonly RouteDef[] = [
  { path: LOGIN_PATH, name: 'route.login', noLogin: true, hidden: true, layout: false, screen: 'login', order: 0 },
  { path: '/verified/:code', name: 'route.login', noLogin: true, hidden: true, layout: false, screen: 'verified', order: 0 },
  { path: '/infoComplete', name: 'route.infoComplete', noLogin: true, hidden: true, layout: false, screen: 'infoComplete', order: 0 },
  { path: '/onlySignIn', name: 'route.onlySignIn', noLogin: true, hidden: true, layout: false, screen: 'onlySignIn', order: 0 },
  { path: NOT_FOUND_PATH, name: 'route.notFound', noLogin: true, hidden: true, layout: false, screen: 'notFound', order: 0 },
  { path: FORBIDDEN_PATH, name: 'route.forbidden', noLogin: true, hidden: true, layout: false, screen: 'forbidden', order: 0 },
  { path: AUTH_REDIRECT_PATH, name: 'route.authRedirect', noLogin: true, skipAcl: true, hidden: true, layout: false, screen: 'authRedirect', order: 0 },
];

/** The path part of a location (no query, no hash, no trailing slash). */
export function pathOf(location: string): string {
  const path = location.split(/[?#]/, 1)[0] ?? '';
  return path.replace(/\/+$/, '') || '/';
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The decoded parameters when `location` matches the path pattern (`:name` matches one segment), else undefined. */
export function matchPath(pattern: string, location: string): Record<string, string> | undefined {
  const actual = pathOf(location).split('/').filter(Boolean);
  const wanted = pattern.split('/').filter(Boolean);
  if (wanted.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  const matches = wanted.every((segment, i) => {
    const value = actual[i] ?? '';
    if (!segment.startsWith(':')) return segment === value;
    const decoded = decode(value);
    if (decoded === undefined) return false;
    params[segment.slice(1)] = decoded;
    return true;
  });
  return matches ? params : undefined;
}

/** Whether `location` shows a page that needs no sign-in (the sign-in page itself, 404 …). */
export function isPublicLocation(location: string): boolean {
  return publicRoutes.some((route) => matchPath(route.path, location) !== undefined);
}

/** `path` with `?redirect=<location>`. */
export function withRedirect(path: string, location: string): string {
  return `${path}?${new URLSearchParams({ redirect: location })}`;
}
