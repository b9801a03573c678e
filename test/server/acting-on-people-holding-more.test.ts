// A caller acts only on people who hold no right it lacks (server/auth/grants.ts, assertMayActOn):
// every user-changing call by a tenant administrator against an app administrator, a fellow
// administrator of the same tenant and the platform administrator is refused (403 or 404) and
// changes nothing; a refusal names the right; bulk answers per person; people holding nothing beyond
// the caller stay the caller's to change. Hostile: it failed on the code before its fix.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer, ok } from './harness';
import { snapshot } from './security-support';
import { Status } from '../../src/core/enums';

const PASSWORD = 'Act-on-weaker-1';

let server: TestServer;
let admin: Client;

async function signIn(target: TestServer, username: string, password = PASSWORD): Promise<Client> {
  const client = target.client();
  const answer = await client.login(username, password);
  assert.equal(answer.body.data?.loginSuccess, true, `${username}: ${JSON.stringify(answer.body)}`);
  return client;
}

before(async () => {
  server = await startServer();
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

describe('a caller acts only on people who hold no right it lacks', () => {
  /** Tenant T with its administrator (the caller, also administering app Y) and a fellow
   *  administrator; an administrator of app X and a member in T; sub-tenant S with its administrator. */
  const ids = { tenantT: '', tenantS: '', caller: '', fellow: '', appAdmin: '', member: '', subAdmin: '', platform: '', appX: '', appY: '', roleY: '' };
  let caller: Client;
  const version = async (id: string) => (await ok(admin.get<{ version: number }>(`/api/user/${id}`), 'version')).version;

  before(async () => {
    const root = (await ok(admin.get<{ id: string; parentId: string | null }[]>('/api/tenants/tree'), 'tree')).find((row) => row.parentId === null)!;
    ids.tenantT = (await ok(admin.post<{ id: string }>('/api/tenants', { parentId: root.id, name: 'Act_T', type: 'company' }), 'T')).id;
    ids.tenantS = (await ok(admin.post<{ id: string }>('/api/tenants', { parentId: ids.tenantT, name: 'Act_S', type: 'company' }), 'S')).id;
    const user = async (username: string, fields: Record<string, unknown>) =>
      (await ok(admin.post<{ id: string }>('/api/user', { username, realName: 'Round_Three', password: transform(PASSWORD), ...fields }), username)).id;
    ids.caller = await user('act-caller', { tenantId: ids.tenantT, isAdmin: true });
    ids.fellow = await user('act-fellow', { tenantId: ids.tenantT, isAdmin: true });
    ids.appAdmin = await user('act-app-admin', { tenantId: ids.tenantT });
    ids.member = await user('act-member', { tenantId: ids.tenantT });
    ids.subAdmin = await user('act-sub-admin', { tenantId: ids.tenantS, isAdmin: true });
    ids.platform = (await ok(admin.get<{ user: { id: string } }>('/api/cas/session'), 'session')).user.id;
    ids.appX = (await ok(admin.post<{ id: string }>('/api/apps', { name: 'Act_X' }), 'X')).id;
    ids.appY = (await ok(admin.post<{ id: string }>('/api/apps', { name: 'Act_Y' }), 'Y')).id;
    ids.roleY = (await ok(admin.post<{ id: string }>(`/api/apps/${ids.appY}/roles`, { name: 'Act_Role' }), 'role')).id;
    await ok(admin.put(`/api/apps/${ids.appX}/admins`, { userIds: [ids.appAdmin] }), 'X admins');
    await ok(admin.put(`/api/apps/${ids.appY}/admins`, { userIds: [ids.caller] }), 'Y admins');
    caller = await signIn(server, 'act-caller');
  });

  /** Every call that changes a person, aimed at `target` by the caller. */
  const attempts = (target: string) => [
    { what: 'PUT /user/:id', call: async () => caller.put(`/api/user/${target}`, { realName: 'Renamed_Three', version: await version(target) }) },
    {
      what: 'PUT /user/:id disable',
      call: async () => caller.put(`/api/user/${target}`, { availabilityStatus: Status.Disabled, version: await version(target) }),
    },
    { what: 'POST /user with id', call: async () => caller.post('/api/user', { id: target, realName: 'Renamed_Three', version: await version(target) }) },
    {
      what: 'PUT /user/:id/basic_info',
      call: async () => caller.put(`/api/user/${target}/basic_info`, { realName: 'Renamed_Three', version: await version(target) }),
    },
    {
      what: 'POST /user/:id/password',
      call: () => caller.post(`/api/user/${target}/password`, { id: target, password: transform('Taken0ver9'), opUserPassword: transform(PASSWORD) }),
    },
    { what: 'DELETE /authc/user/:id/login/unlock', call: () => caller.delete(`/api/authc/user/${target}/login/unlock`) },
    { what: 'DELETE /user/:id/sessions', call: () => caller.delete(`/api/user/${target}/sessions`) },
    { what: 'PUT /user/:id/roles/:appId', call: () => caller.put(`/api/user/${target}/roles/${ids.appY}`, { roleIds: [ids.roleY] }) },
    { what: 'PUT /apps/:appId/roles/:id/members', call: () => caller.put(`/api/apps/${ids.appY}/roles/${ids.roleY}/members`, { userIds: [target] }) },
    { what: 'PUT /apps/:id/admins', call: () => caller.put(`/api/apps/${ids.appY}/admins`, { userIds: [ids.caller, target] }) },
    { what: 'DELETE /user/:id', call: () => caller.delete(`/api/user/${target}`) },
  ];

  for (const [name, key] of [
    ['an app administrator', 'appAdmin'],
    ['a fellow administrator of the same tenant', 'fellow'],
    ['the platform administrator', 'platform'],
  ] as const) {
    test(`a tenant administrator changes nothing of ${name}, by any call`, async () => {
      const target = ids[key];
      const targetSession = key === 'platform' ? admin : await signIn(server, key === 'appAdmin' ? 'act-app-admin' : 'act-fellow');
      const before = await snapshot(server.app);
      const granted = [];
      for (const { what, call } of attempts(target)) {
        const answer = await call();
        if (![403, 404].includes(answer.status)) granted.push(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
      // Making them (or withdrawing them as) a tenant administrator is acting on them too (the
      // platform administrator is no tenant user: not a candidate at all).
      if (key !== 'platform') {
        const admins = key === 'fellow' ? [ids.caller] : [ids.caller, ids.fellow, target];
        const tenantAdmins = await caller.put(`/api/tenants/${ids.tenantT}/admins`, { userIds: admins });
        if (![403, 404].includes(tenantAdmins.status)) granted.push(`PUT /tenants/:id/admins: ${tenantAdmins.status}`);
      }
      for (const action of ['disable', 'unlock', 'delete'] as const) {
        const bulk = await ok(
          caller.post<{ results: { id: string; ok: boolean; status: number }[] }>('/api/user/bulk', { action, ids: [target] }),
          `bulk ${action}`,
        );
        if (bulk.results[0]!.ok) granted.push(`POST /user/bulk ${action}`);
      }
      assert.deepEqual(granted, []);
      assert.deepEqual(await snapshot(server.app), before, 'a refused call changed stored data');
      assert.equal((await targetSession.get('/api/cas/session')).status, 200, 'their session is still alive');
    });
  }

  test('a refusal names the right; bulk refuses per person and acts on the others', async () => {
    const refused = await caller.put(`/api/user/${ids.appAdmin}`, { realName: 'Renamed_Three', version: await version(ids.appAdmin) });
    assert.equal(refused.status, 403);
    assert.match(refused.body.message, /administers apps you do not/);
    const fellow = await caller.delete(`/api/user/${ids.fellow}/sessions`);
    assert.match(fellow.body.message, /administers a tenant at or above your level/);
    const zh = await caller.delete(`/api/user/${ids.fellow}/sessions`, { 'accept-language': 'zh' });
    assert.match(zh.body.message, /租户/);

    const bulk = await ok(
      caller.post<{ results: { id: string; ok: boolean; status: number }[] }>('/api/user/bulk', {
        action: 'disable',
        ids: [ids.appAdmin, ids.member, ids.fellow],
      }),
      'bulk',
    );
    assert.deepEqual(
      bulk.results.map(({ id, ok: done, status }) => [id, done, status]),
      [
        [ids.appAdmin, false, 403],
        [ids.member, true, 200],
        [ids.fellow, false, 403],
      ],
    );
    await ok(caller.post('/api/user/bulk', { action: 'enable', ids: [ids.member] }), 'enable again');
  });

  test("people holding nothing beyond the caller stay the caller's to change: a member, an administrator of a sub-tenant", async () => {
    await ok(caller.put(`/api/user/${ids.member}`, { realName: 'Member_Three', version: await version(ids.member) }), 'member');
    await ok(caller.put(`/api/user/${ids.subAdmin}`, { realName: 'Sub_Three', version: await version(ids.subAdmin) }), 'sub-tenant admin');
    await ok(caller.delete(`/api/user/${ids.subAdmin}/sessions`), 'sub-tenant admin sessions');
    await ok(caller.put(`/api/tenants/${ids.tenantS}/admins`, { userIds: [] }), 'sub-tenant admins withdrawn');
    await ok(caller.put(`/api/apps/${ids.appY}/roles/${ids.roleY}/members`, { userIds: [ids.member] }), 'role member');
    await ok(caller.put(`/api/tenants/${ids.tenantT}/admins`, { userIds: [ids.caller, ids.fellow, ids.member] }), 'a member made administrator');
    // The platform administrator acts on anyone.
    await ok(admin.put(`/api/user/${ids.appAdmin}`, { realName: 'Renamed_Three', version: await version(ids.appAdmin) }), 'platform');
    await ok(admin.put(`/api/tenants/${ids.tenantT}/admins`, { userIds: [ids.caller] }), 'platform withdraws tenant admins');
  });
});
