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
  success: boolean;
  detail: { fields?: string[]; changes?: Record<string, { from: unknown; to: unknown }>; done?: number; refused?: number };
}

const list = async (query: string) => {
  const answer = await admin.get<{ list: Entry[] }>(`/api/audit?size=50&${query}`);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data.list;
};

test('a bulk disable is one event with each user beneath it, each naming only the field it changed, old → new; the event counts who was done and who refused', async () => {
  const ids = ['00000000-0000-4000-8000-00000000b0b1'];
  for (const username of ['story-ann', 'story-bob']) {
    const made = await admin.post<{ id: string }>('/api/user', { username, realName: 'Story_User', password: transform('Story1234') });
    assert.equal(made.status, 200);
    ids.push(made.body.data.id);
  }
  assert.equal((await admin.post('/api/user/bulk', { action: 'disable', ids })).status, 200);
  const [bulk] = await list('action=user.bulk');
  assert.ok(bulk, 'the bulk action has its own event');
  assert.equal(bulk.children, 2);
  assert.deepEqual([bulk.success, bulk.detail.done, bulk.detail.refused], [true, 2, 1], 'two disabled, one nobody (404)');
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

test('a settings change lists only the settings it changed, old → new; a changed secret is named but never shown', async () => {
  const current = await admin.get<{ value: { passwordPolicy: { minLength: number } }; version: number }>('/api/settings/login');
  assert.equal(current.status, 200);
  const policy = current.body.data.value.passwordPolicy;
  const minLength = policy.minLength;
  const saved = await admin.put('/api/settings/login', { passwordPolicy: { ...policy, minLength: minLength + 2 }, version: current.body.data.version });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  const [settings] = await list('action=settings.update');
  assert.deepEqual(settings?.detail.changes, { 'passwordPolicy.minLength': { from: minLength, to: minLength + 2 } });

  const created = await admin.post<{ id: string; version: number }>('/api/channels', {
    name: 'Story robot',
    serviceType: 'DING_TALK',
    vendor: 'dingtalk',
    config: { webhook: 'https://oapi.dingtalk.com/robot/send?access_token=story-token-1', secret: 'SEC-story-old' },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  // The robot's URL carries its access token under a plain name ("webhook"): masked as the channel's secret.
  const updated = await admin.put(`/api/channels/${created.body.data.id}`, {
    config: { webhook: 'https://oapi.dingtalk.com/robot/send?access_token=story-token-2', secret: 'SEC-story-new' },
    version: created.body.data.version,
  });
  assert.equal(updated.status, 200, JSON.stringify(updated.body));
  const [change] = await list('action=channel.update');
  assert.deepEqual(change?.detail.changes, { 'config.webhook': { from: '••••••', to: '••••••' }, 'config.secret': { from: '••••••', to: '••••••' } });
  assert.doesNotMatch(JSON.stringify(change), /SEC-story|story-token/, 'no secret is in the event');
});

test('an event names its target as gone once the person or tenant it was about is deleted, and as there while it is', async () => {
  const root = (await admin.get<{ id: string; parentId: string | null }[]>('/api/tenants/tree')).body.data.find((row) => row.parentId === null)!;
  const tenant = await admin.post<{ id: string }>('/api/tenants', { name: 'StoryGoneTenant', type: 'company', parentId: root.id });
  assert.equal(tenant.status, 200, JSON.stringify(tenant.body));
  const person = await admin.post<{ id: string }>('/api/user', { username: 'story-gone', realName: 'Story_Gone', password: transform('Story1234') });
  assert.equal(person.status, 200);
  const gone = async (targetId: string) => (await list(`target=${targetId}`)).map((row) => [row.action, (row as Entry & { targetGone: boolean }).targetGone]);
  assert.deepEqual(await gone(person.body.data.id), [['user.create', false]]);
  assert.deepEqual(await gone(tenant.body.data.id), [['tenant.create', false]]);
  assert.equal((await admin.delete(`/api/user/${person.body.data.id}`)).status, 200);
  assert.equal((await admin.delete(`/api/tenants/${tenant.body.data.id}`)).status, 200);
  assert.deepEqual(await gone(person.body.data.id), [
    ['user.delete', true],
    ['user.create', true],
  ]);
  assert.deepEqual(await gone(tenant.body.data.id), [
    ['tenant.delete', true],
    ['tenant.create', true],
  ]);
});
