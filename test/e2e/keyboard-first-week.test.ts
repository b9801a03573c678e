// A new platform administrator's first week, by keyboard only (Tab, Shift+Tab, Enter, Space,
// arrows, Escape; no click, no fill): sign in, a tenant, a person typed in and one imported from a
// CSV file, an app with a privilege and a role, the role given to the person, a menu plan, a
// webhook, the audit log and its links, the login settings, sign out. Twice: in Chinese, dark
// theme, at 320 px (the side menu in its drawer), and in English, light theme, at 1280 px. Every
// control is reached by Tab; after each dialog closes and each page change the focus is where the
// next step begins (the opener, the new page's heading), and axe-core finds nothing serious on each
// step (in the wide walk, on each step a11y-screens.test.ts does not check: see Walk.check). Set
// IAM_WALK_SHOTS=<dir> to keep a screenshot of every step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { ADMIN, openPage, startServerAndBrowser } from './harness';
import { until } from './admin-support';
import { choose, seriousViolations, settled, text, type Locale, type Theme } from './a11y-support';

// (The webhook's endpoint is a local port: the server is told to allow it.)
const { server, browser } = await startServerAndBrowser({ IAM_OUTBOUND_ALLOW_PRIVATE: '1' });
const shots = process.env.IAM_WALK_SHOTS;
if (shots) mkdirSync(shots, { recursive: true });

interface Focused {
  tag: string;
  text: string;
  /** It is the element `Walk.tabTo` is heading for. */
  target: boolean;
  /** The element `Walk.tabTo` is heading for is still in the page. */
  targetShown: boolean;
}

/** Where the page keeps the element `Walk.tabTo` is heading for. */
type TabTarget = Window & { tabTarget?: Element };

/** The element that has the focus, looked for through shadow roots. */
function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    let element: Element | null = document.activeElement;
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
    return {
      tag: element?.tagName.toLowerCase() ?? 'none',
      text: (element?.getAttribute('aria-label') ?? element?.textContent ?? '').trim().slice(0, 50),
      target: !!element && element === (window as TabTarget).tabTarget,
      targetShown: !!(window as TabTarget).tabTarget?.isConnected,
    };
  });
}

const isFocused = (element: Locator) => element.evaluate((node) => (node.getRootNode() as ShadowRoot | Document).activeElement === node);

/** Where one walk is: its page, its language and a counter for the screenshots' names. */
class Walk {
  private step = 0;
  constructor(
    readonly page: Page,
    readonly locale: Locale,
    readonly theme: Theme,
    readonly width: number,
  ) {}

  t(key: string, values: Record<string, string> = {}): string {
    return text(this.locale, key, values);
  }

  /**
   * Presses Tab (or Shift+Tab) until `target` has the focus: every control is reachable by keyboard.
   * The target is found by its role and name once (again only if it was drawn anew): each press is
   * then one look at the focus, not also a search of the page by role and name.
   */
  async tabTo(target: Locator, what: string, key = 'Tab', tries = 60): Promise<void> {
    const mark = () =>
      target.evaluate((node) => {
        (window as TabTarget).tabTarget = node;
      });
    await mark();
    const stops: string[] = [];
    for (let count = 0; count <= tries; count++) {
      if (count > 0) await this.page.keyboard.press(key);
      const element = await focused(this.page);
      if (element.target) return;
      if (!element.targetShown) await mark();
      stops.push(`${element.tag} "${element.text}"`);
    }
    throw new Error(`${this.where()}: ${key} ×${tries} did not reach ${what}; the focus went: ${stops.join(' → ')}`);
  }

  /** Tabs to `target` and presses `key` on it (Enter, or Space for a checkbox). */
  async press(target: Locator, what: string, key = 'Enter'): Promise<void> {
    await this.tabTo(target, what);
    await this.page.keyboard.press(key);
  }

  /** Tabs to a field and types into it (what was there is selected first and typed over). */
  async type(field: Locator, what: string, value: string): Promise<void> {
    await this.tabTo(field, what);
    await this.page.keyboard.press('ControlOrMeta+A');
    await this.page.keyboard.type(value);
  }

  /** Tabs to a select and moves through its options with the arrow keys until `label` is chosen. */
  async choose(select: Locator, what: string, label: string | RegExp): Promise<void> {
    await this.tabTo(select, what);
    const chosen = () => select.evaluate((element) => (element as HTMLSelectElement).selectedOptions[0]?.textContent?.trim() ?? '');
    for (let count = 0; count < 40; count++) {
      const current = await chosen();
      if (typeof label === 'string' ? current === label : label.test(current)) return;
      await this.page.keyboard.press('ArrowDown');
    }
    throw new Error(`${this.where()}: ${what}: no option ${String(label)} (the last was ${await chosen()})`);
  }

  /** Waits until `target` has the focus (after a dialog closes, a page changes). */
  async focusOn(target: Locator, what: string): Promise<void> {
    await until(() => isFocused(target), 5000).catch(async () =>
      assert.fail(`${this.where()}: the focus should be on ${what}, it is on ${JSON.stringify(await focused(this.page))}`),
    );
  }

  where(): string {
    return `${this.locale} ${this.theme} ${this.width}px`;
  }

  /**
   * The screen has settled: no serious axe violation; a screenshot when asked for. A `listed` screen
   * is one a11y-screens.test.ts checks with axe at 1280 px in every language and theme (with its
   * sample data): at that width it is not checked again here. The narrow walk checks every step: no
   * other file runs axe on the console at 320 px.
   */
  async check(name: string, { listed = false } = {}): Promise<void> {
    await settled(this.page);
    if (!(listed && this.width >= 1280)) assert.deepEqual(await seriousViolations(this.page, `${this.where()} ${name}`), []);
    if (shots) await this.page.screenshot({ path: join(shots, `${this.locale}-${this.width}-${String(++this.step).padStart(2, '0')}-${name}.png`) });
  }

  /** Opens a screen from the side menu (from its drawer on a narrow screen); the focus lands on its heading. */
  async open(route: string): Promise<void> {
    const page = this.page;
    const heading = page.getByRole('heading', { level: 1, name: this.t(route) });
    let menu = page.getByRole('navigation', { name: this.t('console:menu.label') });
    const opener = page.getByRole('button', { name: this.t('console:menu.open') });
    if (await opener.isVisible()) {
      await this.press(opener, 'the menu button');
      menu = page.getByRole('dialog', { name: this.t('console:menu.label') });
      await menu.waitFor();
    }
    const link = menu.getByRole('link', { name: this.t(route), exact: true });
    const group = menu.getByRole('button', { name: this.t('route.operate') });
    if (!(await link.isVisible()) && (await group.getAttribute('aria-expanded')) !== 'true') await this.press(group, 'the Operations group');
    await this.press(link, `${route} in the menu`);
    await this.focusOn(heading, `the ${route} heading`);
  }
}

/** A step on a screen a11y-screens.test.ts checks in every language and theme (see Walk.check). */
const listed = { listed: true };

async function walk(locale: Locale, theme: Theme, viewport: { width: number; height: number }) {
  // (The app that is not there answers 404, as it should; the webhook saved without an endpoint, 400.)
  const watched = await openPage(browser, { viewport, expectedFailures: [/\/api\/apps\/[^/]+$/, /\/api\/webhooks$/] });
  await watched.context.addInitScript(choose, { locale, theme });
  const { page } = watched;
  // The file chooser the import opens (listened for from the start: the browser is told to hand it
  // over before the button is pressed).
  const chooser = page.waitForEvent('filechooser', { timeout: 0 });
  chooser.catch(() => undefined);
  const w = new Walk(page, locale, theme, viewport.width);
  const suffix = `${locale}${viewport.width}`;
  // Letters only: the first walk ends by switching to the international name rules, which the second walk's names meet too.
  const surname = locale === 'zh' ? 'Zhou' : 'Evans';

  // Sign in.
  await page.goto(`${server.url}/login`);
  await w.type(page.getByLabel(w.t('login:identifier.USERNAME_PASSWORD')), 'username', ADMIN.username);
  await w.type(page.getByLabel(w.t('login:password'), { exact: true }), 'password', ADMIN.password);
  await w.check('sign-in', listed);
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.pathname !== '/login');
  await w.check('home', listed);

  // A tenant under the root.
  await w.open('route.tenant');
  const tree = page.getByRole('tree', { name: w.t('admin:tenant.tree') });
  await w.tabTo(tree.getByRole('treeitem').first(), 'the tenant tree');
  const addChild = page.getByRole('button', { name: new RegExp(`^${w.t('admin:tenant.addChild')}`) });
  await w.press(addChild.first(), 'Add sub-tenant');
  const tenantDialog = page.getByRole('dialog');
  await w.type(tenantDialog.getByLabel(w.t('admin:tenant.name'), { exact: true }), 'tenant name', `Walk_${suffix}`);
  await w.check('tenant-dialog');
  await page.keyboard.press('Enter');
  await tenantDialog.waitFor({ state: 'detached' });
  await page.getByRole('heading', { level: 2, name: `Walk_${suffix}` }).waitFor();
  await w.check('tenant-created', listed);

  // A person typed in, then one imported from a CSV file.
  await w.open('route.user');
  const newUser = page.getByRole('button', { name: w.t('admin:user.create'), exact: true });
  await w.press(newUser, 'New user');
  const userDialog = page.getByRole('dialog', { name: w.t('admin:user.createTitle') });
  await w.type(userDialog.getByLabel(w.t('admin:user.username'), { exact: true }), 'username', `ann-${suffix}`);
  await w.type(userDialog.getByLabel(w.t('admin:user.realName'), { exact: true }), 'real name', `Ann${surname}`);
  await w.type(userDialog.getByLabel(w.t('admin:user.password'), { exact: true }), 'password', 'Walk-2024-pass');
  await w.check('user-dialog');
  await w.press(userDialog.getByRole('button', { name: w.t('console:action.save'), exact: true }), 'Save');
  await userDialog.waitFor({ state: 'detached' });
  await w.focusOn(newUser, 'New user, the opener');
  await page.getByRole('cell', { name: `ann-${suffix}`, exact: true }).waitFor();
  await w.check('user-created', listed);

  const csv = join(tmpdir(), `keyboard-walk-${process.pid}-${suffix}.csv`);
  writeFileSync(csv, `username,realName,tenantId\nbo-${suffix},Bo${surname},Walk_${suffix}\n`);
  const importButton = page.getByRole('button', { name: w.t('admin:import.import'), exact: true });
  await w.press(importButton, 'Import');
  const importDialog = page.getByRole('dialog', { name: w.t('admin:import.title') });
  await w.tabTo(importDialog.getByRole('button', { name: w.t('admin:import.choose') }), 'the CSV file button');
  await page.keyboard.press('Enter');
  await (await chooser).setFiles(csv);
  await w.press(importDialog.getByRole('button', { name: w.t('admin:import.check') }), 'Check the file');
  const counts = { created: '1', updated: '0', unchanged: '0', failed: '0' };
  await importDialog.getByText(w.t('admin:import.checked', counts)).waitFor();
  await w.check('import-checked');
  await w.press(importDialog.getByRole('button', { name: w.t('admin:import.start'), exact: true }), 'Import');
  await importDialog.getByText(w.t('admin:import.done', counts)).waitFor();
  // The import button was disabled while it ran: the focus goes on to Close, the next step.
  const closeImport = importDialog.getByRole('button', { name: w.t('admin:import.close'), exact: true }).last();
  await w.focusOn(closeImport, 'Close, after the import');
  await w.check('import-done');
  await page.keyboard.press('Escape');
  await importDialog.waitFor({ state: 'detached' });
  await w.focusOn(importButton, 'Import, the opener');

  // An app with a privilege and a role.
  await w.open('route.app');
  await w.press(page.getByRole('button', { name: w.t('admin:app.create'), exact: true }), 'New app');
  const appDialog = page.getByRole('dialog', { name: w.t('admin:app.createTitle') });
  await w.type(appDialog.getByLabel(w.t('admin:app.name'), { exact: true }), 'app name', `Ledger_${suffix}`);
  await w.type(appDialog.getByLabel(w.t('admin:app.entrypoint')), 'entrypoint', 'https://ledger.example.com/');
  await w.check('app-dialog');
  await page.keyboard.press('Enter');
  await appDialog.waitFor({ state: 'detached' });
  const appHeading = page.getByRole('heading', { level: 2, name: `Ledger_${suffix}` });
  await appHeading.waitFor();
  await w.check('app-created', listed);
  const privilegesTab = page.getByRole('tab', { name: w.t('admin:app.tab.privileges') });
  await w.tabTo(page.getByRole('tab', { selected: true }), 'the selected tab');
  await until(async () => {
    await page.keyboard.press('ArrowRight');
    return (await privilegesTab.getAttribute('aria-selected')) === 'true';
  });
  const addPrivilege = page.getByRole('button', { name: w.t('admin:privilege.addTop') });
  await w.press(addPrivilege, 'Add privilege');
  const privilegeDialog = page.getByRole('dialog', { name: w.t('admin:privilege.createTitle') });
  await w.type(privilegeDialog.getByLabel(w.t('admin:privilege.name'), { exact: true }), 'privilege name', 'Reports');
  await w.type(privilegeDialog.getByLabel(w.t('admin:privilege.key'), { exact: true }), 'privilege key', 'reports');
  await page.keyboard.press('Enter');
  await privilegeDialog.waitFor({ state: 'detached' });
  await w.focusOn(addPrivilege, 'Add privilege, the opener');
  await w.check('privilege-created');
  const rolesTab = page.getByRole('tab', { name: w.t('admin:app.tab.roles') });
  await w.tabTo(privilegesTab, 'the Privileges tab', 'Shift+Tab');
  await until(async () => {
    await page.keyboard.press('ArrowRight');
    return (await rolesTab.getAttribute('aria-selected')) === 'true';
  });
  const newRole = page.getByRole('button', { name: w.t('admin:role.create'), exact: true });
  await w.press(newRole, 'New role');
  const roleDialog = page.getByRole('dialog', { name: w.t('admin:role.createTitle') });
  await w.type(roleDialog.getByLabel(w.t('admin:role.name')), 'role name', 'Analyst');
  await w.press(roleDialog.getByLabel('Reports (reports)'), 'the Reports privilege', 'Space');
  await w.check('role-dialog');
  await w.press(roleDialog.getByRole('button', { name: w.t('console:action.save'), exact: true }), 'Save');
  await roleDialog.waitFor({ state: 'detached' });
  await w.focusOn(newRole, 'New role, the opener');

  // The role given to the person.
  await w.open('route.user');
  const rolesOf = page.getByRole('button', { name: w.t('admin:action.of', { action: w.t('admin:action.roles'), name: `ann-${suffix}` }), exact: true });
  await w.press(rolesOf, 'Roles of the person');
  const rolesDialog = page.getByRole('dialog', { name: w.t('admin:roles.title', { name: `ann-${suffix}` }) });
  await w.press(rolesDialog.getByRole('group', { name: `Ledger_${suffix}` }).getByLabel('Analyst'), 'Analyst', 'Space');
  await w.check('roles-dialog');
  await w.press(rolesDialog.getByRole('button', { name: w.t('console:action.save'), exact: true }), 'Save');
  await rolesDialog.waitFor({ state: 'detached' });
  await w.focusOn(rolesOf, 'Roles, the opener');

  // The app's menu plan.
  await w.open('route.menu');
  await w.press(page.getByRole('button', { name: w.t('admin:menu.create'), exact: true }), 'New menu plan');
  const planDialog = page.getByRole('dialog', { name: w.t('admin:menu.createTitle') });
  await w.choose(planDialog.getByLabel(w.t('admin:menu.app'), { exact: true }), 'the menu', `Ledger_${suffix}`);
  await w.check('plan-dialog');
  await w.press(planDialog.getByRole('button', { name: w.t('console:action.continue') }), 'Continue');
  await page.getByRole('heading', { level: 2, name: `Ledger_${suffix}` }).waitFor();
  await w.press(page.getByRole('button', { name: w.t('admin:menu.addItem') }), 'Add menu item');
  await w.type(page.getByLabel(w.t('admin:menu.itemName')), 'item name', 'Reports');
  await w.type(page.getByLabel(w.t('admin:menu.itemPath')), 'item path', '/reports');
  await w.check('plan-editor');
  await w.press(page.getByRole('button', { name: w.t('admin:menu.save') }), 'Save menu plan');
  await page.getByText(w.t('admin:menu.notSaved')).waitFor({ state: 'detached' });
  await w.check('plan-saved', listed);

  // A webhook.
  await w.open('route.webhooks');
  const newHook = page.getByRole('button', { name: w.t('webhooks:create'), exact: true });
  await w.press(newHook, 'New webhook');
  const hookDialog = page.getByRole('dialog', { name: w.t('webhooks:createTitle') });
  const endpoint = hookDialog.getByLabel(w.t('webhooks:url'));
  const saveHook = hookDialog.getByRole('button', { name: w.t('console:action.save'), exact: true });
  await w.press(hookDialog.getByLabel(w.t('webhooks:eventNames.user_created')), 'the User created event', 'Space');
  // Saved without an endpoint: refused, and the focus goes up to the field that says why.
  await w.press(saveHook, 'Save');
  await w.focusOn(endpoint, 'the refused endpoint field');
  await page.keyboard.type(`http://127.0.0.1:9/${suffix}`);
  await w.check('webhook-dialog');
  await w.press(saveHook, 'Save');
  const secret = page.getByRole('dialog', { name: w.t('webhooks:secretTitle') });
  await w.check('webhook-secret');
  await w.press(secret.getByRole('button', { name: w.t('webhooks:done') }), 'Done');
  await secret.waitFor({ state: 'detached' });
  await w.focusOn(newHook, 'New webhook, the opener');
  await w.check('webhook-created');

  // The audit log, and its links.
  await w.open('route.audit');
  await w.check('audit', listed);
  const log = page.getByRole('table', { name: w.t('route.audit') });
  const planRow = log.locator('tbody tr').filter({ hasText: w.t('admin:audit.actions.menu_create') });
  await w.press(planRow.getByRole('link'), 'the menu plan named by "Menu plan created"');
  await w.focusOn(page.getByRole('heading', { level: 1, name: w.t('route.menuDetail') }), 'the menu plan heading');
  await page.getByRole('heading', { level: 2, name: `Ledger_${suffix}` }).waitFor();
  await w.check('audit-to-plan', listed);
  await page.goBack();
  const personRow = log
    .locator('tbody tr')
    .filter({ hasText: w.t('admin:audit.actions.user_create') })
    .filter({ hasText: `ann-${suffix}` });
  // The linked person is shown alone: the whole list is not read for nothing meanwhile.
  const listReads: string[] = [];
  const countListReads = (request: { url: () => string }) => new URL(request.url()).pathname === '/api/user' && listReads.push(request.url());
  page.on('request', countListReads);
  await w.press(personRow.getByRole('link', { name: `ann-${suffix}`, exact: true }), 'the person named by "User created"');
  await w.focusOn(page.getByRole('heading', { level: 1, name: w.t('route.user') }), 'the Users heading');
  await page.getByText(w.t('admin:recordLinks.personShown', { name: `ann-${suffix}` })).waitFor();
  await page.getByRole('cell', { name: `ann-${suffix}`, exact: true }).waitFor();
  page.off('request', countListReads);
  assert.deepEqual(listReads, [], 'no list read behind the one linked person');
  await w.check('audit-to-person');

  // An address of an app that is not there (a stale bookmark): said once, in place, not also in a toast.
  await page.goto(`${server.url}/app/detail/${randomUUID()}`);
  const missing = page.getByRole('alert');
  await missing.filter({ hasText: w.t('admin:app.missing') }).waitFor();
  await page.evaluate(() => new Promise((resolve) => setTimeout(() => requestAnimationFrame(resolve), 0)));
  assert.deepEqual(await missing.allTextContents(), [`${w.t('admin:app.missing')}${w.t('admin:app.backToList')}`], 'one note, no toast beside it');

  // Login settings: the field rules.
  await w.open('route.setting');
  await w.choose(page.getByLabel(w.t('settings:signIn.fieldRulesMode')), 'the field rules', w.t('settings:fieldRules.international'));
  await w.press(page.getByRole('button', { name: w.t('console:action.save'), exact: true }), 'Save');
  await page
    .getByRole('status')
    .filter({ hasText: w.t('settings:done.settingsSaved') })
    .waitFor();
  await w.check('settings-saved');

  // Sign out.
  const account = page.getByRole('button', { name: w.t('console:user.menu', { name: ADMIN.username }) });
  await w.press(account, 'the account menu');
  await until(async () => (await focused(page)).text.includes(w.t('console:user.logout')) || (await page.keyboard.press('ArrowDown'), false));
  await page.keyboard.press('Enter');
  await page.getByRole('alertdialog').or(page.getByRole('dialog')).waitFor();
  await w.check('sign-out-dialog');
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.pathname === '/login');
  return watched;
}

for (const [locale, theme, width, height] of [
  ['zh', 'dark', 320, 640],
  ['en', 'light', 1280, 800],
] as const) {
  test(`a first week by keyboard: ${locale}, ${theme}, ${width} px`, async () => {
    const watched = await walk(locale, theme, { width, height }).catch(async (error: unknown) => {
      if (shots)
        for (const context of browser.contexts()) for (const open of context.pages()) await open.screenshot({ path: join(shots, `FAIL-${locale}.png`) });
      throw error;
    });
    assert.deepEqual(watched.errors, []);
    await watched.context.close();
  });
}
