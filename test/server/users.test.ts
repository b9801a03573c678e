// user calls and tenants: paging bounds, search, duplicates, 409, self service, passwords,
// and what each role may and may not do (tenant isolation).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, startServer, transform, type Client, type TestServer } from './harness';
import type { PagedList, User } from '../../src/core/types';
import { Permission } from '../../src/core/permission-codes';

let server: TestServer;
let admin: Client;
let rootId: string;
let tenantA: string;
let tenantA1: string;
let tenantB: string;

async function makeTenant(parentId: string, name: string, as = admin) {
  const answer = await as.post<{ id: string }>('/api/tenants', { parentId, name, type: 'company' });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data.id;
}

async function makeUser(fields: Record<string, unknown>, as = admin) {
  const answer = await as.post<User>('/api/user', { realName: 'Some_User', password: transform('Secret123'), ...fields });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data;
}

async function signIn(username: string, password = 'Secret123') {
  const client = server.client();
  const answer = await client.login(username, password);
  assert.equal(answer.body.data?.loginSuccess, true, JSON.stringify(answer.body));
  return client;
}

before(async () => {
  server = await startServer();
  admin = await server.admin();
  const tree = await admin.get<{ id: string; parentId: string | null }[]>('/api/tenants/tree');
  rootId = tree.body.data.find((row) => row.parentId === null)!.id;
  tenantA = await makeTenant(rootId, 'Tenant_A');
  tenantA1 = await makeTenant(tenantA, 'Tenant_A1');
  tenantB = await makeTenant(rootId, 'Tenant_B');
});
after(async () => {
  await server.stop();
});

describe('user list', () => {
  test('pages on the server: default 1/10, a capped size, bounds checked', async () => {
    for (let index = 0; index < 24; index += 1) await makeUser({ username: `page-${String(index).padStart(2, '0')}`, tenantId: tenantB });
    const first = await admin.get<PagedList<User>>('/api/user');
    assert.equal(first.status, 200);
    assert.deepEqual({ page: first.body.data.pager.page, size: first.body.data.pager.size }, { page: 1, size: 10 });
    assert.equal(first.body.data.list.length, 10);
    assert.equal(first.body.data.pager.total, 25, '24 users and the administrator');
    const third = await admin.get<PagedList<User>>('/api/user?page=3&size=10');
    assert.equal(third.body.data.list.length, 5);
    const beyond = await admin.get<PagedList<User>>('/api/user?page=99');
    assert.deepEqual(beyond.body.data.list, []);
    assert.equal(beyond.body.data.pager.total, 25);
    const capped = await admin.get<PagedList<User>>('/api/user?size=100000');
    assert.equal(capped.body.data.pager.size, 100);
    for (const bad of ['page=0', 'page=-1', 'size=abc', 'page=1.5']) {
      const answer = await admin.get<{ fields: { field: string; rule: string }[] }>(`/api/user?${bad}`);
      assert.equal(answer.status, 400, bad);
      assert.equal(answer.body.data.fields[0]?.rule, 'rule.positiveInteger');
    }
  });

  test('searches by searchProp/searchValue; LIKE wildcards are literal; unknown props refused', async () => {
    const found = await admin.get<PagedList<User>>('/api/user?searchProp=username&searchValue=PAGE-2');
    assert.deepEqual(found.body.data.list.map((user) => user.username).sort(), ['page-20', 'page-21', 'page-22', 'page-23']);
    assert.deepEqual(found.body.data.query, { searchProp: 'username', searchValue: 'PAGE-2' });
    const wildcard = await admin.get<PagedList<User>>('/api/user?searchProp=username&searchValue=%25');
    assert.equal(wildcard.body.data.pager.total, 0);
    const refused = await admin.get('/api/user?searchProp=passwordHash&searchValue=a');
    assert.equal(refused.status, 400);
    const answer = await admin.get<PagedList<User>>('/api/user?size=100');
    assert.ok(
      answer.body.data.list.every((user) => !('passwordHash' in user) && !('password' in user)),
      'no password material',
    );
  });
});

describe('saving users', () => {
  test('a duplicate username is a field error; invalid fields name their rule', async () => {
    await makeUser({ username: 'dup-user' });
    const again = await admin.post<{ fields: { field: string; rule: string }[] }>('/api/user', {
      username: 'dup-user',
      realName: 'Dup_User',
      password: transform('Secret123'),
    });
    assert.equal(again.status, 400);
    assert.deepEqual(again.body.data.fields, [{ field: 'username', rule: 'rule.usernameTaken' }]);
    const invalid = await admin.post<{ fields: { field: string; rule: string }[] }>('/api/user', {
      username: 'x',
      realName: 'A',
      email: 'nope',
      mobilePhone: '123',
      password: transform('Secret123'),
    });
    const rules = Object.fromEntries(invalid.body.data.fields.map((entry) => [entry.field, entry.rule]));
    assert.deepEqual(rules, { username: 'rule.username', realName: 'rule.realName', email: 'rule.email', mobilePhone: 'rule.phone' });
  });

  test('update with a stale version answers 409; POST with an id updates', async () => {
    const user = await makeUser({ username: 'versioned' });
    const first = await admin.put<User>(`/api/user/${user.id}`, { realName: 'First_Name', version: user.version });
    assert.equal(first.status, 200);
    assert.equal(first.body.data.version, (user.version ?? 0) + 1);
    const stale = await admin.put(`/api/user/${user.id}`, { realName: 'Stale_Name', version: user.version });
    assert.equal(stale.status, 409);
    const viaPost = await admin.post<User>('/api/user', { id: user.id, realName: 'Posted_Name', version: first.body.data.version });
    assert.equal(viaPost.status, 200, JSON.stringify(viaPost.body));
    assert.equal(viaPost.body.data.realName, 'Posted_Name');
    const read = await admin.get<User>(`/api/user/${user.id}`);
    assert.equal(read.body.data.realName, 'Posted_Name');
  });

  test('disabling a user ends their sessions and stops sign-in; delete removes them', async () => {
    const user = await makeUser({ username: 'to-disable' });
    const client = await signIn('to-disable');
    const disabled = await admin.put<User>(`/api/user/${user.id}`, { availabilityStatus: 2, version: user.version });
    assert.equal(disabled.body.data.availabilityStatus, 2);
    assert.equal((await client.get('/api/cas/session')).status, 401);
    assert.equal((await server.client().login('to-disable', 'Secret123')).status, 401);
    assert.equal((await admin.delete(`/api/user/${user.id}`)).status, 200);
    assert.equal((await admin.get(`/api/user/${user.id}`)).status, 404);
  });

  test('the last platform administrator cannot delete or disable themselves', async () => {
    const me = await admin.get<{ user: { id: string } }>('/api/cas/session');
    assert.equal((await admin.delete(`/api/user/${me.body.data.user.id}`)).status, 403);
    const self = await admin.get<User>(`/api/user/${me.body.data.user.id}`);
    const disable = await admin.put(`/api/user/${me.body.data.user.id}`, { availabilityStatus: 2, version: self.body.data.version });
    assert.equal(disable.status, 403);
  });
});

describe('self service', () => {
  test('basic info and profile: every user reaches their own, nobody else’s', async () => {
    const user = await makeUser({ username: 'self-user', tenantId: tenantB });
    const other = await makeUser({ username: 'other-user', tenantId: tenantB });
    const client = await signIn('self-user');
    const info = await client.get<{ username: string; version: number }>(`/api/user/${user.id}/basic_info`);
    assert.equal(info.body.data.username, 'self-user');
    const saved = await client.put<{ realName: string; email?: string; pendingEmail: string }>(`/api/user/${user.id}/basic_info`, {
      realName: '新名字',
      email: 'me@example.com',
      mobilePhone: '13912345678',
      currentPassword: transform('Secret123'),
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.data.realName, '新名字');
    assert.deepEqual([saved.body.data.email, saved.body.data.pendingEmail], [undefined, 'me@example.com'], 'my own new address waits for its code');
    const profile = await client.put<{ realName: string }>('/api/user/profile', { realName: 'Profile_Name', avatar: `${'0'.repeat(64)}.png` });
    assert.equal(profile.body.data.realName, 'Profile_Name');
    assert.equal((await client.get(`/api/user/${other.id}/basic_info`)).status, 403);
    assert.equal((await client.put(`/api/user/${other.id}/basic_info`, { realName: 'Hacked_Name' })).status, 403);
    assert.equal((await client.get('/api/user')).status, 403, 'an ordinary user has no code 2');
    const session = await client.get<{ user: { permissions: string[] } }>('/api/cas/session');
    assert.deepEqual(session.body.data.user.permissions, [Permission.SelfService]);
  });

  test('self reset needs the old password and signs out everywhere', async () => {
    const user = await makeUser({ username: 'pw-self' });
    const one = await signIn('pw-self');
    const two = await signIn('pw-self');
    const wrong = await one.post<{ fields: { field: string }[] }>(`/api/user/${user.id}/password`, {
      loginUserId: user.id,
      password: transform('Newpass123'),
      opUserPassword: transform('Wrong123'),
    });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.data.fields[0]?.field, 'opUserPassword');
    const ok = await one.post(`/api/user/${user.id}/password`, {
      loginUserId: user.id,
      password: transform('Newpass123'),
      opUserPassword: transform('Secret123'),
    });
    assert.equal(ok.status, 200);
    assert.equal((await one.get('/api/cas/session')).status, 401);
    assert.equal((await two.get('/api/cas/session')).status, 401, 'other sessions end too');
    assert.equal((await server.client().login('pw-self', 'Secret123')).status, 401);
    const three = await signIn('pw-self', 'Newpass123');
    const put = await three.put('/api/user/password', { password: transform('Third123'), opUserPassword: transform('Newpass123') });
    assert.equal(put.status, 200);
    await signIn('pw-self', 'Third123');
  });

  test("an administrator's reset needs the administrator's own password", async () => {
    const user = await makeUser({ username: 'pw-reset' });
    const victim = await signIn('pw-reset');
    const wrong = await admin.post(`/api/user/${user.id}/password`, {
      id: user.id,
      username: 'pw-reset',
      password: transform('Reset1234'),
      opUserPassword: transform('NotAdmin1'),
    });
    assert.equal(wrong.status, 400);
    const ok = await admin.post(`/api/user/${user.id}/password`, {
      id: user.id,
      username: 'pw-reset',
      password: transform('Reset1234'),
      opUserPassword: transform(ADMIN.password),
    });
    assert.equal(ok.status, 200);
    assert.equal((await victim.get('/api/cas/session')).status, 401, 'the user is signed out');
    await signIn('pw-reset', 'Reset1234');
    const ordinary = await signIn('pw-reset', 'Reset1234');
    const other = await makeUser({ username: 'pw-other' });
    const refused = await ordinary.post(`/api/user/${other.id}/password`, {
      id: other.id,
      username: 'pw-other',
      password: transform('Reset1234'),
      opUserPassword: transform('Reset1234'),
    });
    assert.equal(refused.status, 403);
  });
});

describe('tenant administrators', () => {
  test('see and change only their subtree', async () => {
    const tenantAdmin = await makeUser({ username: 'ta-admin', tenantId: tenantA, isAdmin: true, extraProp: { intProperty1: 1 } });
    const inA1 = await makeUser({ username: 'ta-member', tenantId: tenantA1 });
    const inB = await makeUser({ username: 'tb-member', tenantId: tenantB });
    const client = await signIn('ta-admin');
    const session = await client.get<{ user: { permissions: string[]; tenantId: string } }>('/api/cas/session');
    assert.deepEqual(session.body.data.user.permissions, [Permission.SelfService, Permission.Users, Permission.Operations]);
    assert.equal(session.body.data.user.tenantId, tenantA);

    const list = await client.get<PagedList<User>>('/api/user?size=100');
    const names = list.body.data.list.map((user) => user.username).sort();
    assert.deepEqual(names, ['ta-admin', 'ta-member']);
    assert.equal((await client.get(`/api/user/${inB.id}`)).status, 404, 'another tenant’s user does not exist for them');
    assert.equal((await client.put(`/api/user/${inB.id}`, { realName: 'Hacked_Name', version: 1 })).status, 404);
    assert.equal((await client.delete(`/api/user/${inB.id}`)).status, 404);
    assert.equal((await client.delete(`/api/authc/user/${inB.id}/login/unlock`)).status, 404);
    const changed = await client.put<User>(`/api/user/${inA1.id}`, { realName: 'Changed_Name', version: inA1.version });
    assert.equal(changed.status, 200);

    const created = await client.post<User>('/api/user', { username: 'ta-created', realName: 'Created_User', password: transform('Secret123') });
    assert.equal(created.status, 200);
    assert.equal(created.body.data.tenantId, tenantA, 'defaults to their tenant');
    const outside = await client.post('/api/user', { username: 'ta-outside', realName: 'Outside_User', password: transform('Secret123'), tenantId: tenantB });
    assert.equal(outside.status, 403);
    const platform = await client.post('/api/user', {
      username: 'ta-platform',
      realName: 'Platform_User',
      password: transform('Secret123'),
      extraProp: { intProperty1: 2 },
    });
    assert.equal(platform.status, 403, 'no platform users');
    const admins = await client.get<PagedList<User>>('/api/user?searchProp=username&searchValue=admin');
    assert.ok(
      admins.body.data.list.every((user) => user.username !== ADMIN.username),
      'platform administrators are invisible',
    );

    const tenants = await client.get<{ id: string }[]>('/api/tenants/tree');
    assert.deepEqual(tenants.body.data.map((row) => row.id).sort(), [tenantA, tenantA1].sort());
    assert.equal((await client.get(`/api/tenants/${tenantB}`)).status, 404);
    assert.equal((await client.post('/api/tenants', { parentId: tenantB, name: 'Sneaky', type: 'company' })).status, 404);
    const sub = await client.post<{ id: string }>('/api/tenants', { parentId: tenantA1, name: 'Sub_A1', type: 'department' });
    assert.equal(sub.status, 200);
    assert.equal((await client.delete(`/api/tenants/${tenantA}`)).status, 403, 'not their own tenant');
    assert.equal((await client.delete(`/api/tenants/${sub.body.data.id}`)).status, 200);
    assert.equal((await client.get('/api/config')).status, 200);
    assert.equal((await client.put('/api/settings/login', { maxFailures: 3, version: 1 })).status, 403, 'no code 3');
    void tenantAdmin;
  });

  test('tenants: 409 on a stale version, 409 on deleting a tenant with users', async () => {
    const tenant = await admin.get<{ version: number }>(`/api/tenants/${tenantB}`);
    const first = await admin.put(`/api/tenants/${tenantB}`, { name: 'Tenant_B2', version: tenant.body.data.version });
    assert.equal(first.status, 200);
    const stale = await admin.put(`/api/tenants/${tenantB}`, { name: 'Tenant_B3', version: tenant.body.data.version });
    assert.equal(stale.status, 409);
    assert.equal((await admin.delete(`/api/tenants/${tenantB}`)).status, 409);
    assert.equal((await admin.delete(`/api/tenants/${rootId}`)).status, 403);
  });
});
