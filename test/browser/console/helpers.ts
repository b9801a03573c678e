// Helpers of the console's component tests: queries by role, label and visible text inside an
// element's shadow root (the console's dialogs and menus render there too), typing the way React
// sees it, and calls to the real API behind the test server's /api/ (same origin).
import { waitUntil } from '@open-wc/testing';
import '../failure-report.js';

const normalise = (text: string | null | undefined): string => (text ?? '').replace(/\s+/g, ' ').trim();

/** What the queries answer: typed as any control the tests touch (an input, a button, an image),
 *  since a test reads the properties of what it found. */
export type Found = HTMLInputElement & Pick<HTMLImageElement, 'complete' | 'naturalWidth'>;

const roleSelectors: Record<string, string> = {
  button: 'button, [role="button"]',
  link: 'a[href], [role="link"]',
  dialog: '[role="dialog"]',
  navigation: 'nav, [role="navigation"]',
  menu: '[role="menu"]',
  menuitem: '[role="menuitem"]',
  img: 'img',
  heading: 'h1, h2, h3, h4, [role="heading"]',
  alert: '[role="alert"]',
  status: '[role="status"]',
  region: 'section[aria-labelledby], [role="region"]',
};

/** The accessible name, as far as these tests need it. */
export function nameOf(element: Element): string {
  const root = element.getRootNode() as Document | ShadowRoot;
  const labelledBy = element.getAttribute('aria-labelledby');
  if (labelledBy)
    return normalise(
      labelledBy
        .split(' ')
        .map((id) => root.getElementById(id)?.textContent)
        .join(' '),
    );
  if (element.hasAttribute('aria-label')) return normalise(element.getAttribute('aria-label'));
  if (element.tagName === 'IMG') return normalise(element.getAttribute('alt'));
  return normalise(element.textContent);
}

/** Every element with `role` (and accessible name `name`, when given) under `root`. */
export function allByRole(root: ParentNode, role: string, name?: string): Found[] {
  const selector = roleSelectors[role];
  if (!selector) throw new Error(`allByRole: unknown role ${role}`);
  return [...root.querySelectorAll<Found>(selector)].filter((element) => name === undefined || nameOf(element) === name);
}

export function byRole(root: ParentNode, role: string, name?: string): Found | null {
  return allByRole(root, role, name)[0] ?? null;
}

/** The form control whose <label> (or aria-labelledby element) reads `text`. */
export function byLabel(root: ParentNode, text: string): Found | null {
  const label = [...root.querySelectorAll('label')].find((candidate) => normalise(candidate.textContent) === text);
  if (label?.control) return label.control as Found;
  return [...root.querySelectorAll<Found>('input[aria-labelledby]')].find((input) => nameOf(input) === text) ?? null;
}

/** The innermost element whose visible text is exactly `text`. */
export function byText(root: ParentNode, text: string): Found | null {
  return (
    [...root.querySelectorAll<Found>('*')].find(
      (element) => normalise(element.textContent) === text && ![...element.children].some((child) => normalise(child.textContent) === text),
    ) ?? null
  );
}

/** Waits until `predicate` answers something truthy, and resolves to that answer. */
export async function until<T>(predicate: () => T, message?: string, timeout = 8000): Promise<NonNullable<T>> {
  let answer: T | undefined;
  await waitUntil(() => (answer = predicate()), message, { timeout });
  return answer;
}

/** Types into an input the way a person does: the value, then the input event React listens to. */
export function type(input: HTMLInputElement, value: string): void {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/** Chooses `file` in a file input, as the file picker does. */
export function chooseFile(input: HTMLInputElement, file: File): void {
  const transfer = new DataTransfer();
  transfer.items.add(file);
  input.files = transfer.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

/** A real square PNG drawn on a canvas. */
export async function pngFile(name = 'picture.png', size = 40): Promise<File> {
  const canvas = new OffscreenCanvas(size, size);
  const context = canvas.getContext('2d');
  context.fillStyle = '#3ccf8a';
  context.fillRect(0, 0, size, size);
  return new File([await canvas.convertToBlob({ type: 'image/png' })], name, { type: 'image/png' });
}

/** The core's default password transform: SHA-256 hex of the trimmed password. */
async function transform(password: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(password.trim()));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Calls the API with the page's session cookie; resolves to the envelope's data. */
export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const answer = await fetch(`/api${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await answer.json()) as { code: number; message: string; data: T };
  if (!answer.ok || envelope.code !== 0) throw new Error(`${method} ${path}: ${answer.status} ${envelope.message}`);
  return envelope.data;
}

export async function signIn(username: string, password: string): Promise<void> {
  await api('POST', '/authc/login', { username, password: await transform(password) });
}

/** A new enabled ordinary user (the page must be signed in as an administrator). */
export async function createUser(username: string, password: string): Promise<{ id: string; username: string }> {
  return api('POST', '/user', { username, realName: username, password: await transform(password), extraProp: {} });
}
