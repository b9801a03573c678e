// The consuming side of <iam-provider>: an iam-* element asks for the context when it connects
// (a composed `context-request` event, so it crosses shadow roots) and writes what the provider
// passes as its own attributes, except those the page set on the element itself.
import { ContextEvent, ContextRoot } from '@lit/context';
import { iamContext, providedAttributes, type IamProvided } from './context';

interface Consumption {
  /** Attribute names the element had from the page before any provider value: never overwritten. */
  own: Set<string>;
  /** Attribute names written from a provider value (only these are removed when it drops one). */
  applied: Set<string>;
  unsubscribe?: () => void;
}

const consumptions = new WeakMap<HTMLElement, Consumption>();

/** A provider defined (or connected) after its consumers answers their earlier requests: a
 *  ContextRoot on the document replays them. One per document, whichever bundle copy comes first. */
function ensureContextRoot(doc: Document): void {
  const flag = Symbol.for('iam-console.context-root');
  const marked = doc as unknown as Record<symbol, boolean>;
  if (marked[flag]) return;
  marked[flag] = true;
  new ContextRoot().attach(doc.documentElement);
}

function apply(element: HTMLElement, { own, applied }: Consumption, value: IamProvided): void {
  for (const name of providedAttributes) {
    if (own.has(name)) continue;
    const provided = value[name];
    if (provided === undefined) {
      if (applied.delete(name)) element.removeAttribute(name);
    } else {
      applied.add(name);
      if (element.getAttribute(name) !== provided) element.setAttribute(name, provided);
    }
  }
}

/** Subscribes `element` to the nearest <iam-provider> (call it on connect, before rendering). */
export function consumeProvider(element: HTMLElement): void {
  let consumption = consumptions.get(element);
  if (!consumption) {
    consumption = { own: new Set(providedAttributes.filter((name) => element.hasAttribute(name))), applied: new Set() };
    consumptions.set(element, consumption);
  }
  const current = consumption;
  ensureContextRoot(element.ownerDocument);
  element.dispatchEvent(
    new ContextEvent(
      iamContext,
      element,
      (value, unsubscribe) => {
        if (unsubscribe && current.unsubscribe !== unsubscribe) {
          current.unsubscribe?.();
          current.unsubscribe = unsubscribe;
        }
        apply(element, current, value);
      },
      true,
    ),
  );
}

/** Ends the subscription (call it on disconnect: the element may be re-added elsewhere). */
export function releaseProvider(element: HTMLElement): void {
  const consumption = consumptions.get(element);
  consumption?.unsubscribe?.();
  if (consumption) consumption.unsubscribe = undefined;
}
