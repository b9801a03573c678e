// <iam-login>: the sign-in form as a custom element. The form renders in the light DOM (password
// managers must see it); the shared stylesheet is adopted on the element's root node (the
// document, or the shadow root of the element that contains it).
import { LoginElementApp, type LoginErrorDetail, type LoginSubmitDetail, type LoginSuccessDetail } from '../react/login/LoginForm';
import { adoptStyles } from '../react/theme/sheet';
import { defineElement, emit, reactElement, rootOf, upgradeProperties } from './define';
import { consumeProvider, releaseProvider } from './provider/consume';
import { reactProps } from './attribute-spec';
import type { PropertiesOf } from './attributes';
import { loginAttributes } from './login-attributes';

/** Properties a page may set before the element is defined. */
const upgraded = Object.values(loginAttributes).map((spec) => spec.property);

const Base = reactElement(LoginElementApp, {
  props: {
    ...reactProps(loginAttributes),
    // r2wc passes these methods of the element to the form as its callbacks.
    onLoginSubmit: 'method',
    onLoginSuccess: 'method',
    onLoginError: 'method',
  },
});

/** `url` resolved against the page, when it stays on the page's origin. */
function sameOrigin(url: string): URL | undefined {
  try {
    const target = new URL(url, location.href);
    return target.origin === location.origin ? target : undefined;
  } catch {
    return undefined;
  }
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the attribute table types the properties r2wc defines
export interface IamLoginElement extends PropertiesOf<'iam-login'> {}

/**
 * The sign-in form, rendered in the light DOM so that password managers see it.
 *
 * Passkeys: where the server allows it, the form offers "Sign in with a passkey", passkeys in the
 * username field's autofill (`autocomplete="username webauthn"`) and a passkey as the second step;
 * a passkey sign-in fires `iam-login-success` (the username read from the new session) without
 * `iam-login-submit`. On a page of another origin (token mode) this works only when that origin is
 * listed in `IAM_WEBAUTHN_ORIGINS` (besides `IAM_CORS_ORIGINS`, which token mode needs anyway) and
 * its host is the RP ID (`IAM_WEBAUTHN_RP_ID`) or below it, e.g.
 * `https://shop.example.com` for the RP ID `example.com` (docs/configuration.md); elsewhere every
 * passkey control is hidden and the password works as before. Not supported: a page on another
 * registrable domain (`example.org` for `example.com`: the server lists no related origins at
 * `/.well-known/webauthn`), a host that is an IP address, `http://` other than localhost, and the
 * form in a cross-origin iframe without `allow="publickey-credentials-get *"`. Passkeys are added
 * in the console's personal center, on an origin of the list. A person whose second step is the
 * passkey (the `PASSKEY` policy, or an administrator under `adminStrongFactor` whose strong factor is
 * a passkey) can always answer it with one of their recovery codes instead ("Use a recovery code
 * instead"); on a page where passkeys are hidden the step asks for a recovery code straight away, so
 * such a person needs a listed origin or a recovery code there.
 * @tag iam-login
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface above
export class IamLoginElement extends Base {
  /** `dark` (default) or `light`; the stylesheet selects the theme by this attribute. */
  get theme(): string {
    return this.getAttribute('theme') ?? 'dark';
  }
  set theme(value: string) {
    this.setAttribute('theme', value);
  }

  /** Where to go after a successful sign-in (same origin only); without it only the event fires. */
  get redirect(): string | null {
    return this.getAttribute('redirect');
  }
  set redirect(value: string | null) {
    if (value === null) this.removeAttribute('redirect');
    else this.setAttribute('redirect', value);
  }

  override connectedCallback(): void {
    upgradeProperties(this, upgraded);
    adoptStyles(rootOf(this));
    // Before the first render, so that it already uses an enclosing <iam-provider>'s values.
    consumeProvider(this);
    super.connectedCallback();
  }

  override disconnectedCallback(): void {
    releaseProvider(this);
    super.disconnectedCallback();
  }

  onLoginSubmit(detail: LoginSubmitDetail): void {
    emit(this, 'iam-login-submit', detail);
  }

  onLoginSuccess(detail: LoginSuccessDetail): void {
    const proceed = emit(this, 'iam-login-success', detail, true);
    const target = this.redirect === null ? undefined : sameOrigin(this.redirect);
    if (proceed && target) location.assign(target.href);
  }

  onLoginError(detail: LoginErrorDetail): void {
    emit(this, 'iam-error', detail);
  }
}

export function defineIamLogin(): void {
  defineElement('iam-login', IamLoginElement);
}
