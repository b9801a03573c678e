// The portal's menus as the signed-in person may see them (the multi-app menu list: every
// plan's items, those bound to privileges they lack already removed), read once per session and
// shared by the side menu (the global plan), the unified top menu and the home page (the apps).
import { useEffect } from 'react';
import { atom } from 'nanostores';
import { useStore } from '../store';
import { appMenuList, type AppMenu } from '../../core/api/menu-plans';
import { $session } from '../../core/session';
import type { OwnedApp } from '../../core/types';

const $portalMenus = atom<readonly AppMenu[] | undefined>(undefined);
let readFor: string | undefined;

/** The menus, read for the current session (undefined while they load). A failed read answers []. */
export function usePortalMenus(): readonly AppMenu[] | undefined {
  const sessionId = useStore($session).id;
  useEffect(() => {
    if (!sessionId || readFor === sessionId) return;
    readFor = sessionId;
    $portalMenus.set(undefined);
    appMenuList().then(
      (menus) => readFor === sessionId && $portalMenus.set(menus),
      () => readFor === sessionId && $portalMenus.set([]),
    );
  }, [sessionId]);
  return useStore($portalMenus);
}

/** The global plan's items (the console's own menu), when there is a global plan. */
export function globalPlanItems(menus: readonly AppMenu[] | undefined): AppMenu['menus'] | undefined {
  return menus?.find((menu) => menu.appId === null)?.menus;
}

/** An app of the portal; `saml`: opened by IdP-initiated SAML sign-in rather than its entrypoint. */
export type PortalApp = OwnedApp & { saml?: boolean };

/** The apps the person may open: an app with a visible item in its plan. */
export function appsFromMenus(menus: readonly AppMenu[] | undefined): PortalApp[] {
  return (menus ?? []).flatMap((menu) =>
    menu.appId && menu.menus.length ? [{ id: menu.appId, name: menu.appName, entrypoint: menu.entrypoint ?? undefined, saml: menu.saml }] : [],
  );
}

/** Each app once (the first occurrence wins), in order. */
export function uniqueApps(...lists: readonly (readonly PortalApp[])[]): PortalApp[] {
  const byId = new Map<string, PortalApp>();
  for (const app of lists.flat()) if (!byId.has(app.id)) byId.set(app.id, app);
  return [...byId.values()];
}
