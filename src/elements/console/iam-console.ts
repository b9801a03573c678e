// <iam-console>: the whole console as a custom element. It renders into an open shadow root that
// adopts the shared constructed stylesheet; Radix portals stay inside it. Its attributes are in
// the table of ../attributes.ts. Events (bubbling, composed): iam-navigate, iam-logout, iam-error.
import { ConsoleApp, type ConsoleAppProps } from '../../react/app/ConsoleApp';
import type { ConsoleErrorDetail, LogoutDetail, NavigateDetail } from '../../react/app/context';
import { defineElement, emit } from '../define';
import { shadowReactElement } from '../shadow-element';
import type { PropertiesOf } from '../attributes';
import { consoleAttributes } from './attributes';
import { RouteFollower } from './route-follower';

const Base = shadowReactElement<ConsoleAppProps>(ConsoleApp, {
  attributes: consoleAttributes,
  // r2wc passes these methods of the element to the app as its callbacks.
  methods: ['onNavigate', 'onLogout', 'onError', 'onThemeChange'],
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

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the attribute table types the properties r2wc defines
export interface IamConsoleElement extends PropertiesOf<'iam-console'> {}

/**
 * The whole console in an open shadow root.
 * @tag iam-console
 * @csspart header - The top bar.
 * @csspart sidebar - The side menu.
 * @csspart content - The screen area.
 * @csspart primary-button - Primary buttons.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface above
export class IamConsoleElement extends Base {
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
