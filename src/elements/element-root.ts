// The React root of an element, made so that it leaves the page's document to the host.
//
// React marks every container it listens on, and creating any root also marks the container's
// document (where React listens for `selectionchange`) with the same mark. A host that hydrates the
// document itself (React Router's framework mode, Next.js App Router: `hydrateRoot(document, …)`)
// and shares this React finds the document marked when an element rendered first, and attaches
// none of its event listeners: every onClick of the host is dead, with nothing logged. So the mark
// this root put on the document is taken off again; the element's own listeners stay on its
// container (its shadow root, or the element in the light DOM), and a later root on the document
// listens there as it would without the elements.
import { createElement, type ComponentType } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import type { R2WCRenderer } from '@r2wc/core';

/** React names its listening mark `_reactListening` followed by a random suffix per React copy. */
const listeningMarks = (document: Document): string[] => Object.keys(document).filter((key) => key.startsWith('_reactListening'));

/** `createRoot(container)`, without leaving React's listening mark on the document. */
function createElementRoot(container: Element | DocumentFragment): Root {
  const document = container.ownerDocument;
  const before = new Set(listeningMarks(document));
  const root = createRoot(container);
  for (const mark of listeningMarks(document)) if (!before.has(mark)) delete (document as unknown as Record<string, unknown>)[mark];
  return root;
}

interface Mounted<Props> {
  root: Root;
  component: ComponentType<Props>;
}

/** How r2wc mounts, updates and unmounts an element's React app. */
export function elementRenderer<Props extends object>(): R2WCRenderer<Props, Mounted<Props>> {
  return {
    mount(container, component, props) {
      const root = createElementRoot(container);
      root.render(createElement(component, props));
      return { root, component };
    },
    update({ root, component }, props) {
      root.render(createElement(component, props));
    },
    unmount({ root }) {
      root.unmount();
    },
  };
}
