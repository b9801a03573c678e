// How the console looks and is driven, beyond its texts: a long application name is shown whole in
// the top bar; the sign-in page shows the app logo when no sign-in logo of its own is uploaded and
// names the app in its h1; a tall logo stays inside its preview box; side menu labels are not cut;
// menu item icons are picked from a labelled grid by keyboard, each named (in Chinese too); the
// license badge is not green while not activated; a skip link is the first Tab stop and moves the
// focus to the content; in the light theme the welcome card's badge and handle read at 4.5:1;
// <html lang> follows the console's language; the sign-in settings and the configuration are
// asked once per page; the personal center does not shift as it loads.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { ADMIN, ApiClient, openPage, startServerAndBrowser, type WatchedPage } from './harness';
import { signIn } from './admin-support';
import { choose, seedSample, text, type Locale, type SampleIds, type Theme } from './a11y-support';

const { server, browser } = await startServerAndBrowser();
const admin = new ApiClient(server.url);
let ids: SampleIds;
const tallLogo = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="400" viewBox="0 0 40 400"><rect width="40" height="400" fill="#3ccf8a"/></svg>',
);

before(async () => {
  ids = await seedSample(server.url);
  await admin.signIn(ADMIN.username, ADMIN.password);
  const appLogo = await admin.upload('icon', 'tall.svg', tallLogo, 'image/svg+xml');
  const { version } = await admin.call<{ version: number }>('GET', '/config');
  await admin.call('PUT', '/config', { system: { appName: 'Acme Identity', appLogo }, version });
});

/** A page opened at `next`, signed in as the administrator through the API (the sign-in page is the last test's, typed into there). */
async function signedIn(locale: Locale, theme: Theme, options: { viewport?: { width: number; height: number }; next?: string } = {}): Promise<WatchedPage> {
  const watched = await openPage(browser, { viewport: options.viewport });
  await watched.context.addInitScript(choose, { locale, theme });
  await signIn(watched.page, server.url, ADMIN.username, ADMIN.password, options.next);
  return watched;
}

/** Whether the element's text is cut (it is wider or taller than its box). */
const cut = (element: Locator) => element.evaluate((node) => node.scrollWidth > node.clientWidth + 1 || node.scrollHeight > node.clientHeight + 1);

/** The WCAG contrast ratio of text in `foreground` on `background`, with `overlay` (a colour at an
 *  opacity, as a tint is drawn) over the background; colours as the page computes them. */
function contrast(page: Page, foreground: string, background: string, overlay?: { color: string; alpha: number }): Promise<number> {
  // Source text, not a function: the test's compiler would wrap named inner functions in a helper
  // the page does not have.
  const layers = JSON.stringify([[background, 1], ...(overlay ? [[overlay.color, overlay.alpha]] : [])]);
  return page.evaluate(`(() => {
    const canvas = document.createElement('canvas').getContext('2d');
    const pixel = (layers) => {
      canvas.globalAlpha = 1;
      canvas.fillStyle = '#fff';
      canvas.fillRect(0, 0, 1, 1);
      for (const [color, alpha] of layers) {
        canvas.globalAlpha = alpha;
        canvas.fillStyle = color;
        canvas.fillRect(0, 0, 1, 1);
      }
      return [...canvas.getImageData(0, 0, 1, 1).data.slice(0, 3)];
    };
    const luminance = (rgb) => {
      const [r, g, b] = rgb.map((value) => (value / 255 <= 0.03928 ? value / 255 / 12.92 : ((value / 255 + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const [light, dark] = [luminance(pixel([[${JSON.stringify(foreground)}, 1]])), luminance(pixel(${layers}))].sort((a, b) => b - a);
    return (light + 0.05) / (dark + 0.05);
  })()`);
}

describe('look and keyboard', { concurrency: 2 }, () => {
  test('branding: the whole name in the top bar, the app logo and an h1 on the sign-in page, a tall logo inside its preview', async () => {
    const { page, context, errors } = await signedIn('en', 'dark', { next: '/operate/setting' });
    try {
      const name = page.getByRole('banner').getByText('Acme Identity', { exact: true });
      await name.waitFor();
      assert.equal(await cut(name), false, 'the top bar shows "Acme Identity" whole');

      await page.getByRole('tab', { name: 'Branding' }).click();
      const preview = page.getByRole('img', { name: 'Logo preview' });
      await preview.waitFor();
      const [image, box] = await Promise.all([preview.boundingBox(), preview.locator('xpath=..').boundingBox()]);
      assert.ok(
        image &&
          box &&
          image.y >= box.y &&
          image.y + image.height <= box.y + box.height + 0.5 &&
          image.x >= box.x &&
          image.x + image.width <= box.x + box.width + 0.5,
        `the logo ${JSON.stringify(image)} stays inside its box ${JSON.stringify(box)}`,
      );

      // Side menu labels fit (they wrap rather than being cut); one group is open at a time.
      const nav = page.getByRole('navigation', { name: 'Main menu' });
      const label = (name: string) => nav.getByRole('link', { name }).locator('span').last();
      assert.equal(await cut(label('Login settings')), false, '"Login settings" is not cut');
      await nav.getByRole('button', { name: 'Personal' }).click();
      assert.equal(await cut(label('Message history')), false, '"Message history" is not cut');
      // Not activated is no success: the license badge is not in the primary colour.
      await page.getByRole('tab', { name: 'License' }).click();
      const badge = page.getByRole('region', { name: 'License' }).getByText('Not activated', { exact: true }).first();
      const primary = await page.getByRole('tab', { name: 'License' }).evaluate((tab) => getComputedStyle(tab).color);
      assert.notEqual(await badge.evaluate((node) => getComputedStyle(node).color), primary, 'the not-activated badge is not green');

      const visitor = await openPage(browser);
      await visitor.page.goto(`${server.url}/login`);
      await visitor.page.getByRole('heading', { level: 1, name: 'Acme Identity' }).waitFor();
      const logo = await visitor.page.locator('iam-console [part="login-page"] aside img').getAttribute('src');
      assert.match(logo ?? '', /\/api\/file\/get\/.+\.svg$/, 'the app logo, not the default mark');
      assert.deepEqual(visitor.errors, []);
      await visitor.context.close();
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('menu item icons: a labelled grid, keyboard driven, each icon named (zh)', async () => {
    const { page, context, errors } = await signedIn('zh', 'light', { next: `/menu/detail/${ids.app}` });
    try {
      await page.getByRole('treeitem', { name: /^Orders/ }).click();
      const picker = page.getByRole('listbox', { name: text('zh', 'admin:menu.icon') });
      const none = picker.getByRole('option', { name: text('zh', 'admin:menu.noIcon'), exact: true });
      assert.equal(await none.getAttribute('aria-selected'), 'true');
      await none.focus();
      await page.keyboard.press('ArrowRight');
      const home = picker.getByRole('option', { name: text('zh', 'admin:icon.home'), exact: true });
      assert.equal(await home.getAttribute('aria-selected'), 'true', 'the choice follows the arrow key');
      assert.ok(await home.evaluate((node) => (node.getRootNode() as ShadowRoot).activeElement === node), 'and so does the focus');
      await page.keyboard.press('ArrowDown');
      const columns = await picker.evaluate((grid) => getComputedStyle(grid).gridTemplateColumns.split(' ').length);
      const below = picker.getByRole('option').nth(1 + columns);
      assert.equal(await below.getAttribute('aria-selected'), 'true', 'down moves a row');
      await page.getByText(text('zh', 'admin:menu.iconChosen', { name: (await below.getAttribute('aria-label'))! })).waitFor();
      await page.keyboard.press('End');
      assert.equal(await picker.getByRole('option').last().getAttribute('aria-selected'), 'true');
      // Only the chosen option is a Tab stop.
      assert.equal(await picker.locator('[tabindex="0"]').count(), 1);

      // The top menu kinds are in Chinese, without the raw setting values.
      await page.goto(`${server.url}/operate/setting`);
      await page.getByRole('tab', { name: text('zh', 'settings:tab.branding') }).click();
      const kinds = await page.getByLabel(text('zh', 'settings:branding.topMenuType')).locator('option').allTextContents();
      assert.deepEqual(
        kinds.filter((kind) => /self|unify/.test(kind)),
        [],
        `no raw values: ${JSON.stringify(kinds)}`,
      );
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh', '<html lang> follows the console when it owns the page');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('a skip link is the first Tab stop and moves the focus to the content', async () => {
    const { page, context, errors } = await signedIn('en', 'dark', { next: '/operate/user' });
    try {
      // A fresh load (the sign-in opened this page): nothing has the focus yet (after a route change the heading would).
      await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
      await page.keyboard.press('Tab');
      const skip = page.getByRole('link', { name: 'Skip to content' });
      assert.ok(await skip.evaluate((node) => (node.getRootNode() as ShadowRoot).activeElement === node), 'the first Tab stop');
      assert.ok(await skip.isVisible(), 'shown while it has the focus');
      await page.keyboard.press('Enter');
      const main = page.getByRole('main');
      assert.ok(await main.evaluate((node) => (node.getRootNode() as ShadowRoot).activeElement === node), 'the content has the focus');
      assert.equal(new URL(page.url()).pathname, '/operate/user', 'no navigation');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('light theme: the welcome card reads at 4.5:1; the sign-in settings and the configuration are asked once; the personal center holds still', async () => {
    const watched = await openPage(browser);
    const { page, context, errors } = watched;
    try {
      await context.addInitScript(choose, { locale: 'en' as const, theme: 'light' as const });
      const asked: string[] = [];
      page.on('request', (request) => asked.push(new URL(request.url()).pathname));
      await page.goto(`${server.url}/login`);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await page.waitForLoadState('networkidle');
      assert.equal(asked.filter((path) => path === '/api/settings/login/public').length, 1, 'the sign-in page asks its settings once');
      await page.getByLabel('Username').fill(ADMIN.username);
      await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: /^Welcome back/ }).waitFor();

      // The badge on its own background; the handle on the hero's strongest tint (the primary colour
      // at 18 % over the page).
      const hero = page.getByRole('heading', { level: 1 }).locator('xpath=..');
      const badge = hero.getByText(text('en', 'userRole.platformAdmin'), { exact: true });
      const handle = hero.getByText(`@${ADMIN.username}`);
      const style = (element: Locator) =>
        element.evaluate((node) => ({ color: getComputedStyle(node).color, background: getComputedStyle(node).backgroundColor }));
      // The badge's text is the primary colour, the same the hero's tint is made of.
      const [badgeStyle, handleStyle, root] = await Promise.all([style(badge), style(handle), style(page.locator('iam-console [data-theme]').first())]);
      const badgeRatio = await contrast(page, badgeStyle.color, badgeStyle.background);
      assert.ok(badgeRatio >= 4.5, `the role badge reads at ${badgeRatio.toFixed(2)}:1`);
      const handleRatio = await contrast(page, handleStyle.color, root.background, { color: badgeStyle.color, alpha: 0.18 });
      assert.ok(handleRatio >= 4.5, `the handle reads at ${handleRatio.toFixed(2)}:1`);

      asked.length = 0;
      await page.goto(`${server.url}/operate/setting`);
      await page.getByRole('tab', { name: 'Login management', selected: true }).waitFor();
      await page.waitForLoadState('networkidle');
      assert.equal(asked.filter((path) => path === '/api/config').length, 1, 'the settings screen and the branding share one read of the configuration');

      await context.addInitScript(() => {
        (window as unknown as { cls: number }).cls = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
            if (!entry.hadRecentInput) (window as unknown as { cls: number }).cls += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await page.goto(`${server.url}/profile/userInfo`);
      await page.getByRole('region', { name: 'Active sessions' }).getByText('This device').waitFor();
      await page.waitForLoadState('networkidle');
      const cls = await page.evaluate(() => (window as unknown as { cls: number }).cls);
      assert.ok(cls < 0.1, `the personal center's layout shift is ${cls.toFixed(3)} (under 0.1)`);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
