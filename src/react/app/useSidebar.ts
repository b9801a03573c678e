// The side menu's state: collapsed or open on wide screens (kept in localStorage);
// below 992 px forced closed, opened as a drawer on demand and closed again on route change.
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { LAYOUT } from '../../core/config';
import { saveSidebarCollapsed, storedSidebarCollapsed } from './preferences';

const MOBILE_QUERY = `(max-width: ${LAYOUT.mobileBreakpoint - 0.02}px)`;

function subscribeToMobile(onChange: () => void): () => void {
  const query = globalThis.matchMedia?.(MOBILE_QUERY);
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
}

const isMobile = () => globalThis.matchMedia?.(MOBILE_QUERY).matches ?? false;

function useIsMobile(): boolean {
  return useSyncExternalStore(subscribeToMobile, isMobile, () => false);
}

export interface SidebarState {
  mobile: boolean;
  /** Wide screens: icons only (54 px). */
  collapsed: boolean;
  /** Narrow screens: the drawer is shown. */
  drawerOpen: boolean;
  toggle: () => void;
  closeDrawer: () => void;
}

export function useSidebar(currentPath: string): SidebarState {
  const mobile = useIsMobile();
  const [collapsed, setCollapsed] = useState(storedSidebarCollapsed);
  const [drawerOpen, setDrawerOpen] = useState(false);

  useEffect(() => {
    setDrawerOpen(false);
  }, [currentPath, mobile]);

  const toggle = useCallback(() => {
    if (mobile) {
      setDrawerOpen((open) => !open);
      return;
    }
    setCollapsed((previous) => {
      saveSidebarCollapsed(!previous);
      return !previous;
    });
  }, [mobile]);

  const closeDrawer = useCallback(() => setDrawerOpen(false), []);

  return { mobile, collapsed: !mobile && collapsed, drawerOpen: mobile && drawerOpen, toggle, closeDrawer };
}
