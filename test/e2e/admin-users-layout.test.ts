// The users screen's layout in Chromium with long, realistic values: at 1280 px the table fits
// (no sideways scrolling, the Actions column in view), the More menu opens inside the window; on
// a 390 px phone the rows are cards whose actions are reachable without sideways scrolling;
// Unlock asks first. Axe finds nothing serious.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, ApiClient, openPage, startServerAndBrowser } from './harness';
import { openFromMenu, Seeder, signIn, until } from './admin-support';
import { seriousViolations } from './a11y-support';

const { server, browser } = await startServerAndBrowser();
const api = await Seeder.as(server.url);
const root = await api.rootTenant();
const department = await api.tenant(root.id, 'Acme_Subsidiary_Operations', 'department');
const people = ['alexandra-montgomery', 'bartholomew-fitzroy', 'christopher-welling', 'dorothea-vanderbilt', 'evangeline-harrison'];
for (const [index, username] of people.entries()) {
  await api.user({
    username,
    realName: username
      .split('-')
      .map((part) => part[0]!.toUpperCase() + part.slice(1))
      .join('_'),
    email: `${username.replace('-', '.')}@subsidiary-operations.example.com`,
    mobilePhone: `1391234567${index}`,
    tenantId: department.id,
  });
}
const policy = await api.call<{ version: number }>('GET', '/settings/login');
await api.call('PUT', '/settings/login', { maxFailures: 3, captchaAfterFailures: 0, version: policy.version });
for (let attempt = 0; attempt < 3; attempt += 1) await assert.rejects(new ApiClient(server.url).signIn('evangeline-harrison', 'Wrong-pass-1'));

const table = (page: Page) => page.getByRole('table', { name: 'Users' });

/** Sideways overflow of the page and of the table's scroll box, in px (0: none). */
const overflow = (page: Page) =>
  table(page).evaluate((element) => {
    const box = element.parentElement!;
    return { page: document.documentElement.scrollWidth - document.documentElement.clientWidth, table: box.scrollWidth - box.clientWidth };
  });

async function insideViewport(page: Page, what: string, box: { x: number; y: number; width: number; height: number } | null): Promise<void> {
  const viewport = page.viewportSize()!;
  assert.ok(box, `${what} is shown`);
  assert.ok(
    box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height,
    `${what} inside ${JSON.stringify(viewport)}: ${JSON.stringify(box)}`,
  );
}

async function usersScreen(viewport: { width: number; height: number }): Promise<{ page: Page; errors: string[] }> {
  const { page, errors } = await openPage(browser, { viewport });
  await signIn(page, server.url, ADMIN.username, ADMIN.password);
  if (viewport.width >= 1000) await openFromMenu(page, 'Users');
  else await page.goto(`${server.url}/operate/user`);
  await table(page).getByRole('button', { name: 'Edit evangeline-harrison' }).waitFor();
  return { page, errors };
}

test('at 1280 px the table fits, Actions in view, the More menu inside the window; Unlock asks first', async () => {
  const { page, errors } = await usersScreen({ width: 1280, height: 800 });
  assert.deepEqual(await overflow(page), { page: 0, table: 0 });
  await insideViewport(page, 'the Actions header', await table(page).getByRole('columnheader', { name: 'Actions' }).boundingBox());
  for (const username of people) {
    await insideViewport(page, `More for ${username}`, await page.getByRole('button', { name: `More actions for ${username}` }).boundingBox());
  }
  await page.getByRole('button', { name: 'More actions for evangeline-harrison' }).click();
  const menu = page.getByRole('menu', { name: 'More actions for evangeline-harrison' });
  await menu.waitFor();
  await insideViewport(page, 'the More menu', await menu.boundingBox());
  await page.getByRole('menuitem', { name: 'Unlock' }).click();
  const question = page.getByRole('dialog', { name: 'Unlock user' });
  await question.getByText('Unlock evangeline-harrison?').waitFor();
  await question.getByRole('button', { name: 'Cancel' }).click();
  await question.waitFor({ state: 'detached' });
  await assert.rejects(new ApiClient(server.url).signIn('evangeline-harrison', 'Secret-e2e-1'), 'still locked after Cancel');
  assert.deepEqual(await seriousViolations(page, 'users at 1280 px'), []);
  assert.deepEqual(errors, []);
});

test('on a 390 px phone the rows are cards: no sideways scrolling, actions and their menu in view', async () => {
  const { page, errors } = await usersScreen({ width: 390, height: 844 });
  assert.deepEqual(await overflow(page), { page: 0, table: 0 });
  const edit = page.getByRole('button', { name: 'Edit alexandra-montgomery' });
  await edit.scrollIntoViewIfNeeded();
  await insideViewport(page, 'Edit on a phone', await edit.boundingBox());
  const more = page.getByRole('button', { name: 'More actions for alexandra-montgomery' });
  await insideViewport(page, 'More on a phone', await more.boundingBox());
  await more.click();
  const menu = page.getByRole('menu', { name: 'More actions for alexandra-montgomery' });
  await until(async () => (await menu.boundingBox()) !== null);
  await insideViewport(page, 'the More menu on a phone', await menu.boundingBox());
  await page.keyboard.press('Escape');
  // The e-mail of a card wraps inside it; the card's cells name their columns.
  await table(page)
    .getByRole('cell', { name: /alexandra\.montgomery@/ })
    .first()
    .waitFor();
  assert.equal(
    await table(page)
      .getByRole('cell', { name: /alexandra\.montgomery@/ })
      .first()
      .evaluate((cell) => getComputedStyle(cell, '::before').content),
    '"Email and phone"',
  );
  assert.deepEqual(await seriousViolations(page, 'users on a phone'), []);
  assert.deepEqual(errors, []);
});
