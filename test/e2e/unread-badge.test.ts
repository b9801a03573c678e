// The top bar's unread badge, in Chinese: the count on the messages link (its accessible name says
// it), which goes to profile/message; it follows marking read and deleting at once, new messages
// within a minute while the page is visible, and it asks nothing while hidden. Each test has a
// member of its own with their own messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, ApiClient, openPage, startServerAndBrowser, type WatchedPage } from './harness';

const PASSWORD = 'Member-badge-1';

const { server, browser } = await startServerAndBrowser();
const admin = new ApiClient(server.url);
await admin.signIn(ADMIN.username, ADMIN.password);
let members = 0;

/** Each test's own fixture: a new member with `titles` unread, signed in (in Chinese) on a page of
 *  their own whose clock the test can move, counting the page's reads of the unread count. */
async function memberWithMessages(
  titles: string[],
): Promise<{ watched: WatchedPage; page: Page; send: (title: string) => Promise<unknown>; countReads: () => number }> {
  members += 1;
  const username = `lina-${members}`;
  const memberId = await admin.createUser({ username, realName: `Lina_${members}`, password: PASSWORD });
  const send = (title: string) => admin.call('POST', '/messages', { title, content: `${title}。`, userIds: [memberId] });
  for (const title of titles) await send(title);
  const watched = await openPage(browser);
  const { page } = watched;
  await watched.context.addInitScript(() => localStorage.setItem('iam-locale', 'zh'));
  // The page's clock runs at real speed; a test jumps it ahead to reach the minute's refresh.
  await page.clock.install();
  let reads = 0;
  page.on('request', (request) => {
    if (request.url().endsWith('/api/messages/unread/count')) reads += 1;
  });
  await page.goto(`${server.url}/login`);
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: '登录' }).click();
  await page.waitForURL(/\/home\/index$/);
  return { watched, page, send, countReads: () => reads };
}

/** As when the tab is switched away and back (the page sees document.hidden and the event). */
const setHidden = (page: Page, hidden: boolean) =>
  page.evaluate(`Object.defineProperty(document, 'hidden', { configurable: true, value: ${hidden} }); document.dispatchEvent(new Event('visibilitychange'));`);

const badge = (page: Page, name: string) => page.getByRole('banner').getByRole('link', { name, exact: true });

test('the badge shows the unread count and leads to the messages', async () => {
  const { watched, page } = await memberWithMessages(['第一条', '第二条', '第三条']);
  await badge(page, '消息，3 条未读').waitFor();
  assert.equal(await page.getByRole('banner').getByText('3', { exact: true }).count(), 1, 'the number is drawn on the link');

  await badge(page, '消息，3 条未读').click();
  await page.waitForURL(/\/profile\/message$/);
  await page.getByRole('heading', { name: '站内消息' }).first().waitFor();
  assert.deepEqual(watched.errors, []);
});

test('marking read and deleting update the badge at once', async () => {
  const { watched, page } = await memberWithMessages(['第一条', '第二条', '第三条']);
  await page.goto(`${server.url}/profile/message`);
  await page.getByRole('button', { name: '标为已读：第一条' }).click();
  await badge(page, '消息，2 条未读').waitFor();
  await page.getByRole('button', { name: '删除 第二条' }).click();
  await badge(page, '消息，1 条未读').waitFor();
  assert.deepEqual(watched.errors, []);
});

test('a new message shows within a minute while the page is visible; none is asked while hidden', async () => {
  const { watched, page, send, countReads } = await memberWithMessages(['第一条']);
  await page.goto(`${server.url}/profile/message`);
  await badge(page, '消息，1 条未读').waitFor();
  await send('第四条');
  await page.clock.fastForward(61_000);
  await badge(page, '消息，2 条未读').waitFor();

  // Hidden: the timer stops, however long it stays hidden.
  await setHidden(page, true);
  const before = countReads();
  await send('第五条');
  await page.clock.fastForward(5 * 61_000);
  await page.waitForTimeout(300);
  assert.equal(countReads(), before, 'no reads while hidden');

  // Visible again: read at once.
  await setHidden(page, false);
  await badge(page, '消息，3 条未读').waitFor();

  await page.getByRole('button', { name: '全部标为已读' }).click();
  await badge(page, '消息，无未读').waitFor();
  assert.equal(await page.getByRole('banner').getByText('3', { exact: true }).count(), 0, 'no number when none is unread');
  assert.deepEqual(watched.errors, []);
});
