// Queries by role, label and visible text (what a person sees), and the wait for r2wc's
// asynchronous render.
import { waitUntil } from '@open-wc/testing';

const normalise = (text) => (text ?? '').replace(/\s+/g, ' ').trim();

/** The form control whose <label> reads `text`. */
export function byLabel(root, text) {
  const label = [...root.querySelectorAll('label')].find((candidate) => normalise(candidate.textContent) === text);
  return label?.control ?? null;
}

const roleSelectors = {
  button: 'button, [role="button"]',
  alert: '[role="alert"]',
  heading: 'h1, h2, h3, h4, h5, h6, [role="heading"]',
  textbox: 'input:not([type]), input[type="text"], input[type="email"], textarea, [role="textbox"]',
};

/** The accessible name, as far as these tests need it: aria-label, else the visible text. */
function nameOf(element) {
  return normalise(element.getAttribute('aria-label') ?? element.textContent);
}

/** The element with `role` whose accessible name is `name` (or any, without a name). */
export function byRole(root, role, name) {
  const selector = roleSelectors[role];
  if (!selector) throw new Error(`byRole: unknown role ${role}`);
  return [...root.querySelectorAll(selector)].find((element) => name === undefined || nameOf(element) === name) ?? null;
}

/** The innermost element whose visible text is exactly `text`. */
export function byText(root, text) {
  return [...root.querySelectorAll('*')].find((element) => normalise(element.textContent) === text && ![...element.children].some((child) => normalise(child.textContent) === text)) ?? null;
}

/** Waits for r2wc's asynchronous render (and the login texts) to show `label`. */
export async function rendered(element, label = 'Username') {
  await waitUntil(() => byLabel(element, label), `<iam-login> did not render the "${label}" field`, { timeout: 5000 });
  return element;
}

/** Types into an input the way a person does: the value, then an input event React listens to. */
export function type(input, value) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  setter.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}
