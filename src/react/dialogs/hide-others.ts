// aria-hidden's hideOthers across shadow roots. Radix's modal dialog and menu hide everything but
// their content from assistive technology with aria-hidden's `hideOthers(content)`, which walks
// the document's body only: for content inside a shadow root inside another (an element inside a
// Lit app's shadow root) it finds no way down, logs an error, and hides the host's app element
// that contains the dialog, so the open dialog leaves the accessibility tree. This walks each
// tree from the content out: in every shadow root on the way, the content's branch stays and its
// siblings are hidden; then in the document's body the outermost host's branch stays. The build
// resolves Radix's `aria-hidden` import to this module (rollup.config.mjs).
import { hideOthers as hideOthersInTree } from 'aria-hidden';

type Undo = () => void;

/** Hides from assistive technology everything on the page but `target` (and what contains it). */
export function hideOthers(target: Element): Undo {
  const undos: Undo[] = [];
  let node = target;
  for (let root = node.getRootNode(); root instanceof ShadowRoot; root = node.getRootNode()) {
    // aria-hidden walks `children` from its parent node, which a shadow root has as well.
    undos.push(hideOthersInTree(node, root as unknown as HTMLElement));
    node = root.host;
  }
  undos.push(hideOthersInTree(node));
  return () => undos.forEach((undo) => undo());
}
