// Reflow (WCAG 1.4.10): at 320 CSS pixels wide nothing scrolls sideways, on every console screen
// (the sign-in page included), in English and in Chinese: the page's scrolling element is no wider
// than the viewport, and the top bar's account button is inside it.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, openPage, startServerAndBrowser } from './harness';
import { choose, consoleScreens, navigateInApp, seedSample, settled, showAs, text, type Locale, type SampleIds } from './a11y-support';

const { server, browser } = await startServerAndBrowser();
let ids: SampleIds;

before(async () => {
  ids = await seedSample(server.url);
});

/** How far the page scrolls sideways, and the account button's right edge against the viewport. */
function overflow(page: Page): Promise<{ scrollWidth: number; clientWidth: number; account: number | null }> {
  return page.evaluate(() => {
    const scroller = document.scrollingElement!;
    const shadow = document.querySelector('iam-console')?.shadowRoot;
    const account = shadow?.querySelector('[part="header"] button[aria-haspopup="menu"]')?.getBoundingClientRect().right ?? null;
    return { scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth, account };
  });
}

// One page for both languages: each screen is reached the way the console's links go (no page
// load) and checked in one language, then switched in place to the other (as a host page does
// through the element's attributes); a page load per screen and language cost most of this file.
test('no horizontal scrolling at 320 px on any screen (en and zh)', async () => {
  const { page, context, errors } = await openPage(browser, { viewport: { width: 320, height: 640 } });
  try {
    let shown: Locale = 'en';
    await context.addInitScript(choose, { locale: shown, theme: 'light' as const });
    const problems: string[] = [];
    const check = async (name: string) => {
      const { scrollWidth, clientWidth, account } = await overflow(page);
      const where = `${shown} ${name}`;
      if (scrollWidth > clientWidth) problems.push(`${where}: scrollWidth ${scrollWidth} > clientWidth ${clientWidth}`);
      if (account !== null && account > clientWidth) problems.push(`${where}: the account button ends at ${account}, past ${clientWidth}`);
    };
    /** Checks what is on screen in the language shown, then in the other one. */
    const checkBoth = async (name: string) => {
      await check(name);
      shown = shown === 'en' ? 'zh' : 'en';
      await showAs(page, { locale: shown, theme: 'light' });
      await check(name);
    };
    await page.goto(`${server.url}/login`);
    await settled(page);
    await checkBoth('sign-in');

    await page.getByLabel(text(shown, 'login:identifier.USERNAME_PASSWORD')).fill(ADMIN.username);
    await page.getByLabel(text(shown, 'login:password'), { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: text(shown, 'login:submit') }).click();
    await page.waitForURL((url) => url.pathname !== '/login');
    await settled(page);
    const count = consoleScreens(ids, 'en').length;
    for (let index = 0; index < count; index++) {
      // The parts a screen shows on request are brought up by their names in the language on screen.
      const screen = consoleScreens(ids, shown)[index];
      assert.ok(screen);
      await navigateInApp(page, screen.path);
      await screen.then?.(page);
      await settled(page);
      await checkBoth(screen.name);
    }
    assert.deepEqual(problems, []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
