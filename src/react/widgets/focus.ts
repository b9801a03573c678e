// The focused element, looked for through shadow roots: document.activeElement stops at a shadow
// host, so inside the console it is always <iam-console> itself. A closed shadow root (a host
// component's) hides its focus from the page (`shadowRoot` is null); the roots that contain `within`
// are known to the code of that node, closed ones included, so the search goes on through those.

/** The shadow roots that contain `node`, by their hosts. */
function rootsAround(node: Node | null | undefined): Map<Element, ShadowRoot> {
  const roots = new Map<Element, ShadowRoot>();
  for (let root = node?.getRootNode(); root instanceof ShadowRoot; root = root.host.getRootNode()) roots.set(root.host, root);
  return roots;
}

/** The focused element through open shadow roots and those that contain `within`. */
export function deepActiveElement(within?: Node | null): HTMLElement | null {
  const known = rootsAround(within);
  let element = document.activeElement;
  for (;;) {
    const root = element?.shadowRoot ?? (element ? known.get(element) : undefined);
    if (!root?.activeElement) break;
    element = root.activeElement;
  }
  return element instanceof HTMLElement ? element : null;
}
