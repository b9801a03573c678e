// No menu plan locks administrators out of administration: the global plan may order, rename and
// decorate the console's menu, but the menu the server answers keeps every administration screen
// (left out or bound to a privilege nobody holds, it comes back), so the menu-plan screen itself
// stays the way back; the console's ACL shows each screen only to those whose codes open it. A
// tenant administrator cannot save a global plan at all.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer, ok } from './harness';
import { ADMINISTRATION_SCREENS, administrationOf } from '../../src/core/administration-menu';
import { Permission } from '../../src/core/permission-codes';

interface Item {
  name: string;
  path: string;
  privilegeId?: string;
  children?: Item[];
}

let server: TestServer;
let admin: Client;
let tenantAdmin: Client;
let privilegeId = '';

const paths = (items: Item[]): string[] => items.flatMap((item) => [item.path, ...paths(item.children ?? [])]);

async function globalMenuOf(client: Client): Promise<Item[]> {
  const menus = await ok(client.get<{ appId: string | null; menus: Item[] }[]>('/api/menu/app/assignment/public/multi_app_menu/list'));
  return menus.find((menu) => menu.appId === null)?.menus ?? [];
}

before(async () => {
  server = await startServer();
  admin = await server.admin();
  const root = (await ok(admin.get<{ id: string; parentId: string | null }[]>('/api/tenants/tree'))).find((row) => row.parentId === null)!;
  const tenant = await ok(admin.post<{ id: string }>('/api/tenants', { parentId: root.id, name: 'Sales_Tenant', type: 'company' }));
  await ok(admin.post('/api/user', { username: 'tina', realName: 'Tina_Admin', password: transform('Tenant123!'), tenantId: tenant.id, isAdmin: true }));
  tenantAdmin = server.client();
  assert.equal((await tenantAdmin.login('tina', 'Tenant123!')).body.data?.loginSuccess, true);
  const app = await ok(admin.post<{ id: string }>('/api/apps', { name: 'Shop' }));
  privilegeId = (await ok(admin.post<{ id: string }>(`/api/apps/${app.id}/privileges`, { name: 'Orders', key: 'orders', parentId: null }))).id;
});

after(() => server.stop());

test('a tenant administrator cannot save a global plan that hides the menu-plan screen (403)', async () => {
  const hiding = { name: 'Global menu', items: [{ name: 'Home', path: '/home/index' }] };
  assert.equal((await tenantAdmin.post('/api/menu-plans', hiding)).status, 403);
  const plan = await ok(
    admin.post<{ id: string; version: number }>('/api/menu-plans', { name: 'Global menu', items: [{ name: 'Home', path: '/home/index' }] }),
  );
  assert.equal((await tenantAdmin.put(`/api/menu-plans/${plan.id}`, { items: [], version: plan.version })).status, 403);
  await ok(admin.delete(`/api/menu-plans/${plan.id}`));
});

test('a global plan of four items leaves every administration screen their rights open in each administrator’s menu', async () => {
  const four = [
    { name: 'Home', path: '/home/index' },
    { name: 'People', path: '/operate/user' },
    { name: 'Audit', path: '/operate/audit' },
    { name: 'Inbox', path: '/profile/message' },
  ];
  const plan = await ok(admin.post<{ id: string; items: Item[] }>('/api/menu-plans', { name: 'Global menu', items: four }));
  assert.deepEqual(plan.items, four, 'the plan is stored as written');
  const tenantScreens = administrationOf([Permission.SelfService, Permission.Users, Permission.Operations]);
  assert.ok(tenantScreens.some((screen) => screen.path === '/operate/menu'));
  for (const [client, screens] of [
    [admin, ADMINISTRATION_SCREENS],
    [tenantAdmin, tenantScreens],
  ] as const) {
    const menu = await globalMenuOf(client);
    const shown = paths(menu);
    for (const screen of screens) assert.ok(shown.includes(screen.path), `${screen.path} in ${shown.join(' ')}`);
    assert.deepEqual(
      menu.slice(0, 4).map((item) => item.name),
      ['Home', 'People', 'Audit', 'Inbox'],
      'the plan still orders and names its own items',
    );
  }
  await ok(admin.delete(`/api/menu-plans/${plan.id}`));
});

test('binding the menu-plan screen to a privilege nobody holds does not hide it (platform or tenant administrator)', async () => {
  const items = [
    { name: 'Operations', path: '/operate', privilegeId, children: [{ name: 'Menus', path: '/operate/menu', privilegeId }] },
    { name: 'Orders', path: 'https://shop.example.com/orders', privilegeId },
  ];
  const plan = await ok(admin.post<{ id: string; version: number }>('/api/menu-plans', { name: 'Global menu', items }));
  const tenantMenu = paths(await globalMenuOf(tenantAdmin));
  assert.ok(tenantMenu.includes('/operate/menu'), tenantMenu.join(' '));
  assert.ok(!tenantMenu.includes('https://shop.example.com/orders'), 'a binding elsewhere still hides its item');
  assert.ok(paths(await globalMenuOf(admin)).includes('/operate/menu'));
  // Saving it again as a platform administrator changes nothing about that.
  await ok(admin.put(`/api/menu-plans/${plan.id}`, { items: [{ name: 'Menus', path: '/operate/menu', privilegeId }], version: plan.version }));
  assert.ok(paths(await globalMenuOf(tenantAdmin)).includes('/operate/menu'));
});
