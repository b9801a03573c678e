// What the console's components need from the element that hosts them: where portals go (inside
// the shadow root, where the stylesheet is), the theme, the embedding mode and the host events.
import { createContext, useContext } from 'react';
import type { Theme } from '../../core/enums';

export interface NavigateDetail {
  /** The in-app location (path + query), or an absolute URL when `external`. */
  path: string;
  /** The route's document title ("route name – app name"); absent for external targets. */
  title?: string;
  /** The console leaves for another site (an SSO page); in memory routing the host decides. */
  external?: boolean;
}
export interface LogoutDetail {
  redirectURL: string;
}
export interface ConsoleErrorDetail {
  message: string;
}

/** The host events of <iam-console> (bubbling, composed CustomEvents dispatched by the element). */
export interface ConsoleEvents {
  onNavigate?: (detail: NavigateDetail) => void;
  onLogout?: (detail: LogoutDetail) => void;
  onError?: (detail: ConsoleErrorDetail) => void;
  /** The person switched the theme: the element reflects it to its `theme` attribute. */
  onThemeChange?: (theme: Theme) => void;
}

/** Where the API is (the element's api-base, auth-mode, token-name), for parts that set it up
 *  themselves (the sign-in form). */
export interface Connection {
  apiBase?: string;
  authMode?: string;
  tokenName?: string;
}

export interface ConsoleEnvironment extends ConsoleEvents {
  connection: Connection;
  /** Where Radix portals (dialogs, menus) render: an element inside the console's root. */
  portalContainer: HTMLElement | null;
  theme: Theme;
  setTheme: (theme: Theme) => void;
  /** uiEmbed: no top bar and no side menu; the host draws its own chrome. */
  uiEmbed: boolean;
  /** 'memory' never touches the page's URL or title (embedding); 'history' is standalone. */
  routing: 'history' | 'memory';
}

const defaults: ConsoleEnvironment = {
  connection: {},
  portalContainer: null,
  theme: 'dark',
  setTheme: () => undefined,
  uiEmbed: false,
  routing: 'history',
};

export const ConsoleContext = createContext<ConsoleEnvironment>(defaults);

export function useConsole(): ConsoleEnvironment {
  return useContext(ConsoleContext);
}
