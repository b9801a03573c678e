// Cumulative layout shift (CLS) of each console screen as it loads, in headless Chromium: a signed-in
// cold load of the screen's address in a fresh context, every 'layout-shift' entry without recent
// input summed by a PerformanceObserver registered before the page's own scripts run, read once
// the network has been idle and the screen has had a moment to settle. Web Vitals calls a CLS
// under 0.1 good; the figure is the largest of the runs (a shift is a shift, not noise).

/** The screens measured, by address (each as a person opens it from the menu). */
export const CLS_SCREENS = [
  ['home', '/home/index'],
  ['apps', '/operate/app'],
  ['users', '/operate/user'],
  ['tenants', '/operate/tenant/list'],
  ['settings', '/operate/setting'],
  ['channels', '/operate/tunnel'],
  ['menu-plans', '/operate/menu'],
  ['audit-log', '/operate/audit'],
  ['messages', '/profile/message'],
  ['message-history', '/profile/messageHis'],
  ['personal-center', '/profile/userInfo'],
];

const SETTLE_MS = 1_500;
const LOAD_TIMEOUT_MS = 20_000;

/** Runs in the page before its scripts: keeps the running CLS in window.__iamCls. */
function observeLayoutShift() {
  window.__iamCls = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__iamCls += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
}

async function clsOf(browser, base, path, cookie, viewport) {
  const context = await browser.newContext({ viewport });
  try {
    // The session cookie for the whole site (a cookie set for the screen's URL would have its path).
    await context.addCookies([{ name: cookie.name, value: cookie.value, url: base }]);
    await context.addInitScript(observeLayoutShift);
    const page = await context.newPage();
    await page.goto(`${base}${path}`, { waitUntil: 'networkidle', timeout: LOAD_TIMEOUT_MS });
    await page.waitForTimeout(SETTLE_MS);
    if (new URL(page.url()).pathname !== path) throw new Error(`${path} went to ${page.url()}: not signed in?`);
    return await page.evaluate(() => window.__iamCls);
  } finally {
    await context.close();
  }
}

/** CLS per screen (the largest of `runs` loads), on a desktop and a phone viewport. */
export async function measureLayoutShift(browser, base, cookie, runs = 2) {
  const figures = [];
  for (const [device, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ]) {
    for (const [name, path] of CLS_SCREENS) {
      const samples = [];
      for (let run = 0; run < runs; run++) samples.push(await clsOf(browser, base, path, cookie, viewport));
      figures.push({ name, path, device, cls: Math.max(...samples), samples });
    }
  }
  return figures;
}
