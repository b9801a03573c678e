// <iam-login>: the sign-in form as a custom element. The form renders in the light DOM (password
// managers must see it); the shared stylesheet is adopted on the element's root node (the
// document, or the shadow root of the element that contains it).
import { LoginForm, type LoginErrorDetail, type LoginSubmitDetail, type LoginSuccessDetail } from '../react/login/LoginForm';
import { adoptStyles } from '../react/theme/sheet';
import { defineElement, emit, reactElement, rootOf, upgradeProperties } from './define';
import { consumeProvider, releaseProvider } from './provider/consume';

/** Attributes that only the element reads (the form never sees them). `nonce` is the standard
 *  HTMLElement property: the element injects no <style> and no script, so it needs none today. */
const elementAttributes = ['theme', 'redirect'] as const;
const formProps = ['apiBase', 'locale', 'authMode', 'tokenName'] as const;

const Base = reactElement(LoginForm, {
  props: {
    apiBase: 'string',
    locale: 'string',
    authMode: 'string',
    tokenName: 'string',
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

/**
 * The sign-in form, rendered in the light DOM so that password managers see it.
 * @tag iam-login
 * @attr {string} api-base - Base of the API (default `/api`).
 * @attr {'en' | 'zh'} locale - Language (default `en`).
 * @attr {'cookie' | 'token'} auth-mode - `token` for pages on another origin: the token stays in memory.
 * @attr {string} token-name - The header carrying the token in token mode (default `token`).
 * @attr {'dark' | 'light'} theme - Colour theme (default `dark`).
 * @attr {string} redirect - Where to go after a successful sign-in (same origin only).
 * @fires {CustomEvent<LoginSubmitDetail>} iam-login-submit - The form was submitted (detail: username).
 * @fires {CustomEvent<LoginSuccessDetail>} iam-login-success - Signed in; cancelable (keeps `redirect` from navigating).
 * @fires {CustomEvent<LoginErrorDetail>} iam-error - The sign-in was refused (detail: message).
 * @cssprop --iam-color-primary - Primary colour (every `--iam-*` token of the theme may be overridden).
 */
export class IamLoginElement extends Base {
  /** Base of the API, default `/api`. */
  declare apiBase: string | undefined;
  /** `en` (default) or `zh`. */
  declare locale: string | undefined;
  /** `cookie` (default) or `token`. */
  declare authMode: string | undefined;
  /** The header that carries the token in token mode, default `token`. */
  declare tokenName: string | undefined;

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
    upgradeProperties(this, [...formProps, ...elementAttributes]);
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
