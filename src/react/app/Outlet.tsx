// The outlet: asks the core's guard what the current location shows and follows the answer
// (render the route's lazily loaded screen, redirect, or read the session first). It also sets
// the document title (standalone only), reports the location to the core and to the host, and
// follows the core's navigation requests (401 → /login, logout, session read failures), and moves
// the focus to the new page's heading after a route change.
import { Suspense, useEffect, useRef } from 'react';
import { useStore } from '../store';
import { useLocation, useSearch } from 'wouter';
import { $config } from '../../core/config-store';
import { $navigationRequest, setCurrentLocation } from '../../core/navigation';
import { guard, isSafeRedirect } from '../../core/routes';
import { $session, reload } from '../../core/session';
import { useT } from '../i18n';
import { deepActiveElement } from '../widgets/focus';
import { useConsole } from './context';
import { Layout } from './Layout';
import { routerBase, useNavigate } from './router';
import { ScreenBoundary } from './ScreenBoundary';
import { screens } from './screens';
import * as styles from './shell.css';

function Loading() {
  const t = useT();
  return (
    <div className={styles.loading} role="status">
      {t('console:loading')}
    </div>
  );
}

/** Follows the core's navigation requests made after mount: in-app paths through the router,
 *  other URLs by leaving the page (history routing) or by telling the host (memory routing). */
function useNavigationRequests(base: string | undefined): void {
  const navigate = useNavigate();
  const { routing, onNavigate } = useConsole();
  useEffect(() => {
    const seen = $navigationRequest.get()?.id ?? 0;
    return $navigationRequest.listen((request) => {
      if (!request || request.id <= seen) return;
      const { path } = request;
      if (isSafeRedirect(path)) {
        navigate(path);
        return;
      }
      let url: URL;
      try {
        url = new URL(path, location.href);
      } catch {
        return;
      }
      if (!/^https?:$/.test(url.protocol)) return;
      const prefix = routerBase(base);
      if (url.origin === location.origin && (url.pathname === prefix || url.pathname.startsWith(`${prefix}/`))) {
        navigate(`${url.pathname.slice(prefix.length) || '/'}${url.search}`);
      } else if (routing === 'history') {
        location.assign(url.href);
      } else {
        onNavigate?.({ path: url.href, external: true });
      }
    });
  }, [navigate, routing, onNavigate, base]);
}

/** The page heading on screen (a screen still loading keeps the previous one, hidden). */
function shownHeading(root: ParentNode): HTMLElement | undefined {
  return [...root.querySelectorAll<HTMLElement>('h1')].find((heading) => heading.checkVisibility());
}

/**
 * After a route change (not the first page), the focus goes to the new page's heading, which a
 * screen reader then reads: the link that led there is gone, and the focus would fall to the
 * page's start. Only when the focus is in the console or nowhere (a host page driving the route
 * keeps its own focus) and has not moved since the change.
 */
function useFocusHeadingOnRouteChange(path: string): void {
  const { portalContainer } = useConsole();
  const previous = useRef(path);
  useEffect(() => {
    if (previous.current === path) return;
    previous.current = path;
    const root = portalContainer?.getRootNode();
    if (!(root instanceof ShadowRoot)) return;
    const focusedBefore = deepActiveElement(root);
    const focusHeading = (): boolean => {
      const heading = shownHeading(root);
      // Not while a modal (the narrow screen's menu drawer a link was followed from) still makes the
      // page inert: it cannot take the focus yet; the modal gives it back as it closes.
      if (!heading || heading.closest('[inert]')) return false;
      const focusedNow = deepActiveElement(root);
      // Not when the person has moved on while the screen loaded.
      const unmoved = focusedNow === focusedBefore || focusedNow === document.body || !focusedBefore?.isConnected;
      // Asked of the console's own root: the page's document.activeElement stops at the outermost
      // shadow host, which is a host component's, not the console, when it renders the console.
      const inConsoleOrNowhere = focusedNow === document.body || focusedNow === root.host || root.activeElement !== null;
      if (unmoved && inConsoleOrNowhere) {
        heading.tabIndex = -1;
        heading.focus();
      }
      return true;
    };
    if (focusHeading()) return;
    // The screen's code or data is still loading: wait for its heading.
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect();
    });
    observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['style', 'hidden', 'inert'] });
    const timer = setTimeout(() => observer.disconnect(), 10_000);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [path, portalContainer]);
}

export function Outlet({ base }: { base?: string }) {
  const t = useT();
  const [path] = useLocation();
  const search = useSearch();
  const location = search ? `${path}?${search}` : path;
  const session = useStore($session);
  const config = useStore($config);
  const { routing, uiEmbed, onNavigate } = useConsole();
  const navigate = useNavigate();
  useNavigationRequests(base);
  useFocusHeadingOnRouteChange(path);

  const decision = guard({
    location,
    status: session.status,
    permissions: session.user?.permissions ?? [],
    aclSwitch: config.settings.business.aclSwitch,
    appName: config.system.appName,
    translate: t,
  });

  useEffect(() => {
    setCurrentLocation(location);
  }, [location]);

  const pending = decision.kind === 'pending';
  useEffect(() => {
    // A failed read clears the session (the guard then sends the person to /login).
    if (pending) reload().catch(() => undefined);
  }, [pending]);

  const redirectTo = decision.kind === 'redirect' ? decision.to : undefined;
  useEffect(() => {
    if (redirectTo) navigate(redirectTo, { replace: true });
  }, [redirectTo, navigate]);

  const title = decision.kind === 'render' ? decision.title : undefined;
  useEffect(() => {
    if (!title) return;
    // Embedded (memory routing), the host page keeps its own title; it gets it in the event.
    if (routing === 'history') document.title = title;
    onNavigate?.({ path: location, title });
  }, [title, location, routing, onNavigate]);

  if (decision.kind !== 'render') return <Loading />;
  const { route, params } = decision;
  const Screen = route.screen ? screens[route.screen] : undefined;
  if (!Screen) return <Loading />;
  const page = (
    <ScreenBoundary location={location}>
      <Suspense fallback={<Loading />}>
        <Screen route={route} params={params} />
      </Suspense>
    </ScreenBoundary>
  );
  return route.layout && !uiEmbed ? <Layout route={route}>{page}</Layout> : page;
}
