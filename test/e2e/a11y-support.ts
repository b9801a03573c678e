// Shared steps of the accessibility tests: axe-core run in the page (it walks the console's open
// shadow root), its serious and critical violations printed readably, the console's own texts in
// either locale (read from the locale files, so the tests find elements by their visible names in
// Chinese too), and the console preferences (locale, theme) set the way a person's choice is kept.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { Seeder } from './admin-support';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export type Locale = 'en' | 'zh';
export type Theme = 'dark' | 'light';

interface AxeNode {
  target: unknown[];
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: AxeNode[];
}

/**
 * In-page script (a string: tsx would wrap named functions in a helper the page lacks). Only the
 * rules that can find a serious or critical violation run: axe-core gives every rule a fixed impact
 * (a rule's violations take it, whatever their checks say), and the tests keep only those two, so
 * the minor and moderate rules (the landmark and region rules among them, which walk the whole
 * page) would cost time for results thrown away; a rule without an impact of its own still runs. A dialog
 * or toast still fading in blends its colours with the page, so axe runs once nothing moves, and
 * again if something started moving while it ran (a toast arriving mid-run). Endless animations
 * (the progress bar's) never settle and change no colour: they are not waited for.
 */
const settledAxeRun = `async (part) => {
  const mildRules = () => {
    const rules = window.axe._audit && window.axe._audit.rules;
    if (!Array.isArray(rules) || !rules.some((rule) => rule.impact)) throw new Error('axe-core no longer gives each rule an impact: see mildRules in a11y-support.ts');
    return Object.fromEntries(rules.filter((rule) => rule.impact === 'minor' || rule.impact === 'moderate').map((rule) => [rule.id, { enabled: false }]));
  };
  const roots = () => {
    const found = [document];
    for (let i = 0; i < found.length; i++)
      for (const element of found[i].querySelectorAll('*')) if (element.shadowRoot) found.push(element.shadowRoot);
    return found;
  };
  const moving = () => roots().flatMap((root) => root.getAnimations().filter((animation) =>
    animation.playState === 'running' && Number.isFinite(animation.effect?.getComputedTiming().endTime)));
  for (let attempt = 0; ; attempt++) {
    while (moving().length > 0) await Promise.all(moving().map((animation) => animation.finished.catch(() => undefined)));
    let moved = false;
    let watching = true;
    (async () => {
      while (watching) {
        if (moving().length > 0) moved = true;
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
    })();
    const result = await window.axe.run(part ?? document, { resultTypes: ['violations'], rules: mildRules() });
    watching = false;
    if (!moved || attempt === 3) return result.violations;
  }
}`;

/**
 * Runs axe-core on the whole page (or the part `selector` names) and answers its serious and critical violations, one readable
 * block each (rule, impact, help, then every element with axe's summary). The script goes in
 * through the DevTools protocol (page.evaluate), which the server's strict CSP does not block.
 */
export async function seriousViolations(page: Page, where: string, selector?: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  // `selector`: only that part of a page that is not ours (a host page around an element).
  const violations = await page.evaluate<AxeViolation[]>(`(${settledAxeRun})(${JSON.stringify(selector ?? null)})`);
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) =>
      [
        `${where}: [${violation.impact}] ${violation.id}: ${violation.help} (${violation.helpUrl})`,
        ...violation.nodes.map((node) => `    at ${JSON.stringify(node.target)}\n      ${(node.failureSummary ?? '').replace(/\n/g, '\n      ')}`),
      ].join('\n'),
    );
}

type Tree = { [key: string]: string | Tree };
const files: Record<Locale, Record<string, Tree>> = { en: {}, zh: {} };

/** A text of the console in `locale`: `text('zh', 'console:user.menu', { name: 'admin' })`. */
export function text(locale: Locale, key: string, values: Record<string, string> = {}): string {
  const [namespace, path] = key.includes(':') ? (key.split(':') as [string, string]) : ['common', key];
  files[locale][namespace] ??= JSON.parse(readFileSync(new URL(`../../src/core/i18n/locales/${locale}/${namespace}.json`, import.meta.url), 'utf8')) as Tree;
  let node: string | Tree | undefined = files[locale][namespace];
  for (const part of path.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`no text ${key} in ${locale}`);
  return node.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');
}

/**
 * Keeps locale and theme the way the console keeps a person's choice. Runs in the page: give it to
 * `context.addInitScript(choose, { locale, theme })` so it applies before the console loads.
 */
export function choose({ locale, theme }: { locale: Locale; theme: Theme }): void {
  localStorage.setItem('iam-locale', locale);
  localStorage.setItem('iam-theme', theme);
}

/** The console has drawn its screen: a heading, nothing busy, fonts and animations done. */
export async function settled(page: Page): Promise<void> {
  await page.locator('iam-console :is(h1, h2)').first().waitFor();
  await page
    .locator('iam-console [aria-busy="true"]')
    .first()
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
  await page.evaluate(async () => {
    await document.fonts.ready;
    const shadow = document.querySelector('iam-console')?.shadowRoot;
    await Promise.all([...document.getAnimations(), ...(shadow?.getAnimations() ?? [])].map((animation) => animation.finished.catch(() => undefined)));
  });
}

/** The ordinary user the sample data holds (the users table and its row actions use it). */
export const MEMBER = 'bob-a11y';
/** The sample's message channel (a robot webhook that nothing sends through). */
export const CHANNEL = 'Ops robot';

export interface SampleIds {
  app: string;
  plan: string;
}

/**
 * A little of everything through the real API as the administrator, so no screen is empty: a
 * tenant, `users` ordinary users (MEMBER among them), an app with a privilege and a role, its menu
 * plan, a message channel and a message in the administrator's inbox.
 */
export async function seedSample(baseUrl: string, users = 2): Promise<SampleIds> {
  const admin = await Seeder.as(baseUrl);
  const root = await admin.rootTenant();
  const tenant = await admin.tenant(root.id, 'Northwind');
  for (let index = 2; index < users; index++) await admin.user({ username: `user-${String(index).padStart(3, '0')}`, realName: `User_${index}` });
  // The newest last: the users list opens with them on its first page.
  await admin.user({ username: 'li-na', realName: '李娜' });
  await admin.user({ username: MEMBER, realName: 'Bob', tenantId: tenant.id });
  const app = await admin.app('Shop', { description: 'The web shop' });
  const privilege = await admin.privilege(app.id, { name: 'Orders', key: 'orders', path: '/orders' });
  await admin.role(app.id, 'Clerk');
  const plan = await admin.call<{ id: string }>('POST', '/menu-plans', {
    appId: app.id,
    name: 'Shop menu',
    items: [{ name: 'Orders', path: '/orders', privilegeId: privilege.id }],
  });
  await admin.call('POST', '/channels', {
    name: CHANNEL,
    serviceType: 'DING_TALK',
    vendor: 'dingtalk',
    config: { webhook: 'http://127.0.0.1:9/robot', secret: 'SEC-sample' },
  });
  const me = await admin.call<{ user: { id: string } }>('GET', '/cas/session');
  await admin.call('POST', '/messages', { title: 'Quarterly access review', content: 'Please review the administrators of your apps.', userIds: [me.user.id] });
  return { app: app.id, plan: plan.id };
}

export interface Screen {
  name: string;
  path: string;
  then?: (page: Page) => Promise<void>;
}

/** Every screen by address; `then` brings up a part of a screen that shows only on request. */
export function consoleScreens(ids: SampleIds, locale: Locale): Screen[] {
  const tab = (index: number) => async (page: Page) => {
    await page.getByRole('tab').nth(index).click();
    await page.getByRole('tabpanel').first().waitFor();
  };
  return [
    { name: 'home', path: '/home/index' },
    { name: 'apps', path: '/operate/app' },
    // The first tab loads as its own chunk: wait for its fields, not the 'Loading…' in its place.
    { name: 'app-detail', path: `/app/detail/${ids.app}`, then: (page) => page.getByRole('tabpanel').getByRole('textbox').first().waitFor() },
    { name: 'users', path: '/operate/user', then: (page) => page.getByRole('cell', { name: MEMBER, exact: true }).waitFor() },
    { name: 'tenants', path: '/operate/tenant/list', then: (page) => page.getByRole('treeitem').first().waitFor() },
    {
      name: 'app-saml',
      path: `/app/detail/${ids.app}`,
      then: async (page) => {
        await page.getByRole('tab', { name: text(locale, 'admin:app.tab.saml') }).click();
        await page.getByLabel(text(locale, 'admin:saml.idpCertificateNumbered', { n: '1' })).waitFor();
      },
    },
    {
      name: 'tenant-directory',
      path: '/operate/tenant/list',
      then: async (page) => {
        await page.getByRole('treeitem', { name: /^Northwind\b/ }).click();
        await page.getByRole('tab', { name: text(locale, 'admin:directory.tab') }).click();
        await page.getByRole('form', { name: text(locale, 'admin:directory.title') }).waitFor();
      },
    },
    { name: 'login-settings', path: '/operate/setting' },
    { name: 'branding', path: '/operate/setting', then: tab(1) },
    { name: 'license', path: '/operate/setting', then: tab(2) },
    { name: 'channels', path: '/operate/tunnel' },
    { name: 'menu-plans', path: '/operate/menu', then: (page) => page.getByRole('cell', { name: 'Shop menu' }).first().waitFor() },
    { name: 'menu-detail', path: `/menu/detail/${ids.app}` },
    { name: 'audit-log', path: '/operate/audit', then: (page) => page.getByRole('table').locator('tbody button').first().waitFor() },
    { name: 'messages', path: '/profile/message', then: (page) => page.getByText('Quarterly access review').first().waitFor() },
    { name: 'message-history', path: '/profile/messageHis' },
    { name: 'personal-center', path: '/profile/userInfo', then: (page) => page.getByText(text(locale, 'console:profile.username')).first().waitFor() },
    { name: 'consent', path: '/oauth/authorize' },
    { name: '403', path: '/403?redirect=%2Foperate%2Fuser' },
    { name: '404', path: '/no/such/page' },
    { name: 'only-sign-in', path: '/onlySignIn' },
  ];
}

/**
 * Goes to `path` inside the console the way its own links do (the router follows the history), so
 * the page is not loaded again (nor axe, which costs more than most checks): answers once the new
 * screen has put up its own heading. A screen at the same path is already there.
 */
export async function navigateInApp(page: Page, path: string): Promise<void> {
  if (new URL(page.url()).pathname === new URL(path, page.url()).pathname) return;
  // The headings on screen now are marked, so the wait below can tell the next screen's apart.
  await page.locator('iam-console').evaluate((host, to) => {
    for (const heading of host.shadowRoot?.querySelectorAll('h1, h2') ?? []) heading.setAttribute('data-left', '');
    history.pushState(null, '', to);
  }, path);
  await page.locator('iam-console :is(h1, h2):not([data-left])').first().waitFor();
  await settled(page);
}

/**
 * Switches the console on screen to `locale` and `theme` in place, as a host page does through the
 * element's attributes, and answers once both show: the theme on the console's root, the texts in
 * the new language (the document title is the route's name in it, and changes with all the texts at
 * once), and no transition still running.
 */
export async function showAs(page: Page, { locale, theme }: { locale: Locale; theme: Theme }): Promise<void> {
  const root = page.locator('iam-console').locator('[data-theme]').first();
  const before = await root.evaluate((element) => ({ locale: element.getAttribute('lang'), title: document.title }));
  await page.locator('iam-console').evaluate(
    (host, chosen) => {
      host.setAttribute('locale', chosen.locale);
      host.setAttribute('theme', chosen.theme);
    },
    { locale, theme },
  );
  await page.waitForFunction(
    ({ locale, theme, before }) => {
      const element = document.querySelector('iam-console')?.shadowRoot?.querySelector('[data-theme]');
      const textsSwitched = before.locale === locale || document.title !== before.title;
      return element?.getAttribute('data-theme') === theme && element.getAttribute('lang') === locale && textsSwitched;
    },
    { locale, theme, before },
  );
  await settled(page);
}
