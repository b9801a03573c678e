// The one wrapper behind <iam-console>, <iam-profile-dialog> and <iam-password-dialog>: a React
// app rendered by r2wc into an open shadow root that adopts the shared constructed stylesheet,
// with pre-upgrade properties, <iam-provider> context and boolean attributes handled once here.
import type { ComponentType } from 'react';
import { adoptStyles } from '../react/theme/sheet';
import { emit, reactElement, upgradeProperties, type ReactElementBase } from './define';
import { booleanAttributes, reactProps, type AttributeTable } from './attribute-spec';
import { consumeProvider, releaseProvider } from './provider/consume';

export interface ShadowElementOptions<Props> {
  /** The element's attribute table (./attributes.ts): its props and boolean attributes. */
  attributes: AttributeTable;
  /** Callbacks the app receives: methods of the element class (r2wc `method` props). */
  methods: readonly (keyof Props & string)[];
}

/** The element class for `component`; subclasses add the `method` callbacks and the typings. */
export function shadowReactElement<Props extends object>(
  component: ComponentType<Props>,
  { attributes, methods }: ShadowElementOptions<Props>,
): new () => ReactElementBase {
  const attributeProps = reactProps(attributes);
  const props = { ...attributeProps, ...Object.fromEntries(methods.map((name) => [name, 'method'])) };
  const Base = reactElement<Props>(component, { shadow: 'open', props } as Parameters<typeof reactElement<Props>>[1]);
  // Properties a page may set before the element is defined (callbacks are the element's own).
  const upgraded = Object.keys(attributeProps);
  // Attributes on when present (`<iam-console ui-embed>`), unless written "false". r2wc reads an
  // attribute only when its value is non-empty and ignores its removal, so these reach it as
  // "true"/"false".
  const booleans = new Set(booleanAttributes(attributes));

  return class ShadowReactElement extends Base {
    constructor() {
      super();
      // The shadow root exists now (r2wc attaches it in its constructor).
      if (this.shadowRoot) adoptStyles(this.shadowRoot);
    }

    override connectedCallback(): void {
      upgradeProperties(this, upgraded);
      // Before the first render, so that it already uses an enclosing <iam-provider>'s values.
      consumeProvider(this);
      super.connectedCallback();
    }

    override disconnectedCallback(): void {
      releaseProvider(this);
      super.disconnectedCallback();
    }

    override attributeChangedCallback(name: string, previous: string | null, value: string | null): void {
      const normalised = booleans.has(name) ? String(value !== null && value !== 'false') : value;
      super.attributeChangedCallback(name, previous, normalised);
    }
  };
}

/** A dialog element closed itself (Esc, Cancel, saved): drop `open` and tell the page. */
export function dialogClosed(element: HTMLElement): void {
  element.removeAttribute('open');
  emit(element, 'iam-close', {});
}
