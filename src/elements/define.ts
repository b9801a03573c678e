// Helpers every iam-* element uses.
import r2wc, { type R2WCOptions } from '@r2wc/core';
import type { ComponentType } from 'react';
import { elementRenderer } from './element-root';

/**
 * False where there is no DOM: a host's server render (Next.js, Nuxt, SvelteKit, Angular SSR)
 * imports the page's modules in Node. Importing an entry there must neither throw nor define
 * anything; the browser defines the elements when it loads the same modules. The registry decides,
 * not HTMLElement alone: Angular's server platform puts domino's HTMLElement on globalThis, without
 * `customElements`.
 */
export const dom = typeof HTMLElement == 'function' && typeof customElements == 'object';

/** Defines `name` unless it already is (two copies of the bundle, or both entries on one page), or
 *  there is no DOM (a server render). */
export function defineElement(name: string, constructor: CustomElementConstructor): void {
  if (dom && !customElements.get(name)) customElements.define(name, constructor);
}

/** The lifecycle r2wc's element class implements (its typings only say CustomElementConstructor). */
export interface ReactElementBase extends HTMLElement {
  connectedCallback(): void;
  disconnectedCallback(): void;
  attributeChangedCallback(name: string, previous: string | null, value: string | null): void;
}

/** r2wc, typed so that subclasses can extend the lifecycle. It renders asynchronously, in a root
 *  that leaves the document to the host (./element-root.ts).
 *  @internal (left out of the published typings, which would otherwise need r2wc's). */
export function reactElement<Props extends object>(component: ComponentType<Props>, options: R2WCOptions<Props>): new () => ReactElementBase {
  // r2wc's class extends HTMLElement as it is made; without a DOM a stand-in, never instantiated.
  return (dom ? r2wc(component, options, elementRenderer<Props>()) : Object) as new () => ReactElementBase;
}

/**
 * A property set on the element before its class was defined (pre-upgrade) is an own property
 * that hides the class's accessor: remove it and set it again through the accessor.
 */
export function upgradeProperties(element: HTMLElement, names: readonly string[]): void {
  const record = element as unknown as Record<string, unknown>;
  for (const name of names) {
    if (!Object.hasOwn(element, name)) continue;
    const value = record[name];
    delete record[name];
    record[name] = value;
  }
}

/** Dispatches an iam-* event that crosses shadow roots; answers false when a listener cancelled it. */
export function emit<Detail>(target: EventTarget, type: string, detail: Detail, cancelable = false): boolean {
  return target.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable }));
}

/** The document or shadow root the element is connected to. */
export function rootOf(element: Node): Document | ShadowRoot {
  const root = element.getRootNode();
  return root instanceof ShadowRoot ? root : (element.ownerDocument ?? document);
}
