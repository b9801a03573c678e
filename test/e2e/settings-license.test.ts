// The license (operate/setting, License tab) with a license issued by the vendor's tool
// (`npm run license -- keygen|issue`): copy the request code, paste and activate the license, see
// its status and, as it expires within 30 days, the banner; a tampered license is refused.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { ADMIN, launchBrowser, openPage, startServer, type RunningServer } from './harness';
import { signIn } from './admin-support';

const root = fileURLToPath(new URL('../..', import.meta.url));
const keys = mkdtempSync(join(tmpdir(), 'iam-license-keys-'));
let server: RunningServer;
let browser: Browser;

const licenseTool = (...args: string[]) => execFileSync('npm', ['run', '--silent', 'license', '--', ...args], { cwd: root, encoding: 'utf8' }).trim();

before(async () => {
  licenseTool('keygen', '--out', keys);
  // The server (a child process) takes the vendor's public key from its environment.
  [server, browser] = await Promise.all([startServer({ IAM_LICENSE_PUBLIC_KEY: join(keys, 'vendor-public.pem') }), launchBrowser()]);
});

after(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(keys, { recursive: true, force: true });
});

test('copy the request code, activate the issued license, see its status and the expiry banner', async () => {
  const { page, context, errors } = await openPage(browser, { expectedFailures: [/\/api\/license\/auth$/] });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await signIn(page, server.url, ADMIN.username, ADMIN.password, '/operate/setting');
  await page.getByRole('tab', { name: 'License' }).click();
  const status = page.getByRole('region', { name: 'License' });
  await status.getByText('Not activated').first().waitFor();

  const codeBox = page.getByRole('textbox', { name: 'Request code' });
  let code = '';
  for (let tries = 0; tries < 100 && !/^\S{16,}$/.test(code); tries++) {
    if (tries) await page.waitForTimeout(100);
    code = await codeBox.inputValue(); // 'Loading…' until the code is there
  }
  await page.getByRole('button', { name: 'Copy' }).click();
  await page.getByText('The request code is copied').waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), code);

  const expires = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
  const issued = licenseTool(
    'issue',
    '--key',
    join(keys, 'vendor-private.pem'),
    '--request',
    code,
    '--licensee',
    'ACME Corp',
    '--expires',
    expires,
    '--users',
    '50',
  );

  // A tampered license is refused with the server's reason.
  await page.getByLabel('New license').fill(`${issued.slice(0, -4)}AAAA`);
  await page.getByRole('button', { name: 'Activate' }).click();
  await page.getByRole('alert').first().waitFor();
  await status.getByText('Not activated').first().waitFor();

  await page.getByLabel('New license').fill(issued);
  await page.getByRole('button', { name: 'Activate' }).click();
  await page.getByText('The license is active').waitFor();
  await status.getByText('Valid').first().waitFor();
  await status.getByText('ACME Corp').waitFor();
  await status.getByText(expires).waitFor();
  await page
    .getByRole('status')
    .filter({ hasText: `The license expires on ${expires} (in 20 days)` })
    .waitFor();

  // The banner stays after a reload, on every tab.
  await page.reload();
  await page.getByRole('tab', { name: 'Login management' }).waitFor();
  await page
    .getByRole('status')
    .filter({ hasText: `The license expires on ${expires}` })
    .waitFor();
  assert.deepEqual(errors, []);
});
