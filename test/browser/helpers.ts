// Queries by role, label and visible text (what a person sees), and the wait for r2wc's
// asynchronous render.
import { waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import './failure-report.js';

const normalise = (text: string | null | undefined): string => (text ?? '').replace(/\s+/g, ' ').trim();

/** The form control whose <label> reads `text`. */
export function byLabel(root: ParentNode, text: string): Found | null {
  const label = [...root.querySelectorAll('label')].find((candidate) => normalise(candidate.textContent) === text);
  return (label?.control as Found | null | undefined) ?? null;
}

/** What the queries answer: typed as any control the tests touch (an input, a button, an image),
 *  since a test reads the properties of what it found. */
export type Found = HTMLInputElement & Pick<HTMLImageElement, 'complete' | 'naturalWidth'>;

const roleSelectors: Record<string, string> = {
  button: 'button, [role="button"]',
  alert: '[role="alert"]',
  heading: 'h1, h2, h3, h4, h5, h6, [role="heading"]',
  textbox: 'input:not([type]), input[type="text"], input[type="email"], textarea, [role="textbox"]',
};

/** The accessible name, as far as these tests need it: aria-label, else the visible text. */
function nameOf(element: Element): string {
  return normalise(element.getAttribute('aria-label') ?? element.textContent);
}

/** The element with `role` whose accessible name is `name` (or any, without a name). */
export function byRole(root: ParentNode, role: string, name?: string): Found | null {
  const selector = roleSelectors[role];
  if (!selector) throw new Error(`byRole: unknown role ${role}`);
  return [...root.querySelectorAll<Found>(selector)].find((element) => name === undefined || nameOf(element) === name) ?? null;
}

/** The innermost element whose visible text is exactly `text`. */
export function byText(root: ParentNode, text: string): Found | null {
  return (
    [...root.querySelectorAll<Found>('*')].find(
      (element) => normalise(element.textContent) === text && ![...element.children].some((child) => normalise(child.textContent) === text),
    ) ?? null
  );
}

/** Waits for r2wc's asynchronous render (and the login texts) to show `label`. */
export async function rendered<E extends Element>(element: E, label = 'Username'): Promise<E> {
  await waitUntil(() => byLabel(element, label), `<iam-login> did not render the "${label}" field`, { timeout: 5000 });
  return element;
}

/** Types into an input the way a person does: the value, then an input event React listens to. */
export function type(input: HTMLInputElement, value: string): void {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  setter?.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

export interface Credentials {
  username: string;
  password: string;
}

/** The administrator's credentials, from the test server (web-test-runner.config.mjs). */
export async function adminCredentials(): Promise<Credentials> {
  return executeServerCommand<Credentials, undefined>('iam-admin');
}

/** An element of the bundle, with the properties the tests set and read. */
export interface IamElement extends HTMLElement {
  theme?: string;
  route?: string;
  mode?: string;
  open?: boolean;
  apiBase?: string;
  onNavigate?: (page: { path: string; title: string }) => void;
}

/** An event of an element, with what the tests read of it (and its target, read while dispatched). */
export interface Dispatched {
  event: CustomEvent;
  target: EventTarget;
}
