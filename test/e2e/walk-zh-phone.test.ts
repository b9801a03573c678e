// A new administrator's walk in Chinese, dark theme, at a phone's width (390 px), by keyboard where
// it matters: a failed webhook test and a failed channel delivery say why in Chinese (the server
// stores a code and its raw detail: src/core/schemas/delivery-error.ts), the deliveries dialog
// opens with Enter and gives focus back on Escape, and the message history, channels and delivery
// log fit the phone (rows stacked, no scroller out of the keyboard's reach).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, ApiClient, openPage, startServerAndBrowser, submitSignIn, type WatchedPage } from './harness';
import { choose, navigateInApp, seriousViolations, settled, text } from './a11y-support';
import { until } from './admin-support';

const { server, browser } = await startServerAndBrowser({ IAM_OUTBOUND_ALLOW_PRIVATE: '1' });
const admin = new ApiClient(server.url);
await admin.signIn(ADMIN.username, ADMIN.password);
/** Port 9 (discard) refuses: every post there fails as "could not be reached". */
const HOOK = 'http://127.0.0.1:9/walk-zh';
await admin.call('POST', '/webhooks', { url: HOOK, description: '', enabled: true, events: ['user.created'] });
const channel = await admin.call<{ id: string }>('POST', '/channels', {
  name: '运维群机器人',
  serviceType: 'DING_TALK',
  vendor: 'dingtalk',
  config: { webhook: 'http://127.0.0.1:9/robot', secret: 'SEC-walk' },
});
await admin.call('POST', `/channels/${channel.id}/test`, {});

const unreachable = text('zh', 'admin:deliveryError.unreachable');

async function signedIn(): Promise<WatchedPage> {
  const watched = await openPage(browser, { viewport: { width: 390, height: 844 } });
  await watched.context.addInitScript(choose, { locale: 'zh' as const, theme: 'dark' as const });
  await submitSignIn(watched.page, server.url, ADMIN.username, ADMIN.password, {
    username: text('zh', 'login:identifier.USERNAME_PASSWORD'),
    password: text('zh', 'login:password'),
    submit: text('zh', 'login:submit'),
  });
  await watched.page.waitForURL((url) => url.pathname !== '/login');
  await settled(watched.page);
  return watched;
}

describe('a walk in Chinese on a phone, dark theme', { concurrency: 2 }, () => {
  test('a failed webhook test says why in Chinese; its deliveries open with Enter and close with Escape', async () => {
    const { page, context, errors } = await signedIn();
    try {
      await navigateInApp(page, '/operate/webhooks');
      const send = page.getByRole('button', { name: text('zh', 'webhooks:testOf', { url: HOOK }) });
      await send.focus();
      await page.keyboard.press('Enter');
      const alert = page.getByRole('alert').filter({ hasText: text('zh', 'webhooks:testFailed', { error: '' }) });
      await alert.waitFor();
      assert.match((await alert.textContent()) ?? '', new RegExp(`${unreachable}（ECONNREFUSED）`));
      assert.doesNotMatch((await alert.textContent()) ?? '', /could not be reached/);

      const open = page.getByRole('button', { name: text('zh', 'webhooks:deliveriesOf', { url: HOOK }) });
      await open.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: text('zh', 'webhooks:deliveriesTitle', { url: HOOK }) });
      await dialog.getByText(`${unreachable}（ECONNREFUSED）`).first().waitFor();
      assert.deepEqual(await seriousViolations(page, 'webhook deliveries (zh, dark, 390)'), []);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      // (The dialog gives the focus back in an effect after it is gone.)
      await until(() => open.evaluate((element) => element.matches(':focus'))).catch(() => assert.fail('focus is back on the button that opened the dialog'));
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('the delivery log says why in Chinese; message history and channels fit a phone, keyboard-reachable', async () => {
    const { page, context, errors } = await signedIn();
    try {
      await navigateInApp(page, '/operate/tunnel');
      const log = page.getByRole('table', { name: text('zh', 'settings:log.heading') });
      await log
        .getByText(new RegExp(`^${unreachable}`))
        .first()
        .waitFor();
      assert.equal(await log.getByText(/could not be reached/).count(), 0, 'no English reason in the Chinese console');
      // Moved to in place, as the console's links go (the channels screen is there already).
      for (const path of ['/operate/tunnel', '/profile/messageHis']) {
        await navigateInApp(page, path);
        await page.locator('iam-console tbody tr').first().waitFor();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.equal(overflow, 0, `${path}: nothing sticks out of the phone's width`);
        const wide = await page
          .locator('iam-console table')
          .evaluateAll((tables) => tables.filter((table) => table.parentElement!.scrollWidth > table.parentElement!.clientWidth + 1).length);
        assert.equal(wide, 0, `${path}: every table fits its box (rows stacked)`);
        assert.deepEqual(await seriousViolations(page, `${path} (zh, dark, 390)`), []);
      }
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
