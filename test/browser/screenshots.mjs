// Screenshots of demo/login.html (the built bundle) in headless Chromium, at 1280×800, in both
// locales and both themes, with and without the validation messages. The page is served with
// `Content-Security-Policy: default-src 'self'; script-src 'self'; style-src 'self'`, and any CSP
// violation fails the run. Usage: npm run build && node test/browser/screenshots.mjs [out-dir]
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import fastifyStatic from '@fastify/static';
import { chromium } from 'playwright-core';
import { chromiumArgs, findChromium } from '../../scripts/chromium.mjs';

const root = new URL('../..', import.meta.url).pathname;
const outDir = process.argv[2] ?? '/tmp/shots';
const csp = "default-src 'self'; script-src 'self'; style-src 'self'";
const variants = [
  { locale: 'en', theme: 'dark', heading: 'Sign in', submit: 'Sign in' },
  { locale: 'en', theme: 'light', heading: 'Sign in', submit: 'Sign in' },
  { locale: 'zh', theme: 'dark', heading: '登录', submit: '登录' },
  { locale: 'zh', theme: 'light', heading: '登录', submit: '登录' },
];

/** Fonts loaded and CSS transitions (the theme switch fades colours) finished. */
async function settled(page) {
  await page.evaluate(() => Promise.all([document.fonts.ready, ...document.getAnimations().map((animation) => animation.finished)]));
}

const server = Fastify();
server.addHook('onSend', async (_request, reply) => {
  reply.header('content-security-policy', csp);
});
await server.register(fastifyStatic, { root, serve: true, index: false, list: false });
const origin = await server.listen({ port: 0, host: '127.0.0.1' });

const browser = await chromium.launch({ executablePath: findChromium(), args: chromiumArgs });
const problems = [];
try {
  mkdirSync(outDir, { recursive: true });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  for (const { locale, theme, heading, submit } of variants) {
    await page.goto(`${origin}/demo/login.html`);
    await page.locator('iam-login').evaluate((element, attributes) => {
      for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    }, { locale, theme });
    await page.getByRole('heading', { name: heading }).waitFor();
    await settled(page);
    const base = join(outDir, `login-${locale}-${theme}`);
    await page.screenshot({ path: `${base}.png` });
    await page.getByRole('button', { name: submit, exact: true }).click();
    await page.locator('iam-login [aria-invalid="true"]').first().waitFor();
    await settled(page);
    await page.screenshot({ path: `${base}-errors.png` });
    console.log(`${base}.png, ${base}-errors.png`);
  }
} finally {
  await browser.close();
  await server.close();
}

if (problems.length) {
  console.error(`Problems on the page:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  process.exitCode = 1;
}
