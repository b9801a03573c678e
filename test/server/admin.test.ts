// The administration screens' calls: user list sorting and tenant filter, roles of a user per app,
// moving tenants, tenant administrators, privilege order, the member lookup, and menu plans bound
// to privileges (who sees which item) — each with what the three kinds of administrator may do.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer, ok } from './harness';
import type { PagedList, User } from '../../src/core/types';
import { Permission } from '../../src/core/permission-codes';

interface Tenant {
  id: string;
  parentId: string | null;
  name: string;
  version: number;
}
interface Member {
  id: string;
  username: string;
  realName: string;
}
interface AppRoles {
  appId: string;
  appName: string;
  roles: { id: string; name: string; assigned: boolean }[];
}
interface Privilege {
  id: string;
  parentId: string | null;
  key: string;
  sort: number;
}
interface MenuItem {
  name: string;
  path: string;
  privilegeId?: string;
  children?: MenuItem[];
}
type Fields = { fields: { field: string; rule: string }[] };

let server: TestServer;
let admin: Client;
let rootId: string;

const makeTenant = (parentId: string, name: string, as = admin) => ok(as.post<Tenant>('/api/tenants', { parentId, name, type: 'company' }));
const makeUser = (fields: Record<string, unknown>, as = admin) =>
  ok(as.post<User>('/api/user', { realName: 'Some_User', password: transform('Secret123'), ...fields }));

async function signIn(username: string): Promise<Client> {
  const client = server.client();
  const answer = await client.login(username, 'Secret123');
  assert.equal(answer.body.data?.loginSuccess, true, JSON.stringify(answer.body));
  return client;
}

before(async () => {
  server = await startServer();
  admin = await server.admin();
  rootId = (await ok(admin.get<Tenant[]>('/api/tenants/tree'))).find((row) => row.parentId === null)!.id;
});
after(async () => {
  await server.stop();
});

describe('user list', () => {
  test('sorts by a column in either order, and filters by a tenant subtree or that tenant only', async () => {
    const parent = await makeTenant(rootId, 'Sort_Parent');
    const child = await makeTenant(parent.id, 'Sort_Child');
    await makeUser({ username: 'sort-b', realName: 'Bravo', tenantId: parent.id });
    await makeUser({ username: 'sort-a', realName: 'Charlie', tenantId: child.id });
    await makeUser({ username: 'sort-c', realName: 'Alpha', tenantId: parent.id });
    const names = async (query: string) => (await ok(admin.get<PagedList<User>>(`/api/user?${query}`))).list.map((user) => user.username);

    assert.deepEqual(await names(`tenantId=${parent.id}&sort=username&order=asc`), ['sort-a', 'sort-b', 'sort-c']);
    assert.deepEqual(await names(`tenantId=${parent.id}&sort=username&order=desc`), ['sort-c', 'sort-b', 'sort-a']);
    assert.deepEqual(await names(`tenantId=${parent.id}&sort=realName&order=asc`), ['sort-c', 'sort-b', 'sort-a']);
    assert.deepEqual(await names(`tenantId=${parent.id}&tenantMatch=exact&sort=username&order=asc`), ['sort-b', 'sort-c']);
    assert.deepEqual(await names(`tenantId=${child.id}&searchProp=realName&searchValue=char`), ['sort-a']);
    const refused = await admin.get<Fields>('/api/user?sort=passwordHash');
    assert.equal(refused.status, 400);
    assert.equal(refused.body.data.fields[0]?.field, 'sort');
  });
});

describe('roles of a user per app', () => {
  test('lists every app with its roles, sets the roles of one app, refuses roles of another app', async () => {
    const crm = await ok(admin.post<{ id: string }>('/api/apps', { name: 'Roles_CRM' }));
    const erp = await ok(admin.post<{ id: string }>('/api/apps', { name: 'Roles_ERP' }));
    const sales = await ok(admin.post<{ id: string }>(`/api/apps/${crm.id}/roles`, { name: 'Sales' }));
    const support = await ok(admin.post<{ id: string }>(`/api/apps/${crm.id}/roles`, { name: 'Support' }));
    const buyer = await ok(admin.post<{ id: string }>(`/api/apps/${erp.id}/roles`, { name: 'Buyer' }));
    const person = await makeUser({ username: 'role-holder' });

    const before = await ok(admin.get<AppRoles[]>(`/api/user/${person.id}/roles`));
    const crmRoles = before.find((entry) => entry.appId === crm.id);
    assert.deepEqual(
      crmRoles?.roles.map((role) => [role.name, role.assigned]),
      [
        ['Sales', false],
        ['Support', false],
      ],
    );

    const after = await ok(admin.put<AppRoles[]>(`/api/user/${person.id}/roles/${crm.id}`, { roleIds: [sales.id, support.id] }));
    assert.deepEqual(
      after.find((entry) => entry.appId === crm.id)?.roles.map((role) => role.assigned),
      [true, true],
    );
    await ok(admin.put(`/api/user/${person.id}/roles/${erp.id}`, { roleIds: [buyer.id] }));
    // Setting one app's roles leaves the other app's alone.
    const narrowed = await ok(admin.put<AppRoles[]>(`/api/user/${person.id}/roles/${crm.id}`, { roleIds: [support.id] }));
    assert.deepEqual(
      narrowed
        .find((entry) => entry.appId === crm.id)
        ?.roles.filter((role) => role.assigned)
        .map((role) => role.name),
      ['Support'],
    );
    assert.deepEqual(
      narrowed
        .find((entry) => entry.appId === erp.id)
        ?.roles.filter((role) => role.assigned)
        .map((role) => role.name),
      ['Buyer'],
    );
    const members = await ok(admin.get<Member[]>(`/api/apps/${crm.id}/roles/${support.id}/members`));
    assert.deepEqual(
      members.map((member) => member.username),
      ['role-holder'],
    );

    const foreign = await admin.put<Fields>(`/api/user/${person.id}/roles/${crm.id}`, { roleIds: [buyer.id] });
    assert.equal(foreign.status, 400);
    assert.equal(foreign.body.data.fields[0]?.field, 'roleIds');
    assert.equal((await admin.put(`/api/user/${person.id}/roles/no-such-app`, { roleIds: [] })).status, 404);
  });

  test('a tenant administrator assigns the roles of apps they administer, to their own users only', async () => {
    const tenant = await makeTenant(rootId, 'Roles_Tenant');
    const other = await makeTenant(rootId, 'Roles_Other');
    const ta = await makeUser({ username: 'roles-ta', tenantId: tenant.id, isAdmin: true });
    const mine = await makeUser({ username: 'roles-mine', tenantId: tenant.id });
    const theirs = await makeUser({ username: 'roles-theirs', tenantId: other.id });
    const app = await ok(admin.post<{ id: string }>('/api/apps', { name: 'Roles_Tenant_App' }));
    const foreign = await ok(admin.post<{ id: string }>('/api/apps', { name: 'Roles_Foreign_App' }));
    const role = await ok(admin.post<{ id: string }>(`/api/apps/${app.id}/roles`, { name: 'Viewer' }));
    const foreignRole = await ok(admin.post<{ id: string }>(`/api/apps/${foreign.id}/roles`, { name: 'Viewer' }));
    await ok(admin.put(`/api/apps/${app.id}/admins`, { userIds: [ta.id] }));
    const tenantAdmin = await signIn('roles-ta');
    await ok(tenantAdmin.put(`/api/user/${mine.id}/roles/${app.id}`, { roleIds: [role.id] }));
    const listed = await ok(tenantAdmin.get<AppRoles[]>(`/api/user/${mine.id}/roles`));
    assert.deepEqual(
      listed.map((entry) => entry.appName),
      ['Roles_Tenant_App'],
      'only the apps they administer',
    );
    const refused = await tenantAdmin.put(`/api/user/${mine.id}/roles/${foreign.id}`, { roleIds: [foreignRole.id] });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.message, 'You can only grant the roles and privileges of apps you administer');
    assert.equal((await tenantAdmin.put(`/api/user/${mine.id}/roles/${app.id}`, { roleIds: [foreignRole.id] })).status, 403, 'a role of another app');
    assert.equal((await tenantAdmin.get(`/api/user/${theirs.id}/roles`)).status, 404);
    assert.equal((await tenantAdmin.put(`/api/user/${theirs.id}/roles/${app.id}`, { roleIds: [role.id] })).status, 404);
    const ordinary = await signIn('roles-mine');
    assert.equal((await ordinary.get(`/api/user/${mine.id}/roles`)).status, 403, 'no code 2');
  });
});

describe('tenants', () => {
  test('a tenant moves with its subtree; never under itself, never the root; 409 when stale', async () => {
    const from = await makeTenant(rootId, 'Move_From');
    const to = await makeTenant(rootId, 'Move_To');
    const moving = await makeTenant(from.id, 'Move_Me');
    const below = await makeTenant(moving.id, 'Move_Below');
    await makeUser({ username: 'move-member', tenantId: below.id });

    const moved = await ok(admin.put<Tenant>(`/api/tenants/${moving.id}/parent`, { parentId: to.id, version: moving.version }));
    assert.equal(moved.parentId, to.id);
    // The subtree came along: the user filter of the new parent finds the member two levels down.
    const underTo = await ok(admin.get<PagedList<User>>(`/api/user?tenantId=${to.id}`));
    assert.deepEqual(
      underTo.list.map((user) => user.username),
      ['move-member'],
    );
    const underFrom = await ok(admin.get<PagedList<User>>(`/api/user?tenantId=${from.id}`));
    assert.deepEqual(underFrom.list, []);
    const children = await ok(admin.get<PagedList<Tenant>>(`/api/tenants?parentId=${moving.id}`));
    assert.deepEqual(
      children.list.map((row) => row.name),
      ['Move_Below'],
    );

    const loop = await admin.put<Fields>(`/api/tenants/${moving.id}/parent`, { parentId: below.id, version: moved.version });
    assert.equal(loop.status, 400);
    assert.equal(loop.body.data.fields[0]?.field, 'parentId');
    assert.equal((await admin.put(`/api/tenants/${moving.id}/parent`, { parentId: moving.id, version: moved.version })).status, 400);
    assert.equal((await admin.put(`/api/tenants/${rootId}/parent`, { parentId: to.id, version: 1 })).status, 403);
    assert.equal((await admin.put(`/api/tenants/${moving.id}/parent`, { parentId: from.id, version: moving.version })).status, 409);
  });

  test('a tenant administrator moves tenants only inside their subtree, and not their own tenant', async () => {
    const home = await makeTenant(rootId, 'Move_Home');
    const a = await makeTenant(home.id, 'Move_A');
    const b = await makeTenant(home.id, 'Move_B');
    const outside = await makeTenant(rootId, 'Move_Outside');
    await makeUser({ username: 'move-ta', tenantId: home.id, isAdmin: true });
    const tenantAdmin = await signIn('move-ta');
    await ok(tenantAdmin.put(`/api/tenants/${b.id}/parent`, { parentId: a.id, version: b.version }));
    const b2 = await ok(tenantAdmin.get<Tenant>(`/api/tenants/${b.id}`));
    assert.equal(b2.parentId, a.id);
    assert.equal((await tenantAdmin.put(`/api/tenants/${b.id}/parent`, { parentId: outside.id, version: b2.version })).status, 404);
    assert.equal((await tenantAdmin.put(`/api/tenants/${home.id}/parent`, { parentId: a.id, version: home.version })).status, 403);
    assert.equal((await tenantAdmin.put(`/api/tenants/${outside.id}/parent`, { parentId: a.id, version: outside.version })).status, 404);
  });

  test('tenant administrators: set from the tenant’s own users, who then administer it', async () => {
    const tenant = await makeTenant(rootId, 'Admins_Tenant');
    const other = await makeTenant(rootId, 'Admins_Other');
    const first = await makeUser({ username: 'admins-first', tenantId: tenant.id });
    const second = await makeUser({ username: 'admins-second', tenantId: tenant.id });
    const stranger = await makeUser({ username: 'admins-stranger', tenantId: other.id });

    assert.deepEqual(await ok(admin.get<Member[]>(`/api/tenants/${tenant.id}/admins`)), []);
    const set = await ok(admin.put<Member[]>(`/api/tenants/${tenant.id}/admins`, { userIds: [first.id] }));
    assert.deepEqual(
      set.map((member) => member.username),
      ['admins-first'],
    );
    const refused = await admin.put<Fields>(`/api/tenants/${tenant.id}/admins`, { userIds: [stranger.id] });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.data.fields[0]?.field, 'userIds');

    const tenantAdmin = await signIn('admins-first');
    const session = await ok(tenantAdmin.get<{ user: { permissions: string[] } }>('/api/cas/session'));
    assert.deepEqual(session.user.permissions, [Permission.SelfService, Permission.Users, Permission.Operations]);
    const both = await ok(tenantAdmin.put<Member[]>(`/api/tenants/${tenant.id}/admins`, { userIds: [first.id, second.id] }));
    assert.deepEqual(
      both.map((member) => member.username),
      ['admins-first', 'admins-second'],
    );
    assert.equal((await tenantAdmin.put(`/api/tenants/${tenant.id}/admins`, { userIds: [second.id] })).status, 403, 'not their own rights');
    assert.equal((await tenantAdmin.get(`/api/tenants/${other.id}/admins`)).status, 404);

    // Demoted: the rights end with the flag.
    await ok(admin.put(`/api/tenants/${tenant.id}/admins`, { userIds: [second.id] }));
    assert.equal((await tenantAdmin.get('/api/user')).status, 403);
  });
});

describe('apps', () => {
  test('privileges are reordered among their siblings; an incomplete order is refused', async () => {
    const app = await ok(admin.post<{ id: string }>('/api/apps', { name: 'Order_App' }));
    const make = (key: string, parentId?: string) => ok(admin.post<Privilege>(`/api/apps/${app.id}/privileges`, { name: `Node ${key}`, key, parentId }));
    const one = await make('one');
    const two = await make('two');
    const three = await make('three');
    const child = await make('child', one.id);
    const ordered = await ok(admin.put<Privilege[]>(`/api/apps/${app.id}/privileges/order`, { parentId: null, ids: [three.id, one.id, two.id] }));
    assert.deepEqual(
      ordered.filter((node) => node.parentId === null).map((node) => node.key),
      ['three', 'one', 'two'],
    );
    assert.equal(ordered.find((node) => node.id === child.id)?.parentId, one.id);
    const missing = await admin.put<Fields>(`/api/apps/${app.id}/privileges/order`, { parentId: null, ids: [three.id, one.id] });
    assert.equal(missing.status, 400);
    assert.equal((await admin.put(`/api/apps/${app.id}/privileges/order`, { parentId: one.id, ids: [child.id, child.id] })).status, 400);
    assert.equal((await admin.put(`/api/apps/${app.id}/privileges/order`, { parentId: one.id, ids: [two.id] })).status, 400);
  });

  test('the member lookup finds a few enabled users, for administrators of that app only', async () => {
    const app = await ok(admin.post<{ id: string }>('/api/apps', { name: 'Lookup_App' }));
    const otherApp = await ok(admin.post<{ id: string }>('/api/apps', { name: 'Lookup_Other' }));
    const owner = await makeUser({ username: 'lookup-owner' });
    await makeUser({ username: 'lookup-zed', realName: 'Zed_Lookup' });
    const disabled = await makeUser({ username: 'lookup-off' });
    await ok(admin.put(`/api/user/${disabled.id}`, { availabilityStatus: 2, version: disabled.version }));
    await ok(admin.put(`/api/apps/${app.id}/admins`, { userIds: [owner.id] }));
    const appAdmin = await signIn('lookup-owner');
    const found = await ok(appAdmin.get<Member[]>(`/api/apps/${app.id}/member-lookup?searchValue=LOOKUP`));
    assert.deepEqual(
      found.map((member) => member.username),
      ['lookup-owner', 'lookup-zed'],
    );
    assert.equal((await appAdmin.get(`/api/apps/${otherApp.id}/member-lookup?searchValue=lookup`)).status, 404);
    assert.equal((await appAdmin.get(`/api/apps/${app.id}/member-lookup?searchValue=`)).status, 400);
  });
});

describe('menu plans', () => {
  test('one plan per app and one global plan; bound items show only to holders of the privilege', async () => {
    const app = await ok(admin.post<{ id: string; entrypoint: string }>('/api/apps', { name: 'Menu_Bound', entrypoint: 'https://bound.example.com/' }));
    const otherApp = await ok(admin.post<{ id: string }>('/api/apps', { name: 'Menu_Other' }));
    const reports = await ok(admin.post<Privilege>(`/api/apps/${app.id}/privileges`, { name: 'Reports', key: 'reports' }));
    const foreign = await ok(admin.post<Privilege>(`/api/apps/${otherApp.id}/privileges`, { name: 'Foreign', key: 'foreign' }));
    const role = await ok(admin.post<{ id: string }>(`/api/apps/${app.id}/roles`, { name: 'Reporter' }));
    await ok(admin.put(`/api/apps/${app.id}/roles/${role.id}/privileges`, { privilegeIds: [reports.id] }));
    const holder = await makeUser({ username: 'menu-holder' });
    await makeUser({ username: 'menu-plain' });
    await ok(admin.put(`/api/user/${holder.id}/roles/${app.id}`, { roleIds: [role.id] }));

    const items: MenuItem[] = [
      { name: 'Start', path: '/start' },
      { name: 'Reports', path: '/reports', privilegeId: reports.id, children: [{ name: 'Monthly', path: '/reports/monthly' }] },
    ];
    assert.equal(await ok(admin.get(`/api/menu-plans/for/${app.id}`)), null);
    const plan = await ok(admin.post<{ id: string; version: number }>('/api/menu-plans', { appId: app.id, name: 'Bound menu', items }));
    assert.equal((await ok(admin.get<{ id: string }>(`/api/menu-plans/for/${app.id}`))).id, plan.id);
    const second = await admin.post<Fields>('/api/menu-plans', { appId: app.id, name: 'Second menu', items: [] });
    assert.deepEqual(second.body.data.fields, [{ field: 'appId', rule: 'rule.duplicate' }]);
    const wrongApp = await admin.post<Fields>('/api/menu-plans', {
      appId: otherApp.id,
      name: 'Wrong menu',
      items: [{ name: 'X', path: '/x', privilegeId: reports.id }],
    });
    assert.deepEqual(wrongApp.body.data.fields, [{ field: 'items', rule: 'rule.privilegeIds' }]);
    const global = await ok(
      admin.post<{ id: string }>('/api/menu-plans', {
        name: 'Global menu',
        items: [
          { name: 'Home', path: '/home/index' },
          { name: 'Foreign', path: '/foreign', privilegeId: foreign.id },
        ],
      }),
    );
    assert.equal((await ok(admin.get<{ id: string }>('/api/menu-plans/for/global'))).id, global.id);

    const menusOf = async (client: Client) => {
      const list = await ok(
        client.get<{ appId: string | null; entrypoint: string | null; menus: MenuItem[] }[]>('/api/menu/app/assignment/public/multi_app_menu/list'),
      );
      return Object.fromEntries(list.map((entry) => [entry.appId ?? 'global', entry]));
    };
    const plain = await menusOf(await signIn('menu-plain'));
    assert.deepEqual(
      plain[app.id]?.menus.map((item) => item.name),
      ['Start'],
    );
    assert.deepEqual(
      plain.global?.menus.map((item) => item.name),
      ['Home'],
    );
    const held = await menusOf(await signIn('menu-holder'));
    assert.deepEqual(
      held[app.id]?.menus.map((item) => item.name),
      ['Start', 'Reports'],
    );
    assert.deepEqual(
      held[app.id]?.menus[1]?.children?.map((item) => item.name),
      ['Monthly'],
    );
    assert.equal(held[app.id]?.entrypoint, 'https://bound.example.com/');
    const everything = await menusOf(admin);
    // The administration screens the plan left out come back, named by their routes (src/core/administration-menu.ts).
    assert.deepEqual(
      everything.global?.menus.map((item) => item.name),
      ['Home', 'Foreign', 'route.operate'],
    );

    // Removing the privilege from the role hides the item again.
    await ok(admin.put(`/api/apps/${app.id}/roles/${role.id}/privileges`, { privilegeIds: [] }));
    assert.deepEqual(
      (await menusOf(await signIn('menu-holder')))[app.id]?.menus.map((item) => item.name),
      ['Start'],
    );
    const badPath = await admin.put<Fields>(`/api/menu-plans/${plan.id}`, { items: [{ name: 'Bad', path: 'has space' }], version: plan.version });
    assert.equal(badPath.status, 400);
  });
});
