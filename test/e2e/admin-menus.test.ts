// Menu plans against the real server: start a plan for an app, build its tree (items bound to
// privileges, order, icons, a child), the server's item rules shown on the item, reload, what
// people with and without the role see, the global (unify) menu, search and delete in the list,
// and both pages in Chinese.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, ApiClient, openPage, type WatchedPage, startServerAndBrowser } from './harness';
import { columnTexts, mainMenu, openFromMenu, PASSWORD, Seeder, signIn, until, type Created } from './admin-support';

interface Item {
  name: string;
  path: string;
  icon?: string;
  children?: Item[];
}
interface AppMenu {
  appId: string | null;
  planName: string;
  menus: Item[];
}

const { server, browser } = await startServerAndBrowser();
let watched: WatchedPage;
let page: Page;
let shop: Created;

const tree = () => page.getByRole('tree', { name: 'Menu items' });
const item = (name: string) => tree().getByRole('treeitem', { name: new RegExp(`^${name}`) });
const editor = () => page.getByRole('region', { name: /./ }).filter({ has: page.getByRole('button', { name: /^Delete item/ }) });
const topLevel = () =>
  tree()
    .locator(':scope > li > [role="treeitem"]')
    .evaluateAll((rows) => rows.map((row) => row.textContent ?? ''));

async function addItem(name: string, path: string, options: { icon?: string; privilege?: string; under?: string } = {}): Promise<void> {
  if (options.under) {
    await item(options.under).click();
    await page.getByRole('button', { name: `Add child item ${options.under}` }).click();
  } else {
    await page.getByRole('button', { name: 'Add menu item' }).click();
  }
  const fields = editor();
  await fields.getByLabel('Item name (English)').fill(name);
  await fields.getByLabel('Path').fill(path);
  if (options.icon) await fields.getByRole('listbox', { name: 'Icon' }).getByRole('option', { name: options.icon, exact: true }).click();
  if (options.privilege) await fields.getByLabel('Shown to holders of').selectOption({ label: options.privilege });
  await item(name).waitFor();
}

async function menusOf(username: string): Promise<Record<string, Item[]>> {
  const client = new ApiClient(server.url);
  await client.signIn(username, PASSWORD);
  const list = await client.call<AppMenu[]>('GET', '/menu/app/assignment/public/multi_app_menu/list');
  return Object.fromEntries(list.map((entry) => [entry.appId ?? 'global', entry.menus]));
}

// The steps build on each other (one person's page, the data made before): they are subtests of
// one test, run in order by definition.
test('the menu plans, step by step', async (t) => {
  const api = await Seeder.as(server.url);
  shop = await api.app('Shop', { entrypoint: 'https://shop.example.com/' });
  const orders = await api.privilege(shop.id, { name: 'Orders', key: 'orders' });
  await api.privilege(shop.id, { name: 'Refunds', key: 'refunds' });
  const clerk = await api.role(shop.id, 'Clerk');
  await api.call('PUT', `/apps/${shop.id}/roles/${clerk.id}/privileges`, { privilegeIds: [orders.id] });
  const person = await api.user({ username: 'shop-clerk', realName: 'Shop_Clerk' });
  await api.user({ username: 'shop-guest', realName: 'Shop_Guest' });
  await api.call('PUT', `/user/${person.id}/roles/${shop.id}`, { roleIds: [clerk.id] });
  // An invalid item is refused with 400: an expected console message.
  watched = await openPage(browser, { expectedFailures: [/\/api\/menu-plans(\/[\w-]+)?$/] });
  page = watched.page;
  await signIn(page, server.url, ADMIN.username, ADMIN.password);
  await openFromMenu(page, 'Menu plans');

  await t.test('starts a plan for an app and builds its tree: privileges, icons, a child, order', async () => {
    await page.getByRole('table', { name: 'Menu plans' }).getByText('No menu plans yet.').waitFor();
    await page.getByRole('button', { name: 'New menu plan' }).click();
    const start = page.getByRole('dialog', { name: 'New menu plan' });
    await start.getByLabel('Menu').selectOption({ label: 'Shop' });
    await start.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Menu plan details', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Shop', level: 2 }).waitFor();
    await page.getByText('Not saved yet').waitFor();
    assert.equal(await page.getByLabel('Plan name').inputValue(), 'Shop');

    await addItem('Orders', '/orders', { icon: 'Apps', privilege: 'Orders (orders)' });
    await addItem('Refunds', '/orders/refunds', { under: 'Orders', privilege: 'Refunds (refunds)' });
    await addItem('Start', '/start', { icon: 'Home' });
    assert.equal(await item('Refunds').getAttribute('aria-level'), '2');
    // Start moves to the top.
    await page.getByRole('button', { name: 'Move up Start' }).click();
    assert.deepEqual(await topLevel(), ['Start', 'OrdersOrders']);

    // The server's item rules: a path with a space is refused on that item, nothing is lost.
    await addItem('Broken', 'has space');
    await page.getByRole('button', { name: 'Save menu plan' }).click();
    await page.getByRole('alert').filter({ hasText: 'Some items need attention: see the marked ones.' }).waitFor();
    await editor().getByText('Please enter a valid path').waitFor();
    assert.equal(await editor().getByLabel('Item name (English)').inputValue(), 'Broken');
    await page.getByRole('button', { name: 'Delete item Broken' }).click();
    await item('Broken').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Save menu plan' }).click();
    await page.getByText(/^Menu plan .+ saved$/).waitFor();
    await page.getByText('Not saved yet').waitFor({ state: 'detached' });
  });

  await t.test('the saved plan comes back after a reload, in order', async () => {
    await page.reload();
    await page.getByRole('heading', { name: 'Shop', level: 2 }).waitFor();
    await item('Start').waitFor();
    assert.deepEqual(await topLevel(), ['Start', 'OrdersOrders']);
    await item('Refunds').click();
    assert.equal(await editor().getByLabel('Path').inputValue(), '/orders/refunds');
    await item('Start').click();
    assert.equal(
      await editor().getByRole('listbox', { name: 'Icon' }).getByRole('option', { name: 'Home', exact: true }).getAttribute('aria-selected'),
      'true',
    );
  });

  await t.test('at 320 px in both themes, saving with the keyboard leaves the focus, visible, on the new Save button, not on the body', async () => {
    /** The focused element, looked for through shadow roots; `old` marks the Save button of before the save. */
    const focused = () =>
      page.evaluate(() => {
        let element: Element | null = document.activeElement;
        while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
        return {
          tag: element?.tagName.toLowerCase(),
          text: element?.textContent?.trim(),
          old: element?.hasAttribute('data-old'),
          ring: !!element?.matches(':focus-visible'),
        };
      });
    for (const nextTheme of ['Switch to the light theme', 'Switch to the dark theme']) {
      await page.setViewportSize({ width: 320, height: 640 });
      const save = page.getByRole('button', { name: 'Save menu plan' });
      await save.evaluate((button) => button.setAttribute('data-old', ''));
      await save.focus();
      await page.keyboard.press('Enter');
      // The saved version's editor replaces the old one; before the fix the focus fell to the body.
      await until(async () => (await focused()).old === false);
      assert.deepEqual(await focused(), { tag: 'button', text: 'Save menu plan', old: false, ring: true });
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByRole('button', { name: nextTheme }).click();
    }
  });

  await t.test('people see exactly the items their roles allow', async () => {
    const clerk = await menusOf('shop-clerk');
    assert.deepEqual(
      clerk[shop.id]?.map((entry) => entry.name),
      ['Start', 'Orders'],
    );
    assert.deepEqual(clerk[shop.id]?.[1]?.children, [], 'Refunds needs a privilege the clerk does not hold');
    const guest = await menusOf('shop-guest');
    assert.deepEqual(
      guest[shop.id]?.map((entry) => entry.name),
      ['Start'],
    );
  });

  await t.test('the global (unify) menu has its own plan', async () => {
    await openFromMenu(page, 'Menu plans');
    await page.getByRole('button', { name: 'New menu plan' }).click();
    const start = page.getByRole('dialog', { name: 'New menu plan' });
    assert.equal(await start.getByLabel('Menu').inputValue(), 'global');
    assert.equal(await start.getByRole('option', { name: 'Shop' }).count(), 0, 'Shop has a plan already');
    await start.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Global menu', level: 2 }).waitFor();
    await addItem('Users', '/operate/user', { icon: 'User' });
    await addItem('Shop orders', 'https://shop.example.com/orders', { privilege: 'Orders (orders)' });
    await page.getByRole('button', { name: 'Save menu plan' }).click();
    await page.getByText('Not saved yet').waitFor({ state: 'detached' });
    assert.deepEqual(
      (await menusOf('shop-clerk')).global?.map((entry) => entry.name),
      ['Users', 'Shop orders'],
    );
    assert.deepEqual(
      (await menusOf('shop-guest')).global?.map((entry) => entry.name),
      ['Users'],
    );
  });

  await t.test('the list shows, searches and deletes plans', async () => {
    await openFromMenu(page, 'Menu plans');
    const table = page.getByRole('table', { name: 'Menu plans' });
    await table.getByRole('link', { name: 'Shop', exact: true }).waitFor();
    assert.deepEqual(await columnTexts(table, 0), ['Global menu', 'Shop']);
    assert.deepEqual(await columnTexts(table, 2), ['2', '3']);
    await page.getByRole('searchbox', { name: 'Search' }).fill('sho');
    await until(async () => JSON.stringify(await columnTexts(table, 0)) === '["Shop"]');
    await page.getByRole('searchbox', { name: 'Search' }).fill('nothing');
    await table.getByText('No menu plans match.').waitFor();
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    await page.getByRole('button', { name: 'Delete Global menu' }).click();
    await page.getByRole('dialog', { name: 'Delete menu plan' }).getByRole('button', { name: 'Delete' }).click();
    await until(async () => JSON.stringify(await columnTexts(table, 0)) === '["Shop"]');
  });

  await t.test('deletes a plan from its page', async () => {
    await page.getByRole('link', { name: 'Open Shop' }).click();
    await item('Start').waitFor();
    await page.getByRole('button', { name: 'Delete menu plan' }).click();
    await page.getByRole('dialog', { name: 'Delete menu plan' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'Menu plans', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'Menu plans' }).getByText('No menu plans yet.').waitFor();
  });

  await t.test('a global plan of four items cannot lock the administrator out; it previews who sees what and resets in one click', async () => {
    await page.getByRole('button', { name: 'New menu plan' }).click();
    await page.getByRole('dialog', { name: 'New menu plan' }).getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Global menu', level: 2 }).waitFor();
    await addItem('Start', '/home/index');
    await addItem('People', '/operate/user');
    await editor().getByLabel('Item name (Chinese)').fill('人员');
    await addItem('Audit', '/operate/audit');
    await addItem('Inbox', '/profile/message');
    const preview = page.getByRole('region', { name: 'Who sees what' });
    await preview.getByText(/^This plan leaves out Apps, Tenants, .*Menu plans/).waitFor();
    // The lines under each heading: the entries that kind of person sees.
    const seenBy = async (who: string) => (await preview.getByRole('region', { name: who }).innerText()).split('\n').slice(1);
    assert.ok((await seenBy('Tenant administrators see')).includes('Menu plans'));
    assert.ok(!(await seenBy('Tenant administrators see')).includes('Login settings'), 'only what their rights open');
    assert.deepEqual(await seenBy('Members see'), ['Start', 'Inbox']);
    await page.getByRole('button', { name: 'Save menu plan' }).click();
    await page.getByText('Not saved yet').waitFor({ state: 'detached' });
    await page.reload();
    // The plan orders and names its items; every administration screen is still in the menu and on the home page.
    await openFromMenu(page, 'Menu plans');
    await openFromMenu(page, 'Apps');
    await mainMenu(page).getByRole('link', { name: 'People', exact: true }).click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await mainMenu(page).getByRole('link', { name: 'Start', exact: true }).click();
    await page
      .getByRole('main')
      .getByRole('link', { name: /^Login settings/ })
      .waitFor();
    await page.getByRole('button', { name: '中文' }).click();
    // The item's Chinese name; an item without one shows its screen's own Chinese name.
    const zhMenu = page.getByRole('navigation', { name: '主菜单' });
    await zhMenu.getByRole('link', { name: '人员', exact: true }).waitFor();
    await zhMenu.getByRole('link', { name: '审计日志', exact: true }).waitFor();
    await page.getByRole('button', { name: 'English' }).click();
    await openFromMenu(page, 'Menu plans');
    await page.getByRole('link', { name: 'Open Global menu' }).click();
    await page.getByRole('button', { name: 'Reset to the default menu' }).click();
    await item('Operations').waitFor();
    assert.equal(await preview.getByText(/^This plan leaves out/).count(), 0);
    await page.getByRole('button', { name: 'Save menu plan' }).click();
    await page.getByText('Menu plan Global menu saved').waitFor();
    await page.getByRole('button', { name: 'Delete menu plan' }).click();
    await page.getByRole('dialog', { name: 'Delete menu plan' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('table', { name: 'Menu plans' }).getByText('No menu plans yet.').waitFor();
  });

  await t.test('the menu pages in Chinese', async () => {
    await page.getByRole('button', { name: '中文' }).click();
    await page.getByRole('heading', { name: '菜单方案', level: 1 }).waitFor();
    await page.getByRole('button', { name: '新建菜单方案' }).click();
    const start = page.getByRole('dialog', { name: '新建菜单方案' });
    await start.getByRole('button', { name: '继续' }).click();
    await page.getByRole('heading', { name: '菜单方案详情', level: 1 }).waitFor();
    await page.getByRole('heading', { name: '全局菜单', level: 2 }).waitFor();
    await page.getByRole('button', { name: '添加菜单项' }).click();
    await page.getByLabel('菜单项名称（英文）').waitFor();
    await page.getByRole('button', { name: '保存菜单方案' }).waitFor();
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Menu plan details', level: 1 }).waitFor();
    assert.deepEqual(watched.errors, []);
  });
});
