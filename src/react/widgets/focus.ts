// The focused element, looked for through shadow roots: document.activeElement stops at a shadow
// host, so inside the console it is always <iam-console> itself.

export function deepActiveElement(): HTMLElement | null {
  let element = document.activeElement;
  while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
  return element instanceof HTMLElement ? element : null;
}
