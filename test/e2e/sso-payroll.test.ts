// The Payroll demo (demo/payroll: oauth4webapi and jose, not the server's own libraries), registered
// as `npm start` registers it (server/seed/payroll.ts), driven in Chromium: a person signs in through
// the console, sees their roles, privileges and the app's menu, calls Payroll's API (protected by
// introspection), logs out everywhere (the console session too), and, disabled, loses access at once
// (the console's back-channel logout ends Payroll's session; signing in again is refused).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN, ApiClient, freePort, launchBrowser, openPage, startServer } from './harness';
import { openDatabase } from '../../server/db/connect';
import { registerPayroll } from '../../server/seed/payroll';

// demo/payroll/server.mjs has no typings: import it by URL and say what it gives.
type StartPayroll = (options: {
  issuer: string;
  client: { clientId: string; clientSecret: string };
  port: number;
  origin: string;
}) => Promise<{ url: string; stop(): Promise<void> }>;
const { startPayroll } = (await import(new URL('../../demo/payroll/server.mjs', import.meta.url).href)) as { startPayroll: StartPayroll };

const dataDir = mkdtempSync(join(tmpdir(), 'iam-e2e-payroll-'));
// Payroll listens on this machine: its back-channel logout URI is a loopback address, which the
// server posts to only when the operator allows private targets (as `npm start` does for the demo).
const server = await startServer({ IAM_DATA_DIR: dataDir, IAM_OUTBOUND_ALLOW_PRIVATE: '1' });
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const database = await openDatabase({ dataDir, databaseUrl: undefined });
const client = await registerPayroll(database.kysely, origin, ADMIN.username);
await database.close();
const { issuer } = (await (await fetch(`${server.url}/api/oidc/.well-known/openid-configuration`)).json()) as { issuer: string };
const payroll = await startPayroll({ issuer, client, port, origin });
const browser = await launchBrowser();
after(async () => {
  await browser.close();
  await payroll.stop();
  await server.stop();
});

const admin = new ApiClient(server.url);
await admin.signIn(ADMIN.username, ADMIN.password);
const clerk = { username: 'payroll-clerk', realName: 'Clara_Clerk', password: 'Clerk-2024-pw' };
const clerkId = await admin.createUser(clerk);
const roles = await admin.call<{ list: { id: string; name: string }[] }>('GET', `/apps/${client.clientId}/roles?pageSize=50`);
await admin.call('PUT', `/user/${clerkId}/roles/${client.clientId}`, { roleIds: [roles.list.find((role) => role.name === 'Payroll clerk')!.id] });

async function signInThroughConsole(page: import('playwright-core').Page) {
  await page.goto(`${payroll.url}/`);
  await page.getByRole('link', { name: 'Sign in with the console' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('Username').fill(clerk.username);
  await page.getByLabel('Password', { exact: true }).fill(clerk.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test("Payroll's API refuses calls without a live token from the console", async () => {
  assert.equal((await fetch(`${payroll.url}/api/payslips`)).status, 401);
  assert.equal((await fetch(`${payroll.url}/api/payslips`, { headers: { authorization: 'Bearer forged-token' } })).status, 401);
});

test('a person signs in to Payroll, sees roles, privileges and menu, calls its API, and logs out everywhere; disabled, they lose access', async () => {
  const { page, context, errors } = await openPage(browser);
  await signInThroughConsole(page);
  await page.getByTestId('person').filter({ hasText: clerk.realName }).waitFor();
  assert.equal(new URL(page.url()).origin, payroll.url);
  assert.deepEqual(await page.getByTestId('roles').locator('span').allTextContents(), ['Payroll clerk']);
  assert.deepEqual(await page.getByTestId('privileges').locator('span').allTextContents(), ['payslips_view']);
  const menu = page.getByRole('navigation', { name: 'Payroll menu' });
  assert.deepEqual(await menu.getByRole('listitem').allTextContents(), ['View payslips /payslips'], 'only the items of the held privileges');

  await page.getByRole('link', { name: 'Load my payslips' }).click();
  await page.getByTestId('payslips').waitFor();
  assert.match((await page.getByTestId('payslips').textContent()) ?? '', /4210\.5 EUR/);
  await page.getByRole('link', { name: 'Back' }).click();

  // RP-initiated logout: the console asks, then ends its own session too.
  await page.getByRole('link', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await page.getByTestId('signed-out').waitFor();
  assert.equal(new URL(page.url()).origin, payroll.url);
  assert.equal((await context.request.get(`${server.url}/api/cas/session`)).status(), 401, 'the console session ended');

  // Signed in again, then disabled by an administrator: the console's logout token ends Payroll's session.
  await signInThroughConsole(page);
  await page.getByTestId('person').waitFor();
  const { version } = await admin.call<{ version: number }>('GET', `/user/${clerkId}`);
  await admin.call('PUT', `/user/${clerkId}`, { availabilityStatus: 2, version });
  const deadline = Date.now() + 10_000;
  for (;;) {
    await page.reload();
    if (await page.getByTestId('signed-out').isVisible()) break;
    assert.ok(Date.now() < deadline, 'Payroll still shows the disabled person after 10 s');
    await page.waitForTimeout(300);
  }
  await page.getByRole('link', { name: 'Sign in with the console' }).click();
  await page.getByLabel('Username').fill(clerk.username);
  await page.getByLabel('Password', { exact: true }).fill(clerk.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').waitFor();
  assert.notEqual(new URL(page.url()).origin, payroll.url, 'a disabled person is not signed in to Payroll');
  assert.deepEqual(
    errors.filter((error) => !/Failed to load resource/.test(error)),
    [],
  );
  await context.close();
});
