// The personal center's lazily loaded card keeps its place: while its chunk is held back, a stand-in
// (LazyCard, src/react/widgets/LazyCard.tsx) is as large as the card; when the chunk comes with its
// status still held back, and again when the status comes, the card has that same size and the
// card after it has not moved. On a phone and on a desktop, in English; axe-clean while loading.
// The layout shift itself is a figure of `npm run bench` (bench/layout-shift.mjs), not a test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page, Route } from 'playwright-core';
import { ADMIN, openPage, startServerAndBrowser } from './harness';
import { seriousViolations } from './a11y-support';
import { signIn } from './admin-support';

const { server, browser } = await startServerAndBrowser();

/** Requests whose URL matches `pattern` wait until `release()`. */
async function holdBack(page: Page, pattern: RegExp): Promise<{ release: () => Promise<void> }> {
  const held: Route[] = [];
  let releasing = false;
  await page.route(
    (url) => pattern.test(url.pathname),
    (route) => (releasing ? route.continue() : void held.push(route)),
  );
  return {
    release: async () => {
      releasing = true;
      await Promise.all(held.map((route) => route.continue()));
    },
  };
}

const box = async (page: Page, selector: string) => {
  const found = await page.locator(selector).boundingBox();
  assert.ok(found, `${selector} is on the page`);
  return found;
};

for (const [device, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  test(`the recovery codes card keeps the size of its stand-in as it loads (${device})`, async () => {
    const { page, context, errors } = await openPage(browser, { viewport });
    try {
      const chunk = await holdBack(page, /\/chunks\/RecoveryCodesCard-[\w-]+\.js$/);
      const status = await holdBack(page, /\/api\/user\/recovery-codes$/);
      // Signed in through the API (the subject is the card, not the form), straight onto the page.
      await signIn(page, server.url, ADMIN.username, ADMIN.password, '/profile/userInfo');
      const card = page.getByRole('region', { name: 'Recovery codes' });
      const sessions = page.getByRole('region', { name: 'Active sessions' });
      // Everything else has arrived: the details, the authenticator app's status, the passkeys (with
      // the note that this page, at 127.0.0.1, cannot add one: it comes with the login settings and
      // moved the row below it when it came after the measure), the sessions.
      await page.getByRole('region', { name: 'Details' }).getByText(ADMIN.username, { exact: true }).first().waitFor();
      await page.getByRole('button', { name: 'Set up' }).waitFor();
      const passkeys = page.getByRole('region', { name: 'Passkeys' });
      await passkeys.getByText('You have no passkeys yet.').waitFor();
      await passkeys.getByRole('note').getByText('this page is open at an IP address', { exact: false }).waitFor();
      await sessions.getByText('This device').waitFor();

      const standIn = await box(page, 'iam-console div[aria-busy="true"]');
      const sessionsTop = (await sessions.boundingBox())!.y;
      assert.equal(await card.count(), 0, 'the card itself waits for its chunk');
      assert.deepEqual(await seriousViolations(page, `personal center loading (${device})`), []);

      await chunk.release();
      await card.getByText('If you lose your authenticator app or passkey').waitFor();
      const waitingForStatus = (await card.boundingBox())!;
      await status.release();
      await card.getByText('Set up an authenticator app or a passkey first; then you can generate recovery codes.').waitFor();
      const loaded = (await card.boundingBox())!;

      for (const [state, shown] of [
        ['its status loading', waitingForStatus],
        ['loaded', loaded],
      ] as const) {
        assert.deepEqual(
          [shown.x, shown.y, shown.width, shown.height].map(Math.round),
          [standIn.x, standIn.y, standIn.width, standIn.height].map(Math.round),
          `the card ${state} has the stand-in's place and size`,
        );
      }
      assert.equal(Math.round((await sessions.boundingBox())!.y), Math.round(sessionsTop), 'the sessions card has not moved');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}
