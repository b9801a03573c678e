// The audit log screen in Chromium: the platform administrator filters by event type, opens an
// event's details and exports the filtered events as CSV; a tenant administrator sees only their
// subtree's events; the screen in Chinese; axe finds nothing serious in either.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, openPage, startServerAndBrowser } from './harness';
import { bodyRows, columnTexts, openFromMenu, PASSWORD, Seeder, signIn, until } from './admin-support';
import { choose, seriousViolations, text } from './a11y-support';

const { server, browser } = await startServerAndBrowser();
const api = await Seeder.as(server.url);
const root = await api.rootTenant();
const acme = await api.tenant(root.id, 'Acme_Audit');
const other = await api.tenant(root.id, 'Other_Audit');
await api.user({ username: 'acme-admin', tenantId: acme.id, isAdmin: true });
await api.user({ username: 'acme-member', tenantId: acme.id });
await api.user({ username: 'other-member', tenantId: other.id });

const TENANT_COLUMN = 5;
const table = (page: Page, name = 'Audit log') => page.getByRole('table', { name });

test('the platform administrator filters by event type, reads the details and exports CSV', async () => {
  const { page, errors } = await openPage(browser);
  await signIn(page, server.url, ADMIN.username, ADMIN.password);
  await openFromMenu(page, 'Audit log');
  await bodyRows(table(page))
    .first()
    .getByRole('button', { name: /^Details of / })
    .waitFor();
  await page.getByLabel('Event', { exact: true }).selectOption({ label: 'User created' });
  await page.getByRole('button', { name: 'Apply filters' }).click();
  // Three rows, all of them user creations (an empty table, between the request and its answer, is
  // "every" too).
  await until(async () => {
    const events = await columnTexts(table(page), 2);
    return events.length === 3 && events.every((event) => event === 'User created');
  });
  assert.deepEqual(new Set(await columnTexts(table(page), TENANT_COLUMN)), new Set(['Acme_Audit', 'Other_Audit']));

  await bodyRows(table(page))
    .first()
    .getByRole('button', { name: /^Details of User created/ })
    .click();
  const details = page.getByRole('dialog', { name: 'Audit event' });
  // The target by its name, as the log lists it.
  await details.getByText('user other-member').waitFor();
  assert.deepEqual(await seriousViolations(page, 'audit event details'), []);
  await page.keyboard.press('Escape');
  await details.waitFor({ state: 'detached' });

  const exportLink = page.getByRole('link', { name: 'Export CSV' });
  const href = await exportLink.getAttribute('href');
  assert.match(href ?? '', /^\/api\/audit\/export\?action=user\.create$/);
  const download = page.waitForEvent('download');
  await exportLink.click();
  const file = await (await download).createReadStream();
  let csv = '';
  for await (const chunk of file) csv += String(chunk);
  const lines = csv
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  assert.equal(lines[0], 'time,actor,event,success,target type,target,target name,tenant,ip,detail,id,part of');
  assert.equal(lines.length, 4);
  assert.ok(lines.slice(1).every((line) => line.includes(',user.create,')));

  // The time range is typed in the console's own format, not the browser's mm/dd/yyyy: a date in
  // another format is refused on its field, with the format to use; a range is applied.
  const from = page.getByLabel('From', { exact: true });
  await from.fill('11/29/2026');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByText('Write a date as 2026-11-29, or with a time as 2026-11-29 09:30').waitFor();
  assert.equal(await from.getAttribute('aria-invalid'), 'true');
  assert.equal(await exportLink.getAttribute('href'), href, 'a refused range is not applied');
  await from.fill('2100-01-01');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByText('No events match these filters.').waitFor();
  assert.equal(await from.getAttribute('aria-invalid'), null);
  await from.fill('2000-01-01 00:00');
  await page.getByLabel('To', { exact: true }).fill('2099-12-31');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await until(async () => (await columnTexts(table(page), 2)).length === 3);
  assert.match((await exportLink.getAttribute('href')) ?? '', /[?&]from=\d+.*&to=\d+/);
  assert.deepEqual(await seriousViolations(page, 'audit log'), []);
  assert.deepEqual(errors, []);
});

test("a tenant administrator sees only their subtree's events", async () => {
  const { page, errors } = await openPage(browser);
  await signIn(page, server.url, 'acme-admin', PASSWORD);
  await openFromMenu(page, 'Audit log');
  await bodyRows(table(page))
    .first()
    .getByRole('button', { name: /^Details of / })
    .waitFor();
  const tenants = await columnTexts(table(page), TENANT_COLUMN);
  assert.ok(tenants.length >= 2);
  assert.deepEqual(new Set(tenants), new Set(['Acme_Audit']));
  assert.equal(await page.getByText('other-member').count(), 0);
  assert.deepEqual(errors, []);
});

test('the audit log in Chinese', async () => {
  const { page } = await openPage(browser);
  await signIn(page, server.url, ADMIN.username, ADMIN.password);
  await page.evaluate(choose, { locale: 'zh' as const, theme: 'light' as const });
  await page.goto(`${server.url}/operate/audit`);
  await page.getByRole('heading', { name: text('zh', 'route.audit'), level: 1 }).waitFor();
  await page.getByRole('link', { name: text('zh', 'route.audit'), exact: true }).waitFor();
  await page.getByRole('button', { name: text('zh', 'admin:audit.apply') }).waitFor();
  await page.getByRole('link', { name: text('zh', 'admin:audit.export') }).waitFor();
  // The time fields say their format in Chinese (the browser's date input would not).
  assert.equal(await page.getByLabel(text('zh', 'admin:audit.from'), { exact: true }).getAttribute('placeholder'), text('zh', 'admin:audit.timePlaceholder'));
  await page.getByText(text('zh', 'admin:audit.timeFormat')).first().waitFor();
  await bodyRows(table(page, text('zh', 'route.audit')))
    .getByText(text('zh', 'admin:audit.actions.user_create'))
    .first()
    .waitFor();
  assert.deepEqual(await seriousViolations(page, 'audit log (zh, light)'), []);
});
