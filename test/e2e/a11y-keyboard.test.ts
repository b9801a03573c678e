// A keyboard-only walk through the console, in the dark and the light theme: no clicks, only Tab,
// Shift+Tab, Enter, Space, Escape and the arrow keys (and typing into fields). Sign in, open the
// profile dialog from the account menu and close it with Escape (the focus goes back to the menu
// button), move through the side menu to another screen, sign out through the account menu and
// confirm. Every element that takes the focus on the way shows it (an outline or a box shadow).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, openPage, type WatchedPage, startServerAndBrowser } from './harness';
import { until } from './admin-support';
import { choose, text, type Theme } from './a11y-support';

const { server, browser } = await startServerAndBrowser();

interface Focused {
  tag: string;
  name: string;
  role: string | null;
  ring: boolean;
  /** Inside an open dialog (role dialog or alertdialog). */
  inDialog: boolean;
}

/** The element that has the focus, looked for through shadow roots: what it is and whether it shows it. */
function focused(page: Page): Promise<Focused | null> {
  return page.evaluate(() => {
    let element: Element | null = document.activeElement;
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
    if (!element || element === document.body) return null;
    const style = getComputedStyle(element);
    const label = element instanceof HTMLInputElement ? element.labels?.[0]?.textContent : null;
    return {
      tag: element.tagName.toLowerCase(),
      name: (element.getAttribute('aria-label') ?? label ?? element.textContent ?? '').trim(),
      role: element.getAttribute('role'),
      ring: (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none',
      inDialog: !!element.closest('[role="dialog"], [role="alertdialog"]'),
    };
  });
}

/**
 * Presses `key` until (unless already) the focused element is the one `wanted` describes (at most `tries` times),
 * checking on the way that every focused element shows its focus.
 */
async function pressUntil(page: Page, key: string, wanted: (element: Focused) => boolean, what: string, tries = 40): Promise<Focused> {
  const stops: string[] = [];
  for (let count = 0; count <= tries; count++) {
    // The element may have the focus already (a menu focuses its first item when it opens).
    if (count > 0) await page.keyboard.press(key);
    const element = await focused(page);
    stops.push(element ? `${element.tag}[${element.role ?? ''}] "${element.name}"` : 'nothing');
    if (!element) continue;
    assert.ok(element.ring, `no visible focus on ${element.tag} "${element.name}"`);
    if (wanted(element)) return element;
  }
  throw new Error(`${key} ×${tries} did not reach ${what}; the focus went: ${stops.join(' → ')}`);
}

async function walk(theme: Theme, watched: WatchedPage): Promise<void> {
  const { page } = watched;
  const named = (name: string) => (element: Focused) => element.name === name;
  const item = (name: string) => (element: Focused) => element.role === 'menuitem' && element.name.includes(name);
  const accountMenu = text('en', 'console:user.menu', { name: ADMIN.username });

  await watched.context.addInitScript(choose, { locale: 'en' as const, theme });
  await page.goto(`${server.url}/login`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();

  await pressUntil(page, 'Tab', named('Username'), 'the username field');
  await page.keyboard.type(ADMIN.username);
  await pressUntil(page, 'Tab', named('Password'), 'the password field', 3);
  await page.keyboard.type(ADMIN.password);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: /^Welcome back/ }).waitFor();

  // The account menu: open it with Enter, go to Profile with the arrow keys, open the dialog.
  await pressUntil(page, 'Tab', named(accountMenu), 'the account menu button');
  await page.keyboard.press('Enter');
  await page.getByRole('menu').waitFor();
  await pressUntil(page, 'ArrowUp', item('Profile'), 'the Profile item', 6);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Edit personal information' });
  await dialog.getByLabel('Real name').waitFor();
  // The dialog takes the focus once it has drawn (an effect after the render that shows it).
  await until(async () => !!(await focused(page))?.inDialog, 3000).catch(async () =>
    assert.fail(`the dialog did not take the focus; ${JSON.stringify(await focused(page))} has it`),
  );
  assert.ok((await focused(page))?.ring, 'the dialog has the focus, visibly');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await until(async () => (await focused(page))?.name === accountMenu, 3000).catch(async () =>
    assert.fail(`the focus did not go back to the account menu button but to ${JSON.stringify(await focused(page))}`),
  );

  // Through the side menu to the users screen: open Operations with Space, follow Users with Enter.
  const operations = await pressUntil(page, 'Tab', named('Operations'), 'the Operations entry of the side menu');
  assert.equal(operations.tag, 'button');
  if ((await page.getByRole('navigation', { name: 'Main menu' }).getByRole('button', { name: 'Operations' }).getAttribute('aria-expanded')) !== 'true')
    await page.keyboard.press('Space');
  await pressUntil(page, 'Tab', named('Users'), 'the Users link', 10);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/operate/user');

  // Back up to the account menu with Shift+Tab, sign out and confirm.
  await pressUntil(page, 'Shift+Tab', named(accountMenu), 'the account menu button');
  await page.keyboard.press('Enter');
  await page.getByRole('menu').waitFor();
  await pressUntil(page, 'ArrowDown', item('Sign out'), 'the Sign out item', 6);
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog'));
  await confirm.waitFor();
  await pressUntil(page, 'Tab', (element) => element.tag === 'button' && /^(OK|Confirm|Sign out)$/.test(element.name), 'the confirm button', 6);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
}

for (const theme of ['dark', 'light'] as const) {
  test(`a keyboard-only walk with visible focus (${theme})`, async () => {
    const watched = await openPage(browser);
    try {
      await walk(theme, watched);
      assert.deepEqual(watched.errors, []);
    } finally {
      await watched.context.close();
    }
  });
}
