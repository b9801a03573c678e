// <iam-provider>: an optional context root. Its `api-base`, `locale` and `theme` reach every iam-*
// element inside it, in the light DOM or inside other elements' shadow roots (@lit/context's
// composed `context-request` events). An element's own attribute wins over the provider's.
import { ContextProvider } from '@lit/context';
import { defineElement, dom, upgradeProperties } from '../define';
import { iamContext, providedAttributes, type IamProvided } from './context';

/** HTMLElement, or a stand-in where there is no DOM: a host's server render imports the entries in
 *  Node (see src/elements/define.ts). */
const ElementBase = (dom ? HTMLElement : Object) as typeof HTMLElement;

/**
 * Optional context root: passes its attributes to every iam-* element inside it.
 * @tag iam-provider
 */
export class IamProviderElement extends ElementBase {
  static get observedAttributes(): readonly string[] {
    return providedAttributes;
  }

  readonly #provider = new ContextProvider(this, { context: iamContext, initialValue: this.#read() });

  /** Base of the API passed down, e.g. `/api`. */
  get apiBase(): string | null {
    return this.getAttribute('api-base');
  }
  set apiBase(value: string | null) {
    this.#reflect('api-base', value);
  }

  /** `en` or `zh`, passed down. */
  get locale(): string | null {
    return this.getAttribute('locale');
  }
  set locale(value: string | null) {
    this.#reflect('locale', value);
  }

  /** `dark` or `light`, passed down. */
  get theme(): string | null {
    return this.getAttribute('theme');
  }
  set theme(value: string | null) {
    this.#reflect('theme', value);
  }

  connectedCallback(): void {
    upgradeProperties(this, ['apiBase', 'locale', 'theme']);
    // Announces itself, so that consumers which asked before it existed ask again (ContextRoot).
    this.#provider.hostConnected();
  }

  attributeChangedCallback(): void {
    this.#provider.setValue(this.#read());
  }

  #read(): IamProvided {
    const value: IamProvided = {};
    for (const name of providedAttributes) {
      const attribute = this.getAttribute(name);
      if (attribute !== null) value[name] = attribute;
    }
    return value;
  }

  #reflect(name: string, value: string | null): void {
    if (value === null) this.removeAttribute(name);
    else this.setAttribute(name, value);
  }
}

export function defineIamProvider(): void {
  defineElement('iam-provider', IamProviderElement);
}
