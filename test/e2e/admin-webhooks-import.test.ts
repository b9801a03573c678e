// Webhooks and the user CSV import in Chromium: the platform administrator creates a webhook to a
// receiver on 127.0.0.1 (the server allows private targets), copies the secret shown once, sends
// a test (the receiver verifies the signature with standardwebhooks), sees it in the delivery
// log and redelivers it (same webhook-id); imports a small CSV with one bad row (the check lists it), imports the rest (the webhook
// hears of the new people), and exports the list; both screens in Chinese; axe finds nothing
// serious.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { ADMIN, launchBrowser, openPage, startServer } from './harness';
import { bodyRows, openFromMenu, signIn, until } from './admin-support';
import { choose, seriousViolations, text } from './a11y-support';

const posts: { headers: IncomingHttpHeaders; body: string }[] = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  req.on('end', () => {
    posts.push({ headers: req.headers, body });
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/iam-events`;
const server = await startServer({ IAM_OUTBOUND_ALLOW_PRIVATE: '1' });
const browser = await launchBrowser();
after(async () => {
  await browser.close();
  await server.stop();
  await new Promise((resolve) => receiver.close(resolve));
});

let secret = '';
let rotatedSecret = '';
const typeOf = (post: { body: string }) => (JSON.parse(post.body) as { type: string }).type;

test('a webhook: created with its secret shown once, tested, its delivery in the log', async () => {
  const { page, errors } = await openPage(browser);
  await signIn(page, server.url, ADMIN.username, ADMIN.password);
  await openFromMenu(page, 'Webhooks');
  await page.getByRole('button', { name: 'New webhook' }).click();
  const dialog = page.getByRole('dialog', { name: 'New webhook' });
  await dialog.getByLabel('Endpoint URL').fill(hookUrl);
  await dialog.getByLabel('Description').fill('Directory sync');
  await dialog.getByRole('checkbox', { name: 'Person created' }).check();
  assert.deepEqual(await seriousViolations(page, 'webhook dialog'), []);
  await dialog.getByRole('button', { name: 'Save' }).click();

  const secretDialog = page.getByRole('dialog', { name: 'Signing secret' });
  secret = (await secretDialog.locator('code').textContent()) ?? '';
  assert.match(secret, /^whsec_/);
  await secretDialog.getByRole('button', { name: 'Done' }).click();
  const table = page.getByRole('table', { name: 'Webhooks' });
  await bodyRows(table).getByText(hookUrl).waitFor();
  assert.equal(await page.getByText(secret).count(), 0, 'the secret is not shown again');

  await page.getByRole('button', { name: `Send test to ${hookUrl}` }).click();
  await page.getByText('Test event delivered (HTTP 204)').waitFor();
  const test = posts.find((post) => typeOf(post) === 'webhook.test');
  assert.ok(test, 'the receiver got the test');
  new Webhook(secret).verify(test.body, test.headers as Record<string, string>);

  await page.getByRole('button', { name: `Deliveries of ${hookUrl}` }).click();
  const log = page.getByRole('dialog', { name: `Deliveries to ${hookUrl}` });
  const row = bodyRows(log.getByRole('table', { name: 'Deliveries' })).filter({ hasText: 'Test event' });
  await row.getByText('Delivered').waitFor();
  await row.getByText('HTTP 204').waitFor();
  assert.deepEqual(await seriousViolations(page, 'delivery log'), []);

  // Redeliver: asked first, then sent again with the same webhook-id (the receiver can drop the copy).
  await row.getByRole('button', { name: /^Redeliver the Test event delivery of / }).click();
  const again = page.getByRole('dialog', { name: 'Redeliver this event?' });
  await again.getByRole('button', { name: 'Redeliver' }).click();
  await again.waitFor({ state: 'detached' });
  const tests = () => posts.filter((post) => typeOf(post) === 'webhook.test');
  await until(async () => tests().length === 2);
  const [first, copy] = tests();
  assert.equal(copy!.headers['webhook-id'], first!.headers['webhook-id']);
  assert.equal(copy!.body, first!.body);
  await bodyRows(log.getByRole('table', { name: 'Deliveries' }))
    .filter({ hasText: 'Test event' })
    .nth(1)
    .waitFor();
  await page.keyboard.press('Escape');
  await log.waitFor({ state: 'detached' });
  assert.deepEqual(await seriousViolations(page, 'webhooks'), []);

  // A new secret: asked first, then shown once in a dialog that holds the focus (the question closes under it).
  await page.getByRole('button', { name: `More actions for webhook ${hookUrl}` }).click();
  await page.getByRole('menuitem', { name: 'New signing secret' }).click();
  const question = page.getByRole('dialog', { name: 'New signing secret' });
  await question.getByText(`Make a new signing secret for ${hookUrl}?`).waitFor();
  await question.getByRole('button', { name: 'OK' }).click();
  await question.waitFor({ state: 'detached' });
  const rotated = page.getByRole('dialog', { name: 'Signing secret' });
  const newSecret = (await rotated.locator('code').textContent()) ?? '';
  assert.match(newSecret, /^whsec_/);
  assert.notEqual(newSecret, secret);
  // The dialog takes the focus once it has drawn.
  await until(() => rotated.evaluate((dialog) => dialog.contains((dialog.getRootNode() as Document | ShadowRoot).activeElement))).catch(() =>
    assert.fail('the focus is in the secret dialog'),
  );
  await rotated.getByRole('button', { name: 'Done' }).click();
  rotatedSecret = newSecret;
  assert.deepEqual(errors, []);
});

test('a CSV import: the check lists the bad row, the import creates the others, the export lists them', async () => {
  const { page, errors } = await openPage(browser, { expectedFailures: [/\/api\/user\/import/] });
  await signIn(page, server.url, ADMIN.username, ADMIN.password);
  await openFromMenu(page, 'Users');
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Import users from CSV' });
  const template = dialog.getByRole('link', { name: 'Download the template' });
  assert.equal(await template.getAttribute('download'), 'users-template.csv');
  const file = 'username,realName,email\r\ncsv-grace,Grace_Hopper,grace@example.com\r\ncsv-bad,Bad_Row,not-an-email\r\ncsv-alan,Alan_Turing,\r\n';
  await dialog.getByLabel('CSV file').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${file}`) });
  await dialog.getByRole('button', { name: 'Check the file' }).click();
  await dialog.getByRole('status').getByText('Check finished: 2 to create, 0 to update, 0 unchanged, 1 refused.').waitFor();
  const problems = dialog.getByRole('table', { name: 'Refused rows' });
  await problems.waitFor();
  assert.deepEqual(await bodyRows(problems).first().locator('td').allTextContents(), ['3', 'csv-bad', 'email', 'Please enter a valid email address']);
  assert.deepEqual(await seriousViolations(page, 'import check'), []);

  // The check done, "Import" is the next step and has the focus: Enter imports.
  const importButton = dialog.getByRole('button', { name: 'Import', exact: true });
  // (An effect after the render that shows the result moves the focus.)
  await until(() => importButton.evaluate((button) => (button.getRootNode() as Document | ShadowRoot).activeElement === button)).catch(() =>
    assert.fail('the focus is on Import'),
  );
  await page.keyboard.press('Enter');
  await dialog.getByRole('status').getByText('Import finished: 2 created, 0 updated, 0 unchanged, 1 refused.').waitFor();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('table', { name: 'Users' }).getByRole('cell', { name: 'csv-grace', exact: true }).waitFor();
  // The webhook of the first test hears of them.
  await until(async () => posts.filter((post) => typeOf(post) === 'user.created').length === 2);
  // Every post verifies with the first secret (it keeps signing for 24 hours after the new one);
  // those after the new secret verify with it too.
  for (const post of posts) new Webhook(secret).verify(post.body, post.headers as Record<string, string>);
  for (const post of posts.filter((post) => typeOf(post) === 'user.created'))
    new Webhook(rotatedSecret).verify(post.body, post.headers as Record<string, string>);

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export' }).click();
  let csv = '';
  for await (const chunk of await (await download).createReadStream()) csv += String(chunk);
  const lines = csv
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  assert.match(lines[0] ?? '', /^username,realName,email,mobilePhone,description,tenantId,availabilityStatus,/);
  assert.ok(lines.some((line) => line.startsWith('csv-grace,Grace_Hopper,grace@example.com,')));
  assert.ok(lines.some((line) => line.startsWith('csv-alan,Alan_Turing,,')));
  assert.ok(!lines.some((line) => line.startsWith('csv-bad,')));
  assert.deepEqual(errors, []);
});

test('webhooks and the import dialog in Chinese, light theme', async () => {
  const { page } = await openPage(browser);
  await signIn(page, server.url, ADMIN.username, ADMIN.password);
  await page.evaluate(choose, { locale: 'zh' as const, theme: 'light' as const });
  await page.goto(`${server.url}/operate/webhooks`);
  await page.getByRole('heading', { name: text('zh', 'route.webhooks'), level: 1 }).waitFor();
  await page.getByRole('button', { name: text('zh', 'webhooks:testOf', { url: hookUrl }) }).waitFor();
  await page.getByRole('button', { name: text('zh', 'webhooks:create') }).click();
  await page
    .getByRole('dialog', { name: text('zh', 'webhooks:createTitle') })
    .getByRole('checkbox', { name: text('zh', 'webhooks:eventNames.user_password_changed') })
    .waitFor();
  assert.deepEqual(await seriousViolations(page, 'webhook dialog (zh, light)'), []);
  await page.keyboard.press('Escape');
  assert.deepEqual(await seriousViolations(page, 'webhooks (zh, light)'), []);

  await page.goto(`${server.url}/operate/user`);
  await page.getByRole('button', { name: text('zh', 'admin:import.import'), exact: true }).click();
  const dialog = page.getByRole('dialog', { name: text('zh', 'admin:import.title') });
  // The file field is the console's own, in the console's language (not the browser's "Choose File").
  await dialog.getByRole('button', { name: text('zh', 'admin:import.choose') }).waitFor();
  await dialog.getByText(text('zh', 'admin:import.noFile')).waitFor();
  await dialog.getByLabel(text('zh', 'admin:import.file')).setInputFiles({
    name: 'gbk.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from([0x75, 0x73, 0x65, 0x72, 0x6e, 0x61, 0x6d, 0x65, 0x0a, 0xd5, 0xc5, 0xc8, 0xfd, 0x0a]),
  });
  await dialog.getByText('gbk.csv', { exact: true }).waitFor();
  await dialog.getByRole('button', { name: text('zh', 'admin:import.check') }).click();
  await dialog.getByText(text('zh', 'rule.csvEncoding')).waitFor();
  assert.deepEqual(await seriousViolations(page, 'import dialog (zh, light)'), []);
});
