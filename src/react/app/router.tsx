// The router adapter: wouter over the browser history (standalone, under `base`) or over an
// in-memory location (embedded: the host page's URL is never touched). Route matching and the
// guard are the core's (routes.ts); wouter keeps the location and navigates.
import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { Router, useLocation } from 'wouter';
import { navigate as browserNavigate, usePathname } from 'wouter/use-browser-location';
import { memoryLocation } from 'wouter/memory-location';

export type Routing = 'history' | 'memory';

/** How many console pages lie behind the current history entry (0: the console was opened here). */
function browserDepth(): number {
  const state: unknown = globalThis.history?.state;
  const depth = state && typeof state === 'object' ? (state as { iamDepth?: unknown }).iamDepth : undefined;
  return typeof depth === 'number' ? depth : 0;
}

/** Browser navigation that records the depth in history.state, so "back" knows whether the
 *  previous entry is still the console. */
function navigateWithDepth(to: string, options: { replace?: boolean } = {}): void {
  browserNavigate(to, { replace: options.replace, state: { iamDepth: browserDepth() + (options.replace ? 0 : 1) } });
}

const useConsoleBrowserLocation = (): [string, typeof navigateWithDepth] => [usePathname(), navigateWithDepth];

/** wouter's base: '' for '/', else the path without its trailing slash. */
export function routerBase(base: string | undefined): string {
  const trimmed = (base ?? '/').trim().replace(/\/+$/, '');
  return trimmed.startsWith('/') ? trimmed : trimmed ? `/${trimmed}` : '';
}

interface BackControl {
  /** Goes to the previous console page; answers false when there is none (the caller picks a page). */
  back: () => boolean;
}

const BackContext = createContext<BackControl>({ back: () => false });

export function useBack(): BackControl {
  return useContext(BackContext);
}

export interface ConsoleRouterProps {
  routing: Routing;
  base?: string;
  /** Memory routing: the location to show; a change navigates there. */
  route?: string;
  children: ReactNode;
}

export function ConsoleRouter({ routing, base, route, children }: ConsoleRouterProps) {
  // One memory location per mounted console; created once even if `route` changes later.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const memory = useMemo(() => (routing === 'memory' ? memoryLocation({ path: route || '/', record: true }) : undefined), [routing]);

  useEffect(() => {
    if (memory && route) memory.navigate(route);
  }, [memory, route]);

  const backControl = useMemo<BackControl>(
    () => ({
      back: () => {
        if (memory) {
          const visited = memory.history;
          if (visited.length < 2) return false;
          visited.pop();
          memory.navigate(visited[visited.length - 1] ?? '/', { replace: true });
          return true;
        }
        if (browserDepth() < 1) return false;
        history.back();
        return true;
      },
    }),
    [memory],
  );

  return (
    <BackContext.Provider value={backControl}>
      {memory ? (
        <Router hook={memory.hook} searchHook={memory.searchHook}>
          {children}
        </Router>
      ) : (
        <Router hook={useConsoleBrowserLocation} base={routerBase(base)}>
          {children}
        </Router>
      )}
    </BackContext.Provider>
  );
}

/** The navigate function of the console's router (paths relative to the base). */
export function useNavigate(): (to: string, options?: { replace?: boolean }) => void {
  return useLocation()[1];
}
