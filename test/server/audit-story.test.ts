// The audit log reads like a story: an update records only the fields it changed, old → new; a bulk
// action is one event with each user's event beneath it; a failed sign-in names the account it
// tried; every event keeps its target's name.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer } from './harness';

let server: TestServer;
let admin: Client;

before(async () => {
  server = await startServer();
  admin = await server.admin();
});
after(() => server?.stop());

interface Entry {
  id: number;
  action: string;
  actorName: string | null;
  targetName: string | null;
  parentId: number | null;
  children: number;
  detail: { fields?: string[]; changes?: Record<string, { from: unknown; to: unknown }> };
}

const list = async (query: string) => {
  const answer = await admin.get<{ list: Entry[] }>(`/api/audit?size=50&${query}`);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data.list;
};

test('a bulk disable is one event with each user beneath it, each naming only the field it changed, old → new', async () => {
  const ids: string[] = [];
  for (const username of ['story-ann', 'story-bob']) {
    const made = await admin.post<{ id: string }>('/api/user', { username, realName: 'Story_User', password: transform('Story1234') });
    assert.equal(made.status, 200);
    ids.push(made.body.data.id);
  }
  assert.equal((await admin.post('/api/user/bulk', { action: 'disable', ids })).status, 200);
  const [bulk] = await list('action=user.bulk');
  assert.ok(bulk, 'the bulk action has its own event');
  assert.equal(bulk.children, 2);
  const rows = await list(`parentId=${bulk.id}`);
  assert.deepEqual(rows.map((row) => row.targetName).sort(), ['story-ann', 'story-bob'], 'targets by name');
  for (const row of rows) {
    assert.equal(row.parentId, bulk.id);
    assert.deepEqual(row.detail.fields, ['availabilityStatus'], 'only the field that changed');
    assert.equal(row.detail.changes?.availabilityStatus?.to !== row.detail.changes?.availabilityStatus?.from, true);
  }
  assert.ok(
    (await list('')).every((row) => row.parentId === null),
    'the list shows the bulk action, its rows beneath it',
  );
});

test('a failed sign-in names the account it tried', async () => {
  const answer = await server.client().post('/api/authc/login', { username: 'story-nobody', password: transform('Wrong1234') });
  assert.equal(answer.status, 401);
  const [failure] = await list('action=login.failure&actor=story-nobody');
  assert.equal(failure?.actorName, 'story-nobody');
});
