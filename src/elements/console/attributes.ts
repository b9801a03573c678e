// r2wc reads an attribute only when its value is non-empty, and ignores its removal. For boolean
// attributes (`ui-embed`, `open`) presence is what counts: the elements pass r2wc "true"/"false".
import type { ReactElementBase } from '../define';

interface AttributeCallback {
  attributeChangedCallback(name: string, previous: string | null, value: string | null): void;
}

/** Forwards an attribute change to r2wc's element class, with boolean attributes normalised. */
export function forwardAttribute(
  base: new () => ReactElementBase,
  element: HTMLElement,
  booleans: ReadonlySet<string>,
  [name, previous, value]: [string, string | null, string | null],
): void {
  const normalised = booleans.has(name) ? String(value !== null && value !== 'false') : value;
  (base.prototype as unknown as AttributeCallback).attributeChangedCallback.call(element, name, previous, normalised);
}
