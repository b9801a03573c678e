// Cold loads in headless Chromium (Debian's, through playwright-core): each load in a fresh
// browser context (empty cache, no cookies), timed in the page from navigation start until the
// sign-in form's username input is visible. Also lists the bundle files each load fetched.
import { chromium } from 'playwright-core';
import { chromiumArgs, findChromium } from '../scripts/chromium.mjs';
import { median } from './stats.mjs';

const LOAD_TIMEOUT_MS = 20_000;

/**
 * Runs in the page: performance.now() (ms since navigation start) once the username input of a
 * sign-in form is visible, searching open shadow roots too (the console renders in one); false before.
 * The input is found by the autocomplete token every sign-in form carries (`username`, with `webauthn`
 * beside it where passkeys may fill it in; docs/architecture.md, budgets).
 */
function usernameVisibleAt() {
  const find = (root) => {
    const hit = root.querySelector('input[autocomplete~="username"]');
    if (hit) return hit;
    for (const element of root.querySelectorAll('*')) {
      const inner = element.shadowRoot && find(element.shadowRoot);
      if (inner) return inner;
    }
    return null;
  };
  const input = find(document);
  return input !== null && input.checkVisibility() ? performance.now() : false;
}

/** Paths under /dist/ of the JavaScript a page fetched (relative to dist/). */
function recordBundleFiles(page) {
  const files = new Set();
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.startsWith('/dist/') && pathname.endsWith('.js')) files.add(pathname.slice('/dist/'.length));
  });
  return files;
}

export async function launchBrowser() {
  return chromium.launch({ executablePath: findChromium(), args: chromiumArgs });
}

/** One cold load of `url`: { ms, files }. */
async function coldLoad(browser, url) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const files = recordBundleFiles(page);
    await page.goto(url, { waitUntil: 'commit', timeout: LOAD_TIMEOUT_MS });
    const visibleAt = await page.waitForFunction(usernameVisibleAt, undefined, { polling: 'raf', timeout: LOAD_TIMEOUT_MS });
    return { ms: await visibleAt.jsonValue(), files: [...files] };
  } finally {
    await context.close();
  }
}

/** `runs` cold loads after one discarded warm-up (the browser process's own first start): median ms. */
export async function medianColdLoad(browser, url, runs) {
  await coldLoad(browser, url);
  const loads = [];
  for (let run = 0; run < runs; run++) loads.push(await coldLoad(browser, url));
  return { ms: median(loads.map((load) => load.ms)), samples: loads.map((load) => load.ms), files: loads.at(-1).files };
}

/** The bundle files a signed-in cold load of `url` fetches until the network is idle (the home screen). */
export async function signedInFiles(browser, url, cookie) {
  const context = await browser.newContext();
  try {
    await context.addCookies([{ name: cookie.name, value: cookie.value, url }]);
    const page = await context.newPage();
    const files = recordBundleFiles(page);
    await page.goto(url, { waitUntil: 'networkidle', timeout: LOAD_TIMEOUT_MS });
    return [...files];
  } finally {
    await context.close();
  }
}
