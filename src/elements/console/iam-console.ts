// <iam-console>: the whole console as a custom element. It renders into an open shadow root that
// adopts the shared constructed stylesheet; Radix portals stay inside it. Attributes: api-base,
// locale, theme, ui-embed, routing (history | memory), base, route, auth-mode, token-name.
// Events (bubbling, composed): iam-navigate, iam-logout, iam-error.
import { ConsoleApp, type ConsoleAppProps } from '../../react/app/ConsoleApp';
import type { ConsoleErrorDetail, LogoutDetail, NavigateDetail } from '../../react/app/context';
import { defineElement, emit } from '../define';
import { shadowReactElement } from '../shadow-element';
import type { IamCommonAttributes, JsxElementProps } from '../types';
import { RouteFollower } from './route-follower';

const Base = shadowReactElement<ConsoleAppProps>(ConsoleApp, {
  booleanAttributes: ['ui-embed'],
  props: {
    apiBase: 'string',
    locale: 'string',
    theme: 'string',
    uiEmbed: 'boolean',
    routing: 'string',
    base: 'string',
    route: 'string',
    authMode: 'string',
    tokenName: 'string',
    // r2wc passes these methods of the element to the app as its callbacks.
    onNavigate: 'method',
    onLogout: 'method',
    onError: 'method',
    onThemeChange: 'method',
  },
});

/** Each console's route follower (kept outside the class: not public API). */
const followers = new WeakMap<HTMLElement, RouteFollower>();

function followerOf(element: HTMLElement): RouteFollower {
  let follower = followers.get(element);
  if (!follower) followers.set(element, (follower = new RouteFollower()));
  return follower;
}

/** Set while the element writes `route` itself: not a request of the host. */
let reflecting = false;

/**
 * The whole console in an open shadow root.
 * @tag iam-console
 * @attr {string} api-base - Base of the API (default `/api`).
 * @attr {'en' | 'zh'} locale - Language (default `en`).
 * @attr {'cookie' | 'token'} auth-mode - `token` for pages on another origin: the token stays in memory.
 * @attr {string} token-name - The header carrying the token in token mode (default `token`).
 * @attr {'dark' | 'light'} theme - Colour theme (default `dark`).
 * @attr {boolean} ui-embed - No top bar or side menu: the host draws its own chrome.
 * @attr {'history' | 'memory'} routing - `history` (default) or `memory` (never touches the host URL).
 * @attr {string} base - History base path (default `/`).
 * @attr {string} route - The current route in memory routing; follows the console and drives it.
 * @fires {CustomEvent<NavigateDetail>} iam-navigate - The console went to another route.
 * @fires {CustomEvent<LogoutDetail>} iam-logout - The person signed out.
 * @fires {CustomEvent<ConsoleErrorDetail>} iam-error - A call failed (detail: message).
 * @csspart header - The top bar.
 * @csspart sidebar - The side menu.
 * @csspart content - The screen area.
 * @csspart primary-button - Primary buttons.
 * @cssprop --iam-color-primary - Primary colour (every `--iam-*` token of the theme may be overridden).
 */
export class IamConsoleElement extends Base {
  declare apiBase: string | undefined;
  declare locale: string | undefined;
  declare theme: string | undefined;
  declare uiEmbed: boolean | undefined;
  declare routing: string | undefined;
  declare base: string | undefined;
  declare route: string | undefined;
  declare authMode: string | undefined;
  declare tokenName: string | undefined;

  override attributeChangedCallback(name: string, previous: string | null, value: string | null): void {
    if (name === 'route' && !reflecting) followerOf(this).request(value);
    super.attributeChangedCallback(name, previous, value);
  }

  onNavigate(detail: NavigateDetail): void {
    if (this.routing === 'memory' && !detail.external) {
      // A page the host has already asked the console to leave is not news: no event, no write.
      if (!followerOf(this).accept(detail.path)) return;
      // The `route` attribute follows the console, so a host setting it again to an earlier value
      // is a change.
      if (this.getAttribute('route') !== detail.path) {
        reflecting = true;
        try {
          this.setAttribute('route', detail.path);
        } finally {
          reflecting = false;
        }
      }
    }
    emit(this, 'iam-navigate', detail);
  }

  onLogout(detail: LogoutDetail): void {
    emit(this, 'iam-logout', detail);
  }

  onError(detail: ConsoleErrorDetail): void {
    emit(this, 'iam-error', detail);
  }

  /** The person switched the theme: reflect it, so that `:host([theme="light"])` applies. */
  onThemeChange(theme: string): void {
    if (this.getAttribute('theme') !== theme) this.setAttribute('theme', theme);
  }
}

export function defineIamConsole(): void {
  defineElement('iam-console', IamConsoleElement);
}

/** The attributes of <iam-console> (for React 19 JSX in a React host). */
export interface IamConsoleAttributes extends IamCommonAttributes {
  'ui-embed'?: boolean | '';
  routing?: 'history' | 'memory';
  base?: string;
  route?: string;
}

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- React's JSX typings are a namespace
  namespace JSX {
    interface IntrinsicElements {
      'iam-console': JsxElementProps<IamConsoleElement, IamConsoleAttributes>;
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'iam-console': IamConsoleElement;
  }
  interface HTMLElementEventMap {
    'iam-navigate': CustomEvent<NavigateDetail>;
    'iam-logout': CustomEvent<LogoutDetail>;
  }
}
