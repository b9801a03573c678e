// Screenshots of demo/login.html (the built bundle, served by the real server) in headless
// Chromium at 1280×800: both locales × both themes, each empty, with the validation messages, with
// a refused sign-in, and with the captcha; then a real sign-in that follows `redirect`. The page
// gets `Content-Security-Policy: default-src 'self'; script-src 'self'; style-src 'self'`, and any
// CSP violation or page error fails the run.
// Usage: npm run build && node test/browser/screenshots.mjs [out-dir]   (default /tmp/shots)
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { tsImport } from 'tsx/esm/api';
import { chromiumArgs, findChromium } from '../../scripts/chromium.mjs';

const { ADMIN, startServer } = await tsImport('../e2e/harness.ts', import.meta.url);

const outDir = process.argv[2] ?? '/tmp/shots';
const csp = "default-src 'self'; script-src 'self'; style-src 'self'";
const texts = {
  en: { heading: 'Sign in', submit: 'Sign in', username: 'Username', password: 'Password', captcha: 'Captcha' },
  zh: { heading: '登录', submit: '登录', username: '用户名', password: '密码', captcha: '验证码' },
};
const problems = [];

/** Fonts loaded and CSS transitions (the theme switch fades colours) finished. */
async function settled(page) {
  await page.evaluate(() => Promise.all([document.fonts.ready, ...document.getAnimations().map((animation) => animation.finished)]));
}

async function openDemo(context, origin, attributes) {
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  // The strict CSP of a third-party page, on the demo page whatever the server sends.
  await page.route('**/demo/login.html', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': csp } });
  });
  await page.goto(`${origin}/demo/login.html`);
  await page.locator('iam-login').evaluate((element, values) => {
    for (const [name, value] of Object.entries(values)) element.setAttribute(name, value);
  }, attributes);
  return page;
}

async function signIn(page, text, username, password) {
  await page.getByLabel(text.username, { exact: true }).fill(username);
  await page.getByLabel(text.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: text.submit, exact: true }).click();
}

const server = await startServer();
const browser = await chromium.launch({ executablePath: findChromium(), args: chromiumArgs });
try {
  mkdirSync(outDir, { recursive: true });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  for (const locale of ['en', 'zh']) {
    for (const theme of ['dark', 'light']) {
      const text = texts[locale];
      const page = await openDemo(context, server.url, { locale, theme });
      const shot = async (state) => {
        await settled(page);
        const path = join(outDir, `login-${locale}-${theme}${state ? `-${state}` : ''}.png`);
        await page.screenshot({ path });
        console.log(path);
      };
      await page.getByRole('heading', { name: text.heading }).waitFor();
      await shot('');
      await page.getByRole('button', { name: text.submit, exact: true }).click();
      await page.locator('iam-login [aria-invalid="true"]').first().waitFor();
      await shot('errors');
      // Three refusals of one username make the server ask for a captcha (its default policy).
      const username = `nobody-${locale}-${theme}-${Date.now()}`;
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        await signIn(page, text, username, 'wrong-password-1');
        await page.getByRole('alert').waitFor();
        await page.getByRole('button', { name: text.submit, exact: true }).waitFor();
        if (attempt === 1) await shot('refused');
      }
      await page.getByLabel(text.captcha, { exact: true }).waitFor();
      await page.locator('iam-login img').evaluate((image) => image.decode());
      await shot('captcha');
      await page.close();
    }
  }

  // A real sign-in follows the element's same-origin `redirect` ("/" on the demo page).
  const page = await openDemo(context, server.url, {});
  await signIn(page, texts.en, ADMIN.username, ADMIN.password);
  await page.waitForURL(`${server.url}/`);
  console.log(`signed in as ${ADMIN.username} and followed redirect="/" to ${page.url()}`);
} finally {
  await browser.close();
  await server.stop();
}

if (problems.length) {
  console.error(`Problems on the page:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  process.exitCode = 1;
}
