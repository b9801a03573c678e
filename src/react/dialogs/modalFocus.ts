// Keyboard focus and background for a modal dialog rendered inside a shadow root. Radix's FocusScope
// reads document.activeElement and listens for focus events on the document, and both stop at the
// shadow host: it never sees the focus on the dialog's first or last control (so Tab leaves the
// dialog), and it takes its own first field for "nothing focused" (so it focuses the dialog box).
// These helpers look through shadow roots instead; useShadowModal puts them on a Dialog.Content.
import { useLayoutEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { useConsole } from '../app/context';
import { deepActiveElement } from '../widgets/focus';

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]';

/** The controls of `container` that Tab stops on, in document order. */
function tabbables(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (element) =>
      element.tabIndex >= 0 &&
      !(element as HTMLButtonElement).disabled &&
      !(element instanceof HTMLInputElement && element.type === 'hidden') &&
      element.checkVisibility(),
  );
}

/** Tab on the last control goes to the first, Shift+Tab on the first to the last. */
function keepTabInside(event: KeyboardEvent, container: HTMLElement): void {
  if (event.defaultPrevented || event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey) return;
  const stops = tabbables(container);
  const focused = deepActiveElement(container);
  const first = stops[0];
  const last = stops[stops.length - 1];
  const wrapTo =
    !first || !last ? container : event.shiftKey ? (focused === first || focused === container ? last : undefined) : focused === last ? first : undefined;
  if (!wrapTo) return;
  event.preventDefault();
  wrapTo.focus();
}

/**
 * Where the focus goes when a dialog opens: its first field, else its primary action (a
 * confirmation), else its first control, else the dialog itself.
 */
function focusInitial(container: HTMLElement, body: Element | null): void {
  const stops = tabbables(container);
  const first =
    stops.find((element) => body?.contains(element) && element.matches('input, select, textarea')) ??
    stops.find((element) => element.matches('[part~="primary-button"]')) ??
    stops.find((element) => body?.contains(element));
  (first ?? container).focus();
}

/**
 * Makes everything in the dialog's root (the console's shadow root) inert except the dialog, its
 * scrim and the live regions marked `data-stays-live` (toasts must still be announced). Answers
 * the undo.
 */
function inertOutside(dialog: HTMLElement, keep: (element: Element) => boolean): () => void {
  const changed: HTMLElement[] = [];
  for (let node: HTMLElement = dialog; node.parentElement; node = node.parentElement) {
    for (const sibling of node.parentElement.children) {
      if (sibling === node || !(sibling instanceof HTMLElement) || sibling.inert || sibling.hasAttribute('data-stays-live') || keep(sibling)) continue;
      sibling.inert = true;
      changed.push(sibling);
    }
  }
  return () => {
    for (const element of changed) element.inert = false;
  };
}

/** Who opened a dialog: the focused element, or for an item of a menu (which closes as the dialog
 *  opens) the button of that menu, which Radix names as the menu's label. */
function openerOf(focused: HTMLElement | null): HTMLElement | null {
  const menu = focused?.closest('[role="menu"][aria-labelledby]');
  const id = menu?.getAttribute('aria-labelledby');
  const root = menu?.getRootNode();
  const button = id && (root instanceof ShadowRoot || root instanceof Document) ? root.getElementById(id) : null;
  return button instanceof HTMLElement ? button : focused;
}

/**
 * The props that make a Radix Dialog.Content modal inside a shadow root: aria-modal, the focus on
 * its first field (looked for in `fields`, else the whole content) and back on the opener when it
 * closes (Radix would give it to what document.activeElement was: the host), Tab kept inside, and
 * the rest of the root inert except the scrim (`overlayClass`).
 */
export function useShadowModal(overlayClass: string, fields?: { current: Element | null }) {
  // Where the dialog renders: the focus is looked for through the shadow roots around it (a host
  // component's closed one too).
  const { portalContainer } = useConsole();
  const opener = useRef<HTMLElement | null>(null);
  const [content, setContent] = useState<HTMLDivElement | null>(null);
  // The opener is also read while the dialog is not up yet, in the render that opens it: that
  // render comes before the commit that opens it, which may also remove a menu (and its focused
  // item) the dialog was opened from, so by onOpenAutoFocus the focus can already be on nothing (a
  // dialog whose code is loaded mounts in that same commit; one still loading mounts later, after
  // the menu gave the focus back to its button).
  const beforeOpening = useRef<HTMLElement | null>(null);
  if (!content) beforeOpening.current = openerOf(deepActiveElement(portalContainer));
  const returnFocus = () => {
    if (opener.current?.isConnected) opener.current.focus();
  };
  // A layout effect: its cleanup runs in the same task that removes the dialog, so the focus is
  // back on the opener at once (Radix gives it back later, on a timer).
  useLayoutEffect(() => {
    if (!content) return;
    const undoInert = inertOutside(content, (element) => element.classList.contains(overlayClass));
    return () => {
      undoInert();
      const focused = deepActiveElement(content);
      if (!focused || focused === document.body || content.contains(focused)) returnFocus();
    };
  }, [content, overlayClass]);
  return {
    ref: setContent,
    'aria-modal': true,
    onOpenAutoFocus: (event: Event) => {
      event.preventDefault();
      const focused = openerOf(deepActiveElement(portalContainer));
      opener.current = focused && focused !== document.body ? focused : beforeOpening.current;
      const container = event.currentTarget as HTMLElement;
      focusInitial(container, fields?.current ?? container);
    },
    onCloseAutoFocus: (event: Event) => {
      event.preventDefault();
      if (deepActiveElement(portalContainer) === document.body) returnFocus();
    },
    onKeyDown: (event: ReactKeyboardEvent<HTMLDivElement>) => keepTabInside(event.nativeEvent, event.currentTarget),
  };
}
