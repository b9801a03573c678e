// Reflow (WCAG 1.4.10): at 320 CSS pixels wide nothing scrolls sideways, on every console screen
// (the sign-in page included), in English and in Chinese: the page's scrolling element is no wider
// than the viewport, and the top bar's account button is inside it.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, openPage, startServerAndBrowser } from './harness';
import { choose, consoleScreens, seedSample, settled, text, type Locale, type SampleIds } from './a11y-support';

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

// The two languages in their own pages at once (the file stays well under a minute).
describe('reflow', { concurrency: 2 }, () => {
  for (const locale of ['en', 'zh'] as const satisfies readonly Locale[]) {
    test(`no horizontal scrolling at 320 px on any screen (${locale})`, async () => {
      const { page, context, errors } = await openPage(browser, { viewport: { width: 320, height: 640 } });
      try {
        await context.addInitScript(choose, { locale, theme: 'light' as const });
        await page.goto(`${server.url}/login`);
        await settled(page);
        const problems: string[] = [];
        const check = async (name: string) => {
          const { scrollWidth, clientWidth, account } = await overflow(page);
          if (scrollWidth > clientWidth) problems.push(`${name}: scrollWidth ${scrollWidth} > clientWidth ${clientWidth}`);
          if (account !== null && account > clientWidth) problems.push(`${name}: the account button ends at ${account}, past ${clientWidth}`);
        };
        await check('sign-in');

        await page.getByLabel(text(locale, 'login:identifier.USERNAME_PASSWORD')).fill(ADMIN.username);
        await page.getByLabel(text(locale, 'login:password'), { exact: true }).fill(ADMIN.password);
        await page.getByRole('button', { name: text(locale, 'login:submit') }).click();
        await page.waitForURL((url) => url.pathname !== '/login');
        for (const screen of consoleScreens(ids, locale)) {
          await page.goto(`${server.url}${screen.path}`);
          await settled(page);
          await screen.then?.(page);
          await check(screen.name);
        }
        assert.deepEqual(problems, []);
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });
  }
});
