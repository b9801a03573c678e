// An outside attacker's view of menu plans: only the platform administrator changes them (a tenant
// administrator, an app's own administrator and a member are refused, for the global plan and for an
// app's), an administration screen nested under an item bound elsewhere stays reachable, a menu
// item shown to someone grants nothing the server checks, and an app's token reads its own menu only.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer, ok } from './harness';
import { RelyingParty } from './oidc-rp';

interface Item {
  name: string;
  path: string;
  privilegeId?: string;
  children?: Item[];
}

let server: TestServer;
let admin: Client;
let tenantAdmin: Client;
let appAdmin: Client;
let member: Client;
let shopId = '';
let privilegeId = '';

const paths = (items: Item[]): string[] => items.flatMap((item) => [item.path, ...paths(item.children ?? [])]);

async function menusOf(client: Client, headers?: Record<string, string>) {
  return client.get<{ appId: string | null; menus: Item[] }[]>('/api/menu/app/assignment/public/multi_app_menu/list', headers);
}

async function signedIn(username: string, password: string) {
  const client = server.client();
  assert.equal((await client.login(username, password)).body.data?.loginSuccess, true);
  return client;
}

before(async () => {
  server = await startServer();
  admin = await server.admin();
  const root = (await ok(admin.get<{ id: string; parentId: string | null }[]>('/api/tenants/tree'))).find((row) => row.parentId === null)!;
  const tenant = await ok(admin.post<{ id: string }>('/api/tenants', { parentId: root.id, name: 'Menu_Tenant', type: 'company' }));
  await ok(admin.post('/api/user', { username: 'menu-tina', realName: 'Tina', password: transform('Tenant123!'), tenantId: tenant.id, isAdmin: true }));
  const owner = await ok(admin.post<{ id: string }>('/api/user', { username: 'menu-owner', realName: 'Owner', password: transform('Owner123!') }));
  await ok(admin.post('/api/user', { username: 'menu-member', realName: 'Member', password: transform('Member123!'), tenantId: tenant.id }));
  shopId = (await ok(admin.post<{ id: string }>('/api/apps', { name: 'MenuShop' }))).id;
  await ok(admin.put(`/api/apps/${shopId}/admins`, { userIds: [owner.id] }));
  privilegeId = (await ok(admin.post<{ id: string }>(`/api/apps/${shopId}/privileges`, { name: 'Orders', key: 'orders', parentId: null }))).id;
  tenantAdmin = await signedIn('menu-tina', 'Tenant123!');
  appAdmin = await signedIn('menu-owner', 'Owner123!');
  member = await signedIn('menu-member', 'Member123!');
});
after(() => server.stop());

test("only the platform administrator creates, changes or deletes a plan: a tenant administrator, the app's own administrator and a member are refused (403)", async () => {
  const appPlan = await ok(
    admin.post<{ id: string; version: number }>('/api/menu-plans', { appId: shopId, name: 'Shop menu', items: [{ name: 'Orders', path: 'orders' }] }),
  );
  const body = { appId: shopId, name: 'Shop menu 2', items: [{ name: 'Evil', path: 'https://evil.example/' }] };
  for (const [who, client] of [
    ['tenant administrator', tenantAdmin],
    ['app administrator', appAdmin],
    ['member', member],
  ] as const) {
    assert.equal((await client.post('/api/menu-plans', { ...body, appId: null })).status, 403, `${who}: global plan`);
    assert.equal((await client.put(`/api/menu-plans/${appPlan.id}`, { items: body.items, version: appPlan.version })).status, 403, `${who}: update`);
    assert.equal((await client.delete(`/api/menu-plans/${appPlan.id}`)).status, 403, `${who}: delete`);
  }
  const stored = await ok(admin.get<{ items: Item[]; version: number }>(`/api/menu-plans/${appPlan.id}`));
  assert.deepEqual(paths(stored.items), ['orders']);
  assert.equal(stored.version, appPlan.version);
  await ok(admin.delete(`/api/menu-plans/${appPlan.id}`));
});

test('an administration screen nested under an item bound to a privilege nobody holds stays in the tenant administrator’s menu', async () => {
  const items = [{ name: 'Shop', path: 'https://shop.example.com/', privilegeId, children: [{ name: 'Menus', path: '/operate/menu' }] }];
  const plan = await ok(admin.post<{ id: string }>('/api/menu-plans', { name: 'Global menu', items }));
  try {
    const global = (await ok(menusOf(tenantAdmin))).find((menu) => menu.appId === null)!;
    assert.ok(paths(global.menus).includes('/operate/menu'), paths(global.menus).join(' '));
  } finally {
    await ok(admin.delete(`/api/menu-plans/${plan.id}`));
  }
});

test("a global plan that shows the people screen to a member grants nothing: the server refuses the member's calls (403)", async () => {
  const plan = await ok(admin.post<{ id: string }>('/api/menu-plans', { name: 'Global menu', items: [{ name: 'People', path: '/operate/user' }] }));
  try {
    assert.equal((await member.get('/api/user')).status, 403);
    assert.equal((await member.get('/api/audit')).status, 403);
    assert.equal((await member.get('/api/menu-plans')).status, 403);
    assert.equal((await member.post('/api/user', { username: 'menu-made', realName: 'Made', password: transform('Secret123') })).status, 403);
  } finally {
    await ok(admin.delete(`/api/menu-plans/${plan.id}`));
  }
});

test("an app's access token reads its own app's menu only (403 for another app's), and anonymous callers nothing (401)", async () => {
  const rp = await RelyingParty.register(server, admin, 'MenuPortal');
  const tokens = await rp.signIn(member, 'openid');
  const bearer = { authorization: `Bearer ${tokens.access_token}` };
  assert.equal((await server.client().get(`/api/menu/app/assignment/public/multi_app_menu/list?appId=${shopId}`, bearer)).status, 403);
  const own = await ok(server.client().get<{ appId: string | null }[]>('/api/menu/app/assignment/public/multi_app_menu/list', bearer));
  for (const menu of own) assert.equal(menu.appId, rp.appId);
  assert.equal((await menusOf(server.client())).status, 401);
});
