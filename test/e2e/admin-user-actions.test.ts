// The user list's administrator actions in Chromium: a person's sessions and "Sign out everywhere"
// (the person's API session really ends), bulk actions on selected users with one question and a
// result per user, the unlock question, in English and Chinese; axe finds nothing serious.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, ApiClient, openPage, startServerAndBrowser } from './harness';
import { bodyRows, openFromMenu, PASSWORD, Seeder, signIn, until } from './admin-support';
import { choose, seriousViolations, text } from './a11y-support';

const { server, browser } = await startServerAndBrowser();
const api = await Seeder.as(server.url);
const root = await api.rootTenant();
const crew = await api.tenant(root.id, 'Crew_Tenant');
for (const username of ['crew-ann', 'crew-bob', 'crew-cat']) await api.user({ username, tenantId: crew.id });

const table = (page: Page, name = 'Users') => page.getByRole('table', { name });
const rowOf = (page: Page, username: string) => bodyRows(table(page)).filter({ has: page.getByRole('cell', { name: username, exact: true }) });

async function usersScreen(): Promise<{ page: Page; errors: string[] }> {
  const { page, errors } = await openPage(browser);
  await signIn(page, server.url, ADMIN.username, ADMIN.password);
  await openFromMenu(page, 'Users');
  await page.getByRole('searchbox', { name: 'Search' }).fill('crew-');
  await until(async () => (await bodyRows(table(page)).count()) === 3);
  return { page, errors };
}

test("an administrator sees a person's sessions, ends one, and signs them out everywhere", async () => {
  const bob = new ApiClient(server.url);
  await bob.signIn('crew-bob', PASSWORD);
  const bobLostLaptop = new ApiClient(server.url);
  await bobLostLaptop.signIn('crew-bob', PASSWORD);
  const { page, errors } = await usersScreen();
  await page.getByRole('button', { name: 'More actions for crew-bob' }).click();
  await page.getByRole('menuitem', { name: 'Sessions' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sessions of crew-bob' });
  const sessions = dialog.getByRole('list', { name: 'Console sessions of crew-bob' });
  await sessions.getByRole('listitem').first().waitFor();
  assert.equal(await sessions.getByRole('listitem').count(), 2);
  // One session ends (a lost laptop); the other goes on.
  await sessions
    .getByRole('listitem')
    .first()
    .getByRole('button', { name: /^End session on .+, last active / })
    .click();
  await page.getByText(/^The session on .+ was ended; the other sessions go on\.$/).waitFor();
  await until(async () => (await sessions.getByRole('listitem').count()) === 1);
  const signedIn = async (client: ApiClient) =>
    client.call('GET', '/cas/session').then(
      () => true,
      () => false,
    );
  assert.equal(Number(await signedIn(bob)) + Number(await signedIn(bobLostLaptop)), 1, 'exactly one of the two sessions ended');
  await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
  const question = dialog.getByRole('group', { name: 'Sign out everywhere?' });
  await question.getByText('End every session of crew-bob').waitFor();
  assert.equal(
    await page.evaluate(() => document.querySelector('iam-console')?.shadowRoot?.activeElement?.textContent),
    'Cancel',
    'the safe answer has the focus',
  );
  assert.deepEqual(await seriousViolations(page, 'sessions dialog'), []);
  await question.getByRole('button', { name: 'Sign out everywhere' }).click();
  await page.getByText('crew-bob was signed out everywhere (1 console session ended).').waitFor();
  await dialog.getByText('No active sessions.').waitFor();
  await assert.rejects(bob.call('GET', '/cas/session'), /401/);
  await assert.rejects(bobLostLaptop.call('GET', '/cas/session'), /401/);
  assert.deepEqual(errors, []);
});

test('bulk actions: select users, one question, a result per user', async () => {
  const { page, errors } = await usersScreen();
  await page.getByRole('checkbox', { name: 'Select crew-ann' }).check();
  await page.getByRole('checkbox', { name: 'Select crew-cat' }).check();
  const bar = page.getByRole('group', { name: 'Bulk actions' });
  await bar.getByText('2 selected').waitFor();
  assert.equal(await page.getByRole('checkbox', { name: 'Select all users on this page' }).evaluate((box: HTMLInputElement) => box.indeterminate), true);
  await bar.getByRole('button', { name: 'Disable' }).click();
  const confirm = page.getByRole('dialog', { name: 'Disable users' });
  await confirm.getByText('Disable 2 users: crew-cat, crew-ann? They are signed out everywhere.').waitFor();
  await confirm.getByRole('button', { name: 'Disable' }).click();
  const outcome = page.getByRole('dialog', { name: 'Disable users' }).getByRole('list', { name: 'Result per user' });
  await outcome.waitFor();
  assert.deepEqual(await outcome.getByRole('listitem').allTextContents(), ['crew-cat: done', 'crew-ann: done']);
  await page.getByText('Done for 2 of 2.').waitFor();
  assert.deepEqual(await seriousViolations(page, 'bulk results'), []);
  await page.getByRole('button', { name: 'Close', exact: true }).first().click();
  await rowOf(page, 'crew-ann').getByText('Disabled').waitFor();
  await rowOf(page, 'crew-cat').getByText('Disabled').waitFor();
  await rowOf(page, 'crew-bob').getByText('Enabled').waitFor();
  assert.equal(await bar.count(), 0, 'the selection is gone with the reload');

  // Select all, enable: one user each, every one done.
  await page.getByRole('checkbox', { name: 'Select all users on this page' }).check();
  await bar.getByText('3 selected').waitFor();
  await bar.getByRole('button', { name: 'Enable' }).click();
  await page.getByRole('dialog', { name: 'Enable users' }).getByRole('button', { name: 'Enable' }).click();
  await page.getByText('Done for 3 of 3.').waitFor();
  assert.deepEqual(errors, []);
});

test('bulk actions and sessions in Chinese', async () => {
  const { page } = await openPage(browser);
  await signIn(page, server.url, ADMIN.username, ADMIN.password);
  await page.evaluate(choose, { locale: 'zh' as const, theme: 'light' as const });
  await page.goto(`${server.url}/operate/user`);
  const users = table(page, text('zh', 'route.user'));
  await users.getByRole('checkbox', { name: text('zh', 'admin:bulk.select', { name: 'crew-ann' }) }).check();
  const bar = page.getByRole('group', { name: text('zh', 'admin:bulk.label') });
  await bar.getByText(text('zh', 'admin:bulk.selected', { count: '1' })).waitFor();
  await bar.getByRole('button', { name: text('zh', 'admin:bulk.action.unlock') }).click();
  await page
    .getByRole('dialog', { name: text('zh', 'admin:bulk.title.unlock') })
    .getByText(text('zh', 'admin:bulk.question.unlock', { count: '1', names: 'crew-ann' }))
    .waitFor();
  assert.deepEqual(await seriousViolations(page, 'bulk question (zh, light)'), []);
});
