// The top bar's unread badge, in Chinese: the count on the messages link (its accessible name says
// it), which goes to profile/message; it follows marking read and deleting at once, new messages
// within a minute while the page is visible, and it asks nothing while the page is hidden.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, ApiClient, openPage, startServerAndBrowser, type WatchedPage } from './harness';

const MEMBER = { username: 'lina', realName: 'Lina', password: 'Member-badge-1' };

const { server, browser } = await startServerAndBrowser();
let watched: WatchedPage;
let page: Page;
let admin: ApiClient;
let memberId = '';
/** Reads of the unread count made by the page. */
let countReads = 0;

const send = (title: string) => admin.call('POST', '/messages', { title, content: `${title}。`, userIds: [memberId] });

before(async () => {
  admin = new ApiClient(server.url);
  await admin.signIn(ADMIN.username, ADMIN.password);
  memberId = await admin.createUser(MEMBER);
  for (const title of ['第一条', '第二条', '第三条']) await send(title);
  watched = await openPage(browser);
  page = watched.page;
  await watched.context.addInitScript(() => localStorage.setItem('iam-locale', 'zh'));
  // The page's clock runs at real speed; the test jumps it ahead to reach the minute's refresh.
  await page.clock.install();
  page.on('request', (request) => {
    if (request.url().endsWith('/api/messages/unread/count')) countReads += 1;
  });
});

/** As when the tab is switched away and back (the page sees document.hidden and the event). */
const setHidden = (hidden: boolean) =>
  page.evaluate(`Object.defineProperty(document, 'hidden', { configurable: true, value: ${hidden} }); document.dispatchEvent(new Event('visibilitychange'));`);

const badge = (name: string) => page.getByRole('banner').getByRole('link', { name, exact: true });

test('the badge shows the unread count and leads to the messages', async () => {
  await page.goto(`${server.url}/login`);
  await page.getByLabel('用户名').fill(MEMBER.username);
  await page.getByLabel('密码', { exact: true }).fill(MEMBER.password);
  await page.getByRole('button', { name: '登录' }).click();
  await page.waitForURL(/\/home\/index$/);
  await badge('消息，3 条未读').waitFor();
  assert.equal(await page.getByRole('banner').getByText('3', { exact: true }).count(), 1, 'the number is drawn on the link');

  await badge('消息，3 条未读').click();
  await page.waitForURL(/\/profile\/message$/);
  await page.getByRole('heading', { name: '站内消息' }).first().waitFor();
});

test('marking read and deleting update the badge at once', async () => {
  await page.getByRole('button', { name: '标为已读：第一条' }).click();
  await badge('消息，2 条未读').waitFor();
  await page.getByRole('button', { name: '删除 第二条' }).click();
  await badge('消息，1 条未读').waitFor();
});

test('a new message shows within a minute while the page is visible; none is asked while hidden', async () => {
  await send('第四条');
  await page.clock.fastForward(61_000);
  await badge('消息，2 条未读').waitFor();

  // Hidden: the timer stops, however long it stays hidden.
  await setHidden(true);
  const before = countReads;
  await send('第五条');
  await page.clock.fastForward(5 * 61_000);
  await page.waitForTimeout(300);
  assert.equal(countReads, before, 'no reads while hidden');

  // Visible again: read at once.
  await setHidden(false);
  await badge('消息，3 条未读').waitFor();

  await page.getByRole('button', { name: '全部标为已读' }).click();
  await badge('消息，无未读').waitFor();
  assert.equal(await page.getByRole('banner').getByText('3', { exact: true }).count(), 0, 'no number when none is unread');
  assert.deepEqual(watched.errors, []);
});
