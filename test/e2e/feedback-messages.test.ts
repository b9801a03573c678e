// What the console says after an action, and messages as people read them. A refused form shows
// its error once (under the field, no toast repeating it); success says what happened ("User …
// created"), counts recipients in words ("Sent to 1 recipient"), and a password change says why
// the person is signed out and what to do next; a privilege key's error names its cause. A message
// shows who sent it, opening it shows its text and reads it (the unread badge follows, in
// Chinese); an in-site channel asks no vendor; the delivery log names the recipient and counts the
// attempt. Each test has its own people and page.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, ApiClient, openPage, startServerAndBrowser, type WatchedPage } from './harness';
import { signIn } from './admin-support';
import { choose, navigateInApp, settled, text, type Locale } from './a11y-support';

const { server, browser } = await startServerAndBrowser();
const admin = new ApiClient(server.url);
await admin.signIn(ADMIN.username, ADMIN.password);
const PASSWORD = 'Polish-feedback-1';

async function signedIn(locale: Locale, username: string, password: string, expectedFailures: RegExp[] = []): Promise<WatchedPage> {
  const watched = await openPage(browser, { expectedFailures });
  await watched.context.addInitScript(choose, { locale, theme: 'dark' as const });
  // Through the API: what the console says after signing in is the subject here, not the form.
  await signIn(watched.page, server.url, username, password);
  await settled(watched.page);
  return watched;
}

/** The toasts shown now (errors are role alert, the others role status), by their text. */
const toasts = (page: Page) => page.locator('iam-console [part="toasts"] [role]').allTextContents();

// The tests share nothing but the server: two at a time keeps the file well under a minute.
describe('feedback and messages', { concurrency: 2 }, () => {
  test('a refused form says it once, inline; success says what happened', async () => {
    const { page, context, errors } = await signedIn('en', ADMIN.username, ADMIN.password, [/\/api\/user$/]);
    try {
      await navigateInApp(page, `/operate/user`);
      await page.getByRole('button', { name: 'New user', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'New user' });
      await dialog.getByLabel('Username').fill(ADMIN.username);
      await dialog.getByLabel('Real name').fill('Second_Admin');
      await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.getByText(text('en', 'admin:rule.usernameTaken')).waitFor();
      // The toast would come right after the answer: give it the time, then count.
      await page.waitForTimeout(400);
      assert.deepEqual(await toasts(page), [], 'the username error is under the field only, not in a toast as well');

      await dialog.getByLabel('Username').fill('feedback-ada');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByRole('status').filter({ hasText: 'User feedback-ada created' }).waitFor();

      // A privilege key that breaks the rule: the error says what is wrong with it.
      const app = await admin.call<{ id: string }>('POST', '/apps', { name: 'Feedback_App', detail: '', entrypoint: '', callbackUrl: '' });
      await navigateInApp(page, `/app/detail/${app.id}`);
      await page.getByRole('tab', { name: 'Privileges' }).click();
      await page.getByRole('button', { name: 'Add privilege' }).click();
      const privilege = page.getByRole('dialog', { name: 'New privilege' });
      await privilege.getByLabel('Name', { exact: true }).fill('Orders');
      for (const [key, cause] of [
        ['1orders', 'Start with a letter (A-Z or a-z)'],
        ['orders-', 'End with a letter or a digit'],
        ['my orders', 'Remove the spaces: use only letters, digits, _, - and single dots'],
        ['o', 'Use 2-64 characters; this one has 1'],
      ]) {
        await privilege.getByLabel('Key', { exact: true }).fill(key!);
        await privilege.getByRole('button', { name: 'Save' }).click();
        await privilege.getByText(cause!, { exact: true }).waitFor();
      }
      await privilege.getByLabel('Key', { exact: true }).fill('orders');
      await privilege.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('status').filter({ hasText: 'Privilege Orders added' }).waitFor();

      // Signing out asks in plain words.
      await page.getByRole('button', { name: /^Account menu of / }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      const confirm = page.getByRole('dialog', { name: 'Sign out' });
      await confirm.getByText('Sign out of the console? You will need to sign in again to continue.').waitFor();
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('a changed password signs the person out and says why and what next', async () => {
    await admin.createUser({ username: 'feedback-bo', realName: 'Feedback_Bo', password: PASSWORD });
    const { page, context, errors } = await signedIn('en', 'feedback-bo', PASSWORD);
    try {
      await navigateInApp(page, `/profile/userInfo`);
      await page.getByRole('button', { name: 'Change password' }).click();
      const dialog = page.getByRole('dialog', { name: 'Reset password' });
      await dialog.getByLabel('Old password', { exact: true }).fill(PASSWORD);
      await dialog.getByLabel('New password', { exact: true }).fill('Polish-feedback-2');
      await dialog.getByLabel('Confirm the new password', { exact: true }).fill('Polish-feedback-2');
      await dialog.getByRole('button', { name: 'OK' }).click();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await page.getByRole('status').filter({ hasText: 'Password changed — sign in again with the new password' }).waitFor();
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('a message shows its sender; opening it reads it and the badge follows (zh); one recipient in words (en)', async () => {
    const memberId = await admin.createUser({ username: 'feedback-li', realName: 'Feedback_Li', password: PASSWORD });
    const sender = await signedIn('en', ADMIN.username, ADMIN.password);
    try {
      await navigateInApp(sender.page, `/profile/message`);
      await sender.page.getByRole('button', { name: 'Send a message' }).click();
      const dialog = sender.page.getByRole('dialog', { name: 'Send a message' });
      await dialog.getByLabel('Title').fill('季度访问审查');
      await dialog.getByLabel('Content').fill('请检查你的应用管理员。');
      await dialog.getByLabel('Find a person by username or name').fill('feedback-li');
      await dialog.getByRole('button', { name: 'Add feedback-li' }).click();
      await dialog.getByRole('button', { name: 'Send', exact: true }).click();
      await sender.page
        .getByRole('status')
        .filter({ hasText: /^Sent to 1 recipient$/ })
        .waitFor();
      assert.deepEqual(sender.errors, []);
    } finally {
      await sender.context.close();
    }
    assert.ok(memberId);

    const { page, context, errors } = await signedIn('zh', 'feedback-li', PASSWORD);
    try {
      await navigateInApp(page, `/profile/message`);
      const badge = (name: string) => page.getByRole('banner').getByRole('link', { name, exact: true });
      await badge('消息，1 条未读').waitFor();
      const item = page.getByRole('listitem').filter({ hasText: '季度访问审查' });
      await item.getByText(`发件人：${ADMIN.username}`).waitFor();
      const content = item.getByText('请检查你的应用管理员。');
      assert.equal(await content.isVisible(), false, 'closed: the text is not shown yet');
      await item.getByRole('button', { name: '季度访问审查', expanded: false }).click();
      await content.waitFor();
      await item.getByRole('button', { name: '季度访问审查', expanded: true }).waitFor();
      await badge('消息，无未读').waitFor();
      await item.getByText(text('zh', 'settings:messageStatus.unread'), { exact: true }).waitFor({ state: 'detached' });

      // A code the console sent itself reads "System" in the history.
      await navigateInApp(page, `/profile/messageHis`);
      await page.getByRole('row').filter({ hasText: '季度访问审查' }).getByRole('cell', { name: ADMIN.username, exact: true }).waitFor();
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('an in-site channel asks no vendor; the delivery log names the recipient and counts the attempt', async () => {
    const readerId = await admin.createUser({ username: 'feedback-kai', realName: 'Feedback_Kai', password: PASSWORD });
    const { page, context, errors } = await signedIn('en', ADMIN.username, ADMIN.password);
    try {
      await navigateInApp(page, `/operate/tunnel`);
      await page.getByRole('button', { name: 'New channel' }).click();
      const dialog = page.getByRole('dialog', { name: 'New channel' });
      await dialog.getByLabel('Service type').selectOption('SITE_MESSAGE');
      await dialog.getByText(text('en', 'settings:channel.noSettings')).waitFor();
      assert.equal(await dialog.getByLabel('Vendor', { exact: true }).count(), 0, 'no vendor to name for in-site messages');
      await dialog.getByLabel('Name', { exact: true }).fill('Site notices');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByRole('status').filter({ hasText: 'Channel Site notices created' }).waitFor();

      const channels = await admin.call<{ list: { id: string; name: string }[] }>('GET', '/channels?size=50');
      const channel = channels.list.find((entry) => entry.name === 'Site notices')!;
      await admin.call('POST', '/messages', { title: 'Via the channel', content: 'Hello.', userIds: [readerId], channelId: channel.id });
      const log = page.getByRole('region', { name: 'Delivery log' });
      await log.getByRole('button', { name: 'Refresh' }).click();
      const row = log.getByRole('row').filter({ hasText: 'Via the channel' });
      await row.getByRole('cell', { name: 'feedback-kai', exact: true }).waitFor();
      const cells = await row.getByRole('cell').allTextContents();
      assert.ok(cells.includes('1'), `one attempt, not 0: ${JSON.stringify(cells)}`);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
