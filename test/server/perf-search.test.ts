// The indexed user search (server/db/search.ts): "starts with", ASCII letters in either case, on
// username, realName, email and mobilePhone; totals count only the matches; pages keep their order;
// a tenant administrator still finds only users of their subtree.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer } from './harness';
import type { PagedList, User } from '../../src/core/types';

let server: TestServer;
let admin: Client;
let tenantA: string;
let tenantB: string;

async function makeTenant(parentId: string, name: string) {
  const answer = await admin.post<{ id: string }>('/api/tenants', { parentId, name, type: 'company' });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data.id;
}

async function makeUser(fields: Record<string, unknown>) {
  const answer = await admin.post<User>('/api/user', { realName: 'Some_User', password: transform('Secret123'), ...fields });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data;
}

async function search(as: Client, prop: string, value: string, extra = '') {
  const answer = await as.get<PagedList<User>>(`/api/user?searchProp=${prop}&searchValue=${encodeURIComponent(value)}${extra}`);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data;
}

const usernames = (page: PagedList<User>) => page.list.map((user) => user.username);

before(async () => {
  server = await startServer();
  admin = await server.admin();
  const tree = await admin.get<{ id: string; parentId: string | null }[]>('/api/tenants/tree');
  const rootId = tree.body.data.find((row) => row.parentId === null)!.id;
  tenantA = await makeTenant(rootId, 'Search_A');
  tenantB = await makeTenant(rootId, 'Search_B');
  await makeUser({ username: 'zhangwei', realName: 'Zhang_Wei', email: 'Zhang.Wei@Example.com', mobilePhone: '13800000001', tenantId: tenantA });
  await makeUser({ username: 'zhangmin', realName: '张敏', email: 'min@example.com', mobilePhone: '13900000002', tenantId: tenantB });
  await makeUser({ username: 'wangzhang', realName: 'Wang_Zhang', tenantId: tenantA });
  await makeUser({ username: 'a_b-user', realName: 'Under_Score', tenantId: tenantA });
  await makeUser({ username: 'axb-user', realName: 'Ex_Be', tenantId: tenantA });
});
after(async () => {
  await server.stop();
});

describe('user search', () => {
  test('matches the start of the value, not the middle', async () => {
    assert.deepEqual(usernames(await search(admin, 'username', 'zhang', '&sort=username&order=asc')), ['zhangmin', 'zhangwei']);
    assert.deepEqual(usernames(await search(admin, 'username', 'wei')), []);
    assert.deepEqual(usernames(await search(admin, 'realName', 'Wang')), ['wangzhang']);
    assert.deepEqual(usernames(await search(admin, 'realName', '张')), ['zhangmin']);
    assert.deepEqual(usernames(await search(admin, 'mobilePhone', '139')), ['zhangmin']);
  });

  test('ASCII letters match in either case', async () => {
    assert.deepEqual(usernames(await search(admin, 'username', 'ZHANGW')), ['zhangwei']);
    assert.deepEqual(usernames(await search(admin, 'realName', 'zhang_w')), ['zhangwei']);
    assert.deepEqual(usernames(await search(admin, 'email', 'zhang.WEI@')), ['zhangwei']);
  });

  test('% and _ are ordinary characters', async () => {
    assert.deepEqual(usernames(await search(admin, 'username', 'a_b')), ['a_b-user']);
    assert.deepEqual(usernames(await search(admin, 'username', '%')), []);
  });

  test('the total counts the matches only, and pages keep the order', async () => {
    for (let index = 0; index < 13; index += 1) await makeUser({ username: `pagesearch-${String(index).padStart(2, '0')}`, tenantId: tenantB });
    const first = await search(admin, 'username', 'PageSearch-', '&size=5');
    assert.equal(first.pager.total, 13);
    assert.deepEqual(usernames(first), ['pagesearch-12', 'pagesearch-11', 'pagesearch-10', 'pagesearch-09', 'pagesearch-08'], 'newest first');
    const last = await search(admin, 'username', 'pagesearch-', '&size=5&page=3&sort=username&order=asc');
    assert.deepEqual(usernames(last), ['pagesearch-10', 'pagesearch-11', 'pagesearch-12']);
    assert.equal(last.pager.total, 13);
  });

  test('a tenant administrator finds only users of their tenant', async () => {
    await makeUser({ username: 'search-ta', tenantId: tenantA, isAdmin: true, extraProp: { intProperty1: 1 } });
    const tenantAdmin = server.client();
    const signed = await tenantAdmin.login('search-ta', 'Secret123');
    assert.equal(signed.body.data.loginSuccess, true, JSON.stringify(signed.body));
    const found = await search(tenantAdmin, 'username', 'zhang');
    assert.deepEqual(usernames(found), ['zhangwei']);
    assert.equal(found.pager.total, 1);
    assert.deepEqual(usernames(await search(tenantAdmin, 'mobilePhone', '139')), []);
  });

  test('the OpenAPI summary states the search semantics', async () => {
    const doc = (await (await fetch(`${server.base}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, { summary: string }>> };
    assert.match(doc.paths['/api/user']!.get!.summary, /start of searchProp.*either case/);
  });
});
