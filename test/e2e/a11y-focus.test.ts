// Where the keyboard focus goes, by keyboard only, in English and Chinese. Every kind of dialog of
// the console (new user, edit user, profile, own password, a confirmation, a settings dialog):
// opened with Enter, its first field (or a confirmation's primary action) has the focus, Tab and
// Shift+Tab pressed more times than it has controls never leave it, it is aria-modal and the rest
// of the console is inert while it is open, Escape closes it and the focus goes back to its opener.
// An open menu and the narrow screen's menu drawer keep Tab inside too. After a route change the focus is on the new page's heading;
// a failed sign-in keeps the focus on the form and announces the error once. A dialog opened from a
// menu gives the focus back to the menu's button on every opening, after moves in place too.
//
// The signed-in tests share one page per language, each test moving in place to where it begins
// (see signedIn); the failed sign-in has a page of its own.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { ADMIN, openPage, type WatchedPage, startServerAndBrowser } from './harness';
import { signIn, until } from './admin-support';
import { CHANNEL, choose, MEMBER, navigateInApp, seedSample, text, type Locale } from './a11y-support';

const { server, browser } = await startServerAndBrowser();

before(async () => {
  await seedSample(server.url);
});

interface Focused {
  tag: string;
  role: string | null;
  text: string;
  /** Inside the open dialog (role dialog or alertdialog) or the open menu. */
  inDialog: boolean;
  inMenu: boolean;
}

/** The element that has the focus, looked for through shadow roots. */
function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    let element: Element | null = document.activeElement;
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
    return {
      tag: element?.tagName.toLowerCase() ?? 'none',
      role: element?.getAttribute('role') ?? null,
      text: (element?.getAttribute('aria-label') ?? element?.textContent ?? '').trim().slice(0, 60),
      inDialog: !!element?.closest('[role="dialog"], [role="alertdialog"]'),
      inMenu: !!element?.closest('[role="menu"]'),
    };
  });
}

/** What the open dialog is and what the rest of the console is, seen from inside its shadow root. */
function modality(page: Page): Promise<{ ariaModal: string | null; tabStops: number; mainInert: boolean; headerInert: boolean; toastsLive: boolean }> {
  return page.evaluate(() => {
    const shadow = document.querySelector('iam-console')!.shadowRoot!;
    const dialog = shadow.querySelector<HTMLElement>('[role="dialog"], [role="alertdialog"]')!;
    const stops = [...dialog.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, [tabindex]')].filter(
      (element) => element.tabIndex >= 0 && !(element as HTMLButtonElement).disabled && element.checkVisibility(),
    );
    // (No named function in here: the test's compiler would wrap it in a helper the page lacks.)
    const [main, header, toasts] = ['main', '[part="header"]', '[part="toasts"]'].map((selector) => !!shadow.querySelector(selector)?.closest('[inert]'));
    return { ariaModal: dialog.getAttribute('aria-modal'), tabStops: stops.length, mainInert: main!, headerInert: header!, toastsLive: !toasts };
  });
}

const inertCount = (page: Page) => page.evaluate(() => document.querySelector('iam-console')!.shadowRoot!.querySelectorAll('[inert]').length);
const isFocused = (element: Locator) => element.evaluate((node) => (node.getRootNode() as ShadowRoot | Document).activeElement === node);

/** Presses `key` until the element `wanted` describes has the focus (at most `tries` times). */
async function pressUntil(page: Page, key: string, wanted: (element: Focused) => boolean, what: string, tries = 40): Promise<void> {
  const stops: string[] = [];
  for (let count = 0; count <= tries; count++) {
    if (count > 0) await page.keyboard.press(key);
    const element = await focused(page);
    stops.push(`${element.tag} "${element.text}"`);
    if (wanted(element)) return;
  }
  throw new Error(`${key} ×${tries} did not reach ${what}; the focus went: ${stops.join(' → ')}`);
}

/** Presses Tab, then Shift+Tab, `times` times each, asserting after each press that the focus stays where `inside` says. */
async function tabAround(page: Page, times: number, inside: (element: Focused) => boolean, where: string): Promise<void> {
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let count = 1; count <= times; count++) {
      await page.keyboard.press(key);
      const element = await focused(page);
      assert.ok(inside(element), `${where}: ${key} ×${count} of ${times} moved the focus out, to ${element.tag} "${element.text}"`);
    }
  }
}

interface DialogCase {
  name: string;
  /** Opens the dialog by keyboard; answers the element that opened it. */
  open: (page: Page) => Promise<Locator>;
  /** The element that must have the focus when the dialog opens. */
  initial: (dialog: Locator) => Locator;
}

function dialogCases(locale: Locale): DialogCase[] {
  const accountMenu = (page: Page) => page.getByRole('button', { name: text(locale, 'console:user.menu', { name: ADMIN.username }) });
  /** Moves in place, as the console's links do (a page load per dialog cost seconds each). */
  const go = async (page: Page, path: string, ready: (page: Page) => Locator) => {
    await navigateInApp(page, path);
    await ready(page).waitFor();
  };
  /** Focus on the opener, then Enter: the keyboard's way to press it. */
  const press = async (opener: Locator) => {
    await opener.focus();
    await opener.press('Enter');
    return opener;
  };
  const fromAccountMenu = (item: string) => async (page: Page) => {
    await go(page, '/home/index', (p) => p.getByRole('heading', { level: 1 }));
    const opener = accountMenu(page);
    await press(opener);
    await page.getByRole('menu').waitFor();
    await pressUntil(page, 'ArrowDown', (element) => element.role === 'menuitem' && element.text.includes(text(locale, item)), item, 8);
    await page.keyboard.press('Enter');
    return opener;
  };
  const member = (page: Page) => page.getByRole('cell', { name: MEMBER, exact: true });
  const users = '/operate/user';
  const firstField = (dialog: Locator) => dialog.locator('input:not([type="hidden"]), select, textarea').first();
  return [
    {
      name: 'new user',
      open: async (page) => {
        await go(page, users, member);
        return press(page.getByRole('button', { name: text(locale, 'admin:user.create'), exact: true }));
      },
      initial: firstField,
    },
    {
      name: 'edit user',
      open: async (page) => {
        await go(page, users, member);
        return press(
          page.getByRole('button', { name: text(locale, 'admin:action.of', { action: text(locale, 'admin:action.edit'), name: MEMBER }), exact: true }),
        );
      },
      initial: firstField,
    },
    { name: 'profile', open: fromAccountMenu('console:user.profile'), initial: firstField },
    { name: 'own password', open: fromAccountMenu('console:user.resetPassword'), initial: firstField },
    {
      name: 'logout confirmation',
      open: fromAccountMenu('console:user.logout'),
      initial: (dialog) => dialog.locator('[part~="primary-button"]'),
    },
    {
      name: 'new channel (settings)',
      open: async (page) => {
        await go(page, '/operate/tunnel', (p) => p.getByRole('cell', { name: CHANNEL, exact: true }));
        return press(page.getByRole('button', { name: text(locale, 'settings:channel.create'), exact: true }));
      },
      initial: firstField,
    },
  ];
}

/**
 * One signed-in page per language for the file's tests (a context, a page load and a sign-in per
 * test cost more than most of the tests): each test moves in place to where it begins.
 */
const signedInPages = new Map<Locale, WatchedPage>();

after(async () => {
  for (const watched of signedInPages.values()) await watched.context.close();
});

/** Runs `body` on the file's signed-in page in `locale` (dark theme); no console error on it after. */
async function signedIn(locale: Locale, body: (page: Page) => Promise<void>): Promise<void> {
  let watched = signedInPages.get(locale);
  if (!watched) {
    watched = await openPage(browser);
    await watched.context.addInitScript(choose, { locale, theme: 'dark' as const });
    // Signed in through the API: the sign-in form's focus has a test of its own below.
    await signIn(watched.page, server.url, ADMIN.username, ADMIN.password);
    signedInPages.set(locale, watched);
  }
  await body(watched.page);
  assert.deepEqual(watched.errors, []);
}

/** Runs `body` on a page of its own (signed out), in `locale`, dark theme; no console error on it. */
async function withPage(locale: Locale, body: (watched: WatchedPage) => Promise<void>, expectedFailures: RegExp[] = []): Promise<void> {
  const watched = await openPage(browser, { expectedFailures });
  try {
    await watched.context.addInitScript(choose, { locale, theme: 'dark' as const });
    await body(watched);
    assert.deepEqual(watched.errors, []);
  } finally {
    await watched.context.close();
  }
}

for (const locale of ['en', 'zh'] as const) {
  test(`every kind of dialog keeps the focus inside, is modal, and gives the focus back (${locale})`, async () => {
    await signedIn(locale, async (page) => {
      for (const { name, open, initial } of dialogCases(locale)) {
        const where = `${locale} ${name}`;
        const opener = await open(page);
        const dialog = page.getByRole('dialog').or(page.getByRole('alertdialog'));
        await dialog
          .waitFor({ timeout: 10_000 })
          .catch(async () => assert.fail(`${where}: no dialog opened; the focus is on ${JSON.stringify(await focused(page))}`));
        await until(() => isFocused(initial(dialog)), 3000).catch(async () =>
          assert.fail(`${where}: the initial focus is on ${JSON.stringify(await focused(page))}, not on the first field or the primary action`),
        );

        const state = await modality(page);
        assert.equal(state.ariaModal, 'true', `${where}: aria-modal`);
        assert.ok(state.mainInert, `${where}: the screen behind is inert`);
        assert.ok(state.headerInert, `${where}: the top bar behind is inert`);
        assert.ok(state.toastsLive, `${where}: the toasts stay announced`);
        await tabAround(page, state.tabStops + 2, (element) => element.inDialog, where);

        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        await until(() => isFocused(opener), 3000).catch(async () =>
          assert.fail(`${where}: the focus did not go back to the opener but to ${JSON.stringify(await focused(page))}`),
        );
        assert.equal(await inertCount(page), 0, `${where}: nothing stays inert after closing`);
      }
    });
  });

  test(`an open menu keeps Tab and Shift+Tab inside (${locale})`, async () => {
    await signedIn(locale, async (page) => {
      const menus = [
        { name: 'account menu', opener: page.getByRole('button', { name: text(locale, 'console:user.menu', { name: ADMIN.username }) }) },
        { name: 'row menu', opener: page.getByRole('button', { name: text(locale, 'admin:action.moreOf', { name: MEMBER }) }), path: '/operate/user' },
      ];
      for (const { name, opener, path } of menus) {
        if (path) await navigateInApp(page, path);
        await opener.focus();
        await opener.press('Enter');
        const menu = page.getByRole('menu');
        await menu.waitFor();
        await until(async () => (await focused(page)).inMenu, 3000).catch(async () =>
          assert.fail(`${name}: the open menu does not have the focus, ${JSON.stringify(await focused(page))} has`),
        );
        const items = await menu.getByRole('menuitem').count();
        await tabAround(page, items + 2, (element) => element.inMenu, `${locale} ${name}`);
        await page.keyboard.press('Escape');
        await menu.waitFor({ state: 'detached' });
        await until(() => isFocused(opener), 3000).catch(async () =>
          assert.fail(`${name}: the focus did not go back to the menu button but to ${JSON.stringify(await focused(page))}`),
        );
      }
    });
  });
}

// A menu's item opens a dialog in the commit that removes the menu, focused item and all, once the
// dialog's code is loaded (on its second opening on a page, and each after): the console walked in
// place from the settings screen to home and opened each account dialog twice, as an administrator does.
test('an account dialog opened from the account menu gives the focus back to the menu button, every time, after moving in place', async () => {
  await signedIn('en', async (page) => {
    await navigateInApp(page, '/operate/setting');
    await navigateInApp(page, '/home/index');
    const accountMenu = page.getByRole('button', { name: text('en', 'console:user.menu', { name: ADMIN.username }) });
    for (const round of [1, 2]) {
      for (const item of ['console:user.profile', 'console:user.resetPassword', 'console:user.logout']) {
        const where = `${text('en', item)} (opening ${round})`;
        await accountMenu.focus();
        await accountMenu.press('Enter');
        await page.getByRole('menu').waitFor();
        await pressUntil(page, 'ArrowDown', (element) => element.role === 'menuitem' && element.text.includes(text('en', item)), item, 8);
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('dialog').or(page.getByRole('alertdialog'));
        await dialog.waitFor();
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        await until(() => isFocused(accountMenu), 3000).catch(async () =>
          assert.fail(`${where}: the focus did not go back to the account menu button but to ${JSON.stringify(await focused(page))}`),
        );
      }
    }
  });
});

test('the side menu drawer of a narrow screen keeps the focus inside and gives it back', async () => {
  await signedIn('en', async (page) => {
    await page.setViewportSize({ width: 800, height: 800 });
    try {
      const opener = page.getByRole('button', { name: text('en', 'console:menu.open') });
      await opener.waitFor();
      await opener.focus();
      await opener.press('Enter');
      const drawer = page.getByRole('dialog', { name: text('en', 'console:menu.label') });
      await drawer.waitFor();
      await until(async () => (await focused(page)).inDialog, 3000).catch(async () =>
        assert.fail(`the drawer does not have the focus, ${JSON.stringify(await focused(page))} has`),
      );
      const state = await modality(page);
      assert.equal(state.ariaModal, 'true');
      assert.ok(state.mainInert, 'the screen behind the drawer is inert');
      await tabAround(page, state.tabStops + 2, (element) => element.inDialog, 'menu drawer');
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'detached' });
      await until(() => isFocused(opener), 3000).catch(async () =>
        assert.fail(`the focus went to ${JSON.stringify(await focused(page))}, not back to the menu button`),
      );
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});

test('after a route change the focus is on the new page heading', async () => {
  await signedIn('en', async (page) => {
    await navigateInApp(page, '/home/index');
    const home = page.getByRole('heading', { level: 1, name: /^Welcome back/ });
    await home.waitFor();
    // A home card link, followed with Enter: the link goes away with the home screen.
    const card = page.getByRole('main').getByRole('link', { name: /^Users/ });
    await card.focus();
    await card.press('Enter');
    const users = page.getByRole('heading', { level: 1, name: 'Users' });
    await users.waitFor();
    await until(() => isFocused(users), 3000).catch(async () =>
      assert.fail(`the focus is on ${JSON.stringify(await focused(page))}, not on the Users heading`),
    );
    assert.equal(await users.getAttribute('tabindex'), '-1', 'the heading takes the focus only from a script, not from Tab');

    // Through the side menu to the tenants: the heading again, and the next Tab goes on from it.
    const tenants = page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Tenants' });
    await tenants.focus();
    await tenants.press('Enter');
    const heading = page.getByRole('heading', { level: 1, name: 'Tenants' });
    await heading.waitFor();
    await page.getByRole('treeitem').first().waitFor();
    await until(() => isFocused(heading), 3000).catch(async () =>
      assert.fail(`the focus is on ${JSON.stringify(await focused(page))}, not on the Tenants heading`),
    );
    await page.keyboard.press('Tab');
    const next = await focused(page);
    assert.doesNotMatch(next.text, /Add sub-tenant/, "the first Tab does not jump to the selected tenant's actions");
    assert.equal(next.tag, 'input', `the first Tab goes to the search bar after the heading, not to ${JSON.stringify(next)}`);
  });
});

test('a failed sign-in by keyboard keeps the focus on the form and announces the error once', async () => {
  await withPage(
    'en',
    async ({ page }) => {
      await page.goto(`${server.url}/login`);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await page.getByLabel('Username').focus();
      await page.keyboard.type(ADMIN.username);
      await page.keyboard.press('Tab');
      await page.keyboard.type('not-the-password-1');
      const submit = page.getByRole('button', { name: 'Sign in', exact: true });
      await pressUntil(page, 'Tab', (element) => element.tag === 'button' && element.text === 'Sign in', 'the Sign in button', 4);
      await page.keyboard.press('Enter');
      const alert = page.getByRole('alert');
      await alert.first().waitFor();
      await until(async () => (await submit.getAttribute('aria-disabled')) !== 'true', 5000);
      assert.ok(await isFocused(submit), `the focus stays on the Sign in button, not on ${JSON.stringify(await focused(page))}`);
      // A toast would say it a second time: give it the time it would take to show.
      await page.waitForTimeout(500);
      assert.equal(await alert.count(), 1, `the error is announced once: ${JSON.stringify(await alert.allTextContents())}`);
    },
    [/\/api\/authc\/login$/],
  );
});
