// What a new platform administrator ran into on a first walk through the console: the users
// screen's header buttons spread across the page, home tiles without a word on what three areas
// are for, empty lists that did not say how to fill them, a webhook's delivery log and the CSV
// import's refused rows squeezed into a narrow dialog (the error, the one thing the log is for,
// cut off; column names broken mid-word). Each test has its own page; the server is shared.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { ADMIN, ApiClient, openPage, startServerAndBrowser, type WatchedPage } from './harness';
import { signIn } from './admin-support';
import { choose, navigateInApp, seriousViolations, settled, text, type Locale, type Theme } from './a11y-support';

const { server, browser } = await startServerAndBrowser({ IAM_OUTBOUND_ALLOW_PRIVATE: '1' });
const admin = new ApiClient(server.url);
await admin.signIn(ADMIN.username, ADMIN.password);

/** A page signed in as the administrator (through the API: no test here is about the form) on `path`. */
async function signedIn(locale: Locale, theme: Theme, path: string): Promise<WatchedPage> {
  const watched = await openPage(browser);
  await watched.context.addInitScript(choose, { locale, theme });
  await signIn(watched.page, server.url, ADMIN.username, ADMIN.password, path);
  await settled(watched.page);
  return watched;
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  assert.ok(found, 'the element is laid out');
  return found;
}

/** How many lines the element's text takes (a word broken in two takes two). */
const lines = (locator: Locator) =>
  locator.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
  });

/** The whole element lies inside `container`'s visible box (nothing clipped by a scroller). */
async function within(element: Locator, container: Locator, what: string) {
  const inner = await box(element);
  const outer = await box(container);
  assert.ok(inner.x >= outer.x - 1 && inner.x + inner.width <= outer.x + outer.width + 1, `${what} is fully visible, not cut off at the side`);
}

async function noErrors(page: Page, errors: string[], where: string) {
  assert.deepEqual(await seriousViolations(page, where), []);
  assert.deepEqual(errors, []);
}

describe('a first week with the console', { concurrency: 2 }, () => {
  test('the users header keeps its buttons together; home says what every area is for (en, zh)', async () => {
    for (const [locale, theme] of [
      ['en', 'dark'],
      ['zh', 'light'],
    ] as const) {
      const { page, context, errors } = await signedIn(locale, theme, '/operate/user');
      try {
        const buttons = [
          page.getByRole('button', { name: text(locale, 'admin:import.import'), exact: true }),
          page.getByRole('link', { name: text(locale, 'admin:import.export'), exact: true }),
          page.getByRole('button', { name: text(locale, 'admin:user.create'), exact: true }),
        ];
        const boxes = await Promise.all(buttons.map(box));
        for (let index = 1; index < boxes.length; index++) {
          const gap = boxes[index]!.x - (boxes[index - 1]!.x + boxes[index - 1]!.width);
          assert.ok(gap >= 0 && gap <= 16, `${locale}: header button ${index + 1} sits next to the one before it (gap ${gap} px)`);
        }

        await navigateInApp(page, `/home/index`);
        await settled(page);
        for (const area of ['audit', 'scim', 'webhooks']) {
          const tile = page.getByRole('link', { name: text(locale, `route.${area}`) });
          await tile.getByText(text(locale, `console:home.areaText.${area}`), { exact: true }).waitFor();
        }
        await noErrors(page, errors, `home (${locale})`);
      } finally {
        await context.close();
      }
    }
  });

  test('empty lists say how to fill them; a failed delivery shows its error in full', async () => {
    const { page, context, errors } = await signedIn('en', 'dark', '/operate/scim');
    try {
      await page.getByText(text('en', 'admin:scim.empty'), { exact: true }).waitFor();
      assert.match(text('en', 'admin:scim.empty'), /Create token/);
      await navigateInApp(page, `/operate/webhooks`);
      await page.getByText(text('en', 'webhooks:empty'), { exact: true }).waitFor();
      assert.match(text('en', 'webhooks:empty'), /New webhook/);

      // Port 9 (discard) refuses: the test delivery fails with an error worth reading.
      const url = 'http://127.0.0.1:9/first-week-receiver-with-a-long-path';
      await admin.call('POST', '/webhooks', { url, description: '', enabled: true, events: ['user.created'] });
      await page.reload();
      await page.getByRole('button', { name: `Send test to ${url}` }).click();
      await page.getByRole('alert').filter({ hasText: 'Test event not delivered' }).waitFor();
      await page.getByRole('button', { name: `Deliveries of ${url}` }).click();
      const dialog = page.getByRole('dialog', { name: `Deliveries to ${url}` });
      const log = dialog.getByRole('table', { name: 'Deliveries' });
      const error = log.getByText(/could not be reached/);
      await error.waitFor();
      const scroller = log.locator('xpath=..');
      await within(error, scroller, 'the last answer');
      await within(log.getByRole('button', { name: /^Details of / }), scroller, 'the Details button');
      await noErrors(page, errors, 'webhook deliveries');
    } finally {
      await context.close();
    }
  });

  test('the CSV import lists refused rows without breaking column names; saving twice shows one toast; the phone top bar fits (zh, light)', async () => {
    const me = await admin.call<{ user: { id: string } }>('GET', '/cas/session');
    await admin.call('POST', '/messages', { title: '请在本周五之前检查您所管理的全部应用的管理员名单', content: '季度访问审查', userIds: [me.user.id] });
    const { page, context, errors } = await signedIn('zh', 'light', '/home/index');
    try {
      // On a phone the switch to English is "EN" (still named English): the console's name fits.
      await page.setViewportSize({ width: 390, height: 844 });
      await settled(page);
      const brand = page.locator('iam-console header').getByText('IAM Console', { exact: true });
      assert.ok(await brand.evaluate((element) => element.scrollWidth <= element.clientWidth), "the console's name is not cut short");
      await page.getByRole('button', { name: 'English', exact: true }).getByText('EN', { exact: true }).waitFor();
      // An unread message with a long title: its time stays on one line beside it.
      const unread = page.getByRole('region', { name: text('zh', 'console:home.messages') });
      const time = unread.getByRole('listitem').filter({ hasText: '请在本周五之前检查您所管理的全部应用的管理员名单' }).locator('xpath=./span[last()]');
      await time.waitFor();
      assert.equal(await lines(time), 1, `"${await time.textContent()}" is on one line`);
      await page.setViewportSize({ width: 1280, height: 800 });

      const file = join(tmpdir(), `first-week-${process.pid}.csv`);
      writeFileSync(file, 'username,realName,email\nfirst-week-ok,Ok!!,ok@example.com\nbad name,,not-an-email\n');
      await navigateInApp(page, `/operate/user`);
      await settled(page);
      await page.getByRole('button', { name: text('zh', 'admin:import.import'), exact: true }).click();
      const dialog = page.getByRole('dialog', { name: text('zh', 'admin:import.title') });
      await dialog.getByLabel(text('zh', 'admin:import.file')).setInputFiles(file);
      await dialog.getByRole('button', { name: text('zh', 'admin:import.check') }).click();
      const problems = dialog.getByRole('table', { name: text('zh', 'admin:import.problems') });
      for (const column of ['realName', 'username']) {
        const cell = problems.getByRole('cell', { name: column, exact: true }).first();
        await cell.waitFor();
        assert.equal(await lines(cell), 1, `the column name ${column} stays on one line`);
      }
      await noErrors(page, errors, 'CSV import');
      await dialog
        .getByRole('button', { name: text('zh', 'admin:import.close') })
        .last()
        .click();

      // Saving twice says so once: the second toast takes the place of the first.
      await navigateInApp(page, `/operate/setting`);
      await settled(page);
      const saved = page.getByRole('status').filter({ hasText: text('zh', 'settings:done.settingsSaved') });
      for (const round of [1, 2]) {
        await page.getByRole('button', { name: text('zh', 'console:action.save'), exact: true }).click();
        await saved.first().waitFor();
        assert.equal(await saved.count(), 1, `one "settings saved" after save ${round}`);
        await page.waitForTimeout(150);
      }
    } finally {
      await context.close();
    }
  });
});
