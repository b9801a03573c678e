// Apps, their administrators, privilege trees and roles: platform vs app administrators.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer } from './harness';
import type { PagedList } from '../../src/core/types';
import { Permission } from '../../src/core/permission-codes';

interface App {
  id: string;
  name: string;
  version: number;
  isMaster: boolean;
}
interface Privilege {
  id: string;
  parentId: string | null;
  key: string;
  sort: number;
}

let server: TestServer;
let admin: Client;
let appOne: App;
let appTwo: App;
let appAdmin: Client;
let appAdminId: string;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  appOne = (await admin.post<App>('/api/apps', { name: 'App_One', entrypoint: 'https://one.example.com/', callbackUrl: 'https://one.example.com/cb' })).body
    .data;
  appTwo = (await admin.post<App>('/api/apps', { name: 'App_Two', entrypoint: '/two' })).body.data;
  appAdminId = (await admin.post<{ id: string }>('/api/user', { username: 'app-admin', realName: 'App_Admin', password: transform('Secret123') })).body.data.id;
  const set = await admin.put<{ username: string }[]>(`/api/apps/${appOne.id}/admins`, { userIds: [appAdminId] });
  assert.deepEqual(
    set.body.data.map((user) => user.username),
    ['app-admin'],
  );
  appAdmin = server.client();
  await appAdmin.login('app-admin', 'Secret123');
});
after(async () => {
  await server.stop();
});

test('platform administrators create, list, update (409 when stale) and delete apps', async () => {
  assert.ok(appOne.id && appTwo.id);
  const list = await admin.get<PagedList<App>>('/api/apps?searchProp=name&searchValue=app_');
  assert.deepEqual(
    list.body.data.list.map((app) => app.name),
    ['App_One', 'App_Two'],
  );
  const duplicate = await admin.post<{ fields: { field: string; rule: string }[] }>('/api/apps', { name: 'App_One' });
  assert.deepEqual(duplicate.body.data.fields, [{ field: 'name', rule: 'rule.duplicate' }]);
  const badLink = await admin.post<{ fields: { field: string }[] }>('/api/apps', { name: 'App_Bad', callbackUrl: 'javascript:alert(1)' });
  assert.equal(badLink.status, 400);
  assert.equal(badLink.body.data.fields[0]?.field, 'callbackUrl');
  const changed = await admin.put<App>(`/api/apps/${appTwo.id}`, { detail: 'Second app here', version: appTwo.version });
  assert.equal(changed.status, 200);
  assert.equal((await admin.put(`/api/apps/${appTwo.id}`, { detail: 'Stale write', version: appTwo.version })).status, 409);
  const temp = (await admin.post<App>('/api/apps', { name: 'App_Temp' })).body.data;
  assert.equal((await admin.delete(`/api/apps/${temp.id}`)).status, 200);
  assert.equal((await admin.get(`/api/apps/${temp.id}`)).status, 404);
});

test('an app administrator has codes 0 and 1 and reaches only their apps', async () => {
  const session = await appAdmin.get<{ user: { permissions: string[]; ownedApps: { id: string }[] }; administeredApps: { id: string }[] }>('/api/cas/session');
  assert.deepEqual(session.body.data.user.permissions, [Permission.SelfService, Permission.Apps]);
  assert.deepEqual(
    session.body.data.administeredApps.map((app) => app.id),
    [appOne.id],
  );
  const list = await appAdmin.get<PagedList<App>>('/api/apps');
  assert.deepEqual(
    list.body.data.list.map((app) => app.id),
    [appOne.id],
  );
  assert.equal((await appAdmin.get(`/api/apps/${appTwo.id}`)).status, 404);
  assert.equal((await appAdmin.get(`/api/apps/${appTwo.id}/roles`)).status, 404);
  assert.equal((await appAdmin.post('/api/apps', { name: 'App_Mine' })).status, 403, 'only the platform creates apps');
  assert.equal((await appAdmin.delete(`/api/apps/${appOne.id}`)).status, 403);
  assert.equal((await appAdmin.put(`/api/apps/${appOne.id}/admins`, { userIds: [] })).status, 403);
  const own = await appAdmin.get<App>(`/api/apps/${appOne.id}`);
  const edit = await appAdmin.put<App>(`/api/apps/${appOne.id}`, { detail: 'Edited by admin', version: own.body.data.version });
  assert.equal(edit.status, 200);
  assert.equal((await appAdmin.get('/api/user')).status, 403, 'no code 2');
  assert.equal((await appAdmin.get('/api/tenants')).status, 403, 'no code 4');
});

test('privilege trees: parent in the same app, no cycles, unique keys, subtree deleted with its root', async () => {
  const base = `/api/apps/${appOne.id}/privileges`;
  const root = (await appAdmin.post<Privilege>(base, { name: 'Users', key: 'users', sort: 1, path: '/users' })).body.data;
  const child = (await appAdmin.post<Privilege>(base, { name: 'Users view', key: 'usersView', parentId: root.id, sort: 2 })).body.data;
  assert.equal(child.parentId, root.id);
  const dupKey = await appAdmin.post<{ fields: { field: string; rule: string }[] }>(base, { name: 'Again', key: 'users' });
  assert.deepEqual(dupKey.body.data.fields, [{ field: 'key', rule: 'rule.duplicate' }]);
  const badKey = await appAdmin.post<{ fields: { field: string; rule: string }[] }>(base, { name: 'Bad', key: '1abc' });
  assert.deepEqual(badKey.body.data.fields, [{ field: 'key', rule: 'rule.safeCodeStart' }], 'the cause, not the rule again');
  // An edit with no fields (or unknown ones only) changes nothing; it once built an UPDATE without columns (500).
  for (const empty of [{}, { unknownField: 1 }]) {
    const unchanged = await appAdmin.put<Privilege>(`${base}/${child.id}`, empty);
    assert.equal(unchanged.status, 200, `PUT ${JSON.stringify(empty)}`);
    assert.deepEqual(unchanged.body.data, child);
  }
  const cycle = await appAdmin.put(`${base}/${root.id}`, { parentId: child.id });
  assert.equal(cycle.status, 400, 'a node cannot move under its own child');
  const other = (await admin.post<Privilege>(`/api/apps/${appTwo.id}/privileges`, { name: 'Other', key: 'other' })).body.data;
  assert.equal((await appAdmin.post(base, { name: 'Cross', key: 'cross', parentId: other.id })).status, 400, 'parent from another app');
  const tree = await appAdmin.get<Privilege[]>(base);
  assert.deepEqual(
    tree.body.data.map((node) => node.key),
    ['users', 'usersView'],
  );
  assert.equal((await appAdmin.delete(`${base}/${root.id}`)).status, 200);
  assert.deepEqual((await appAdmin.get<Privilege[]>(base)).body.data, []);
});

test('roles: CRUD, privileges of the same app, members, 409', async () => {
  const base = `/api/apps/${appOne.id}/roles`;
  const privilege = (await appAdmin.post<Privilege>(`/api/apps/${appOne.id}/privileges`, { name: 'Reports', key: 'reports' })).body.data;
  const foreign = (await admin.post<Privilege>(`/api/apps/${appTwo.id}/privileges`, { name: 'Foreign', key: 'foreign' })).body.data;
  const created = await appAdmin.post<{ id: string; version: number }>(base, { name: '审计员', description: 'Reads the reports' });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const roleId = created.body.data.id;
  const badName = await appAdmin.post<{ fields: { field: string; rule: string }[] }>(base, { name: 'x' });
  assert.deepEqual(badName.body.data.fields, [{ field: 'name', rule: 'rule.roleName' }]);
  assert.deepEqual((await appAdmin.put<string[]>(`${base}/${roleId}/privileges`, { privilegeIds: [privilege.id] })).body.data, [privilege.id]);
  assert.equal(
    (await appAdmin.put(`${base}/${roleId}/privileges`, { privilegeIds: [foreign.id] })).status,
    403,
    'a privilege of an app they do not administer',
  );
  assert.deepEqual((await appAdmin.get<string[]>(`${base}/${roleId}/privileges`)).body.data, [privilege.id]);
  const members = await appAdmin.put<{ id: string }[]>(`${base}/${roleId}/members`, { userIds: [appAdminId] });
  assert.deepEqual(
    members.body.data.map((user) => user.id),
    [appAdminId],
  );
  const renamed = await appAdmin.put(`${base}/${roleId}`, { name: 'Auditor', version: created.body.data.version });
  assert.equal(renamed.status, 200);
  assert.equal((await appAdmin.put(`${base}/${roleId}`, { name: 'Stale_Name', version: created.body.data.version })).status, 409);
  const page = await appAdmin.get<PagedList<{ name: string }>>(base);
  assert.deepEqual(
    page.body.data.list.map((role) => role.name),
    ['Auditor'],
  );
  assert.equal((await appAdmin.delete(`${base}/${roleId}`)).status, 200);
  assert.equal((await appAdmin.get(`${base}/${roleId}/members`)).status, 404);
});

test('rows with equal sort keys come back in one order: by id after the sort key', async () => {
  const base = `/api/apps/${appTwo.id}/privileges`;
  const twins: Privilege[] = [];
  for (const key of ['twinD', 'twinB', 'twinA', 'twinC']) twins.push((await admin.post<Privilege>(base, { name: 'Twin', key, sort: 7 })).body.data);
  const listed = (await admin.get<Privilege[]>(base)).body.data.filter((node) => node.key.startsWith('twin'));
  assert.deepEqual(
    listed.map((node) => node.id),
    twins.map((node) => node.id).sort(),
  );
  for (const twin of twins) assert.equal((await admin.delete(`${base}/${twin.id}`)).status, 200);
});
