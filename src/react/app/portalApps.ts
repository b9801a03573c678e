// The apps of the portal the signed-in person may open: the multi-app menu list answers every
// app's menu with only the items the caller may see; an app with a visible item is theirs to open
// (the home page's apps, and the unified top menu).
import type { MultiAppMenu } from '../../core/api/menus';
import type { OwnedApp } from '../../core/types';

export function appsFromMenus(menus: readonly MultiAppMenu[]): OwnedApp[] {
  return menus.flatMap((menu) => {
    const { appId, appName, entrypoint } = menu;
    if (typeof appId !== 'string' || !appId || typeof appName !== 'string') return [];
    if (!Array.isArray(menu.menus) || !menu.menus.length) return [];
    return [{ id: appId, name: appName, entrypoint: typeof entrypoint === 'string' ? entrypoint : undefined }];
  });
}

/** Each app once (the first occurrence wins), in order. */
export function uniqueApps(...lists: readonly (readonly OwnedApp[])[]): OwnedApp[] {
  const byId = new Map<string, OwnedApp>();
  for (const app of lists.flat()) if (!byId.has(app.id)) byId.set(app.id, app);
  return [...byId.values()];
}
