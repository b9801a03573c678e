// The core has no router: it asks the UI to navigate through this store, and the UI's router
// reports where it is (memory routing in uiEmbed mode never touches the host page's URL).
import { atom } from 'nanostores';

export interface NavigationRequest {
  /** An in-app path (`/login?redirect=…`) or an absolute URL (an SSO page) to leave the app for. */
  path: string;
  /** Increases with every request, so asking twice for the same path is still a change. */
  id: number;
}

/** The latest navigation the core asked for; the UI router follows it. */
export const $navigationRequest = atom<NavigationRequest | undefined>(undefined);
/** The location (path + query) the UI router shows; set by the router. */
export const $currentLocation = atom<string | undefined>(undefined);

let nextId = 1;

export function requestNavigation(path: string): void {
  $navigationRequest.set({ path, id: nextId++ });
}

/** The router reports its location here. */
export function setCurrentLocation(location: string): void {
  $currentLocation.set(location);
}

/** The current in-app location: what the router reported, else the page's own URL, else '/'. */
export function currentLocation(): string {
  const reported = $currentLocation.get();
  if (reported !== undefined) return reported;
  const page = globalThis.location;
  return page ? `${page.pathname}${page.search}` : '/';
}
