// Webhooks an operator can trust, against a real receiver on 127.0.0.1 (test/server/receivers.ts):
// any delivery can be sent again, as a new delivery with the same payload and webhook-id (so the
// receiver drops the copy), within the caller's tenant scope only; events raised while an endpoint
// is disabled wait, queued, and are posted once it is enabled again; `user.*` events name the
// person (id and username), a sign-out included.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook as Verifier } from 'standardwebhooks';
import { startServer, transform, type Client, type TestServer } from './harness';
import { startWebhookReceiver, until, type WebhookReceiver } from './receivers';
import type { PagedList } from '../../src/core/types';
import type { Webhook, WebhookDelivery } from '../../src/core/schemas/webhooks';

const PASSWORD = 'Redeliver1234';
let server: TestServer;
let admin: Client;
let receiver: WebhookReceiver;
let rootId: string;
let serial = 0;

async function ok<T>(answer: Promise<{ status: number; body: { data: T } }>, what: string): Promise<T> {
  const { status, body } = await answer;
  assert.equal(status, 200, `${what}: ${JSON.stringify(body)}`);
  return body.data;
}

const createHook = (client: Client, fields: Record<string, unknown>) =>
  ok(client.post<Webhook & { secret: string }>('/api/webhooks', fields), 'create webhook');

async function createUser(tenantId: string, fields: Record<string, unknown> = {}) {
  const username = `redeliver-${++serial}`;
  const user = await ok(
    admin.post<{ id: string }>('/api/user', { username, realName: 'Redeliver_User', password: transform(PASSWORD), tenantId, ...fields }),
    username,
  );
  return { ...user, username };
}

const deliveries = async (client: Client, id: string) =>
  (await ok(client.get<PagedList<WebhookDelivery>>(`/api/webhooks/${id}/deliveries?size=100`), 'deliveries')).list;
const postsTo = (path: string) => receiver.posts.filter((post) => post.path === path);
const redeliver = (client: Client, hookId: string, deliveryId: string) =>
  client.post<WebhookDelivery>(`/api/webhooks/${hookId}/deliveries/${deliveryId}/redeliver`);

before(async () => {
  server = await startServer({ outboundAllowPrivate: true });
  admin = await server.admin();
  receiver = await startWebhookReceiver();
  rootId = (await ok(admin.get<{ id: string; parentId: string | null }[]>('/api/tenants/tree'), 'tree')).find((row) => row.parentId === null)!.id;
});
after(async () => {
  await server.stop();
  await new Promise((resolve) => receiver.server.close(resolve));
});

test('a delivery is sent again with the same payload and webhook-id, as a new logged and audited delivery', async () => {
  const hook = await createHook(admin, { url: `${receiver.url}/again`, events: ['user.created'] });
  await createUser(rootId);
  const [original] = await until(async () => {
    const list = await deliveries(admin, hook.id);
    return list[0]?.status === 'delivered' ? list : undefined;
  }, 'the first delivery');

  const again = await ok(redeliver(admin, hook.id, original!.id), 'redeliver');
  assert.notEqual(again.id, original!.id, 'a new delivery');
  assert.deepEqual(
    [again.status, again.attempts, again.eventType, again.payload, again.messageId],
    ['delivered', 1, 'user.created', original!.payload, original!.messageId],
  );
  const posts = postsTo('/again');
  assert.equal(posts.length, 2);
  assert.equal(posts[1]!.headers['webhook-id'], posts[0]!.headers['webhook-id'], 'the receiver can drop the copy');
  assert.equal(posts[1]!.body, posts[0]!.body);
  new Verifier(hook.secret).verify(posts[1]!.body, posts[1]!.headers as Record<string, string>);
  assert.deepEqual(
    (await deliveries(admin, hook.id)).map((item) => item.id),
    [again.id, original!.id],
    'both are in the log',
  );
  const audit = await ok(admin.get<PagedList<{ action: string; detail: Record<string, unknown> }>>('/api/audit?action=webhook.redeliver&size=10'), 'audit');
  assert.ok(
    audit.list.some((item) => item.detail.delivery === original!.id),
    JSON.stringify(audit.list),
  );

  // A failed delivery (a test event has one attempt) can be sent again too.
  receiver.statuses['/again'] = [500];
  const failed = await ok(admin.post<WebhookDelivery>(`/api/webhooks/${hook.id}/test`), 'failing test');
  assert.equal(failed.status, 'failed');
  const retried = await ok(redeliver(admin, hook.id, failed.id), 'redeliver the failed test');
  assert.deepEqual([retried.status, retried.messageId, retried.attemptLog[0]!.statusCode], ['delivered', failed.messageId, 200]);
});

test("another tenant's administrator cannot redeliver, nor reach a delivery through their own endpoint", async () => {
  const tenant = (name: string) => ok(admin.post<{ id: string }>('/api/tenants', { parentId: rootId, name, type: 'company' }), name);
  const east = await tenant('Redeliver_East');
  const west = await tenant('Redeliver_West');
  const eastAdmin = await createUser(east.id, { isAdmin: true });
  const westAdmin = await createUser(west.id, { isAdmin: true });
  const eastClient = server.client();
  await eastClient.login(eastAdmin.username, PASSWORD);
  const westClient = server.client();
  await westClient.login(westAdmin.username, PASSWORD);
  const eastHook = await createHook(eastClient, { url: `${receiver.url}/east`, events: ['user.created'] });
  const westHook = await createHook(westClient, { url: `${receiver.url}/west`, events: ['user.created'] });
  const westDelivery = await ok(westClient.post<WebhookDelivery>(`/api/webhooks/${westHook.id}/test`), 'west test');
  const eastDelivery = await ok(eastClient.post<WebhookDelivery>(`/api/webhooks/${eastHook.id}/test`), 'east test');
  const before = receiver.posts.length;

  assert.equal((await redeliver(eastClient, westHook.id, westDelivery.id)).status, 404, "another tenant's endpoint");
  assert.equal((await redeliver(eastClient, eastHook.id, westDelivery.id)).status, 404, "another tenant's delivery under my endpoint");
  assert.equal((await redeliver(eastClient, eastHook.id, '00000000-0000-4000-8000-000000000000')).status, 404, 'an unknown delivery');
  assert.equal(receiver.posts.length, before, 'nothing was posted');
  assert.equal((await deliveries(westClient, westHook.id)).length, 1, "nothing was added to the other tenant's log");
  // Their own delivery is theirs to send again.
  assert.equal((await ok(redeliver(eastClient, eastHook.id, eastDelivery.id), 'own redeliver')).status, 'delivered');
});

test('events raised while an endpoint is disabled wait, queued, and are posted once it is enabled again', async () => {
  const hook = await createHook(admin, { url: `${receiver.url}/paused`, events: ['user.created'], enabled: false });
  const witness = await createHook(admin, { url: `${receiver.url}/awake`, events: ['user.created'] });
  const missed = await createUser(rootId);
  await until(() => postsTo('/awake').some((post) => post.body.includes(missed.id)), 'the witness post');
  const waiting = await deliveries(admin, hook.id);
  assert.deepEqual(
    waiting.map((item) => [item.status, item.attempts]),
    [['queued', 0]],
  );
  assert.equal(postsTo('/paused').length, 0, 'nothing posted while disabled');
  // Sent again while disabled: queued too.
  const again = await ok(redeliver(admin, hook.id, waiting[0]!.id), 'redeliver while disabled');
  assert.deepEqual([again.status, again.attempts], ['queued', 0]);

  await ok(admin.put(`/api/webhooks/${hook.id}`, { enabled: true, version: hook.version }), 'enable');
  const posts = await until(() => (postsTo('/paused').length === 2 ? postsTo('/paused') : undefined), 'both posted after enabling');
  assert.ok(posts.every((post) => post.body.includes(missed.id)));
  assert.equal(posts[0]!.headers['webhook-id'], posts[1]!.headers['webhook-id']);
  await until(async () => (await deliveries(admin, hook.id)).every((item) => item.status === 'delivered'), 'both delivered');
  await ok(admin.delete(`/api/webhooks/${witness.id}`), 'remove the witness');
});

test('user.* events name the person: a sign-out carries the user id and username, not only the session', async () => {
  const hook = await createHook(admin, { url: `${receiver.url}/people`, events: ['user.signed_in', 'user.signed_out', 'user.created'] });
  const person = await createUser(rootId);
  const client = server.client();
  await client.login(person.username, PASSWORD);
  assert.equal((await client.get('/api/cas/logout')).status < 400, true, 'signed out');
  const events = await until(() => {
    const found = postsTo('/people').map(
      (post) =>
        new Verifier(hook.secret).verify(post.body, post.headers as Record<string, string>) as {
          type: string;
          data: { user?: unknown; target: { type: string } };
        },
    );
    return found.some((event) => event.type === 'user.signed_out') ? found : undefined;
  }, 'the user.signed_out post');
  const byType = (type: string) => events.find((event) => event.type === type)!;
  assert.equal(byType('user.signed_out').data.target.type, 'session');
  for (const type of ['user.signed_out', 'user.signed_in']) assert.deepEqual(byType(type).data.user, { id: person.id, username: person.username }, type);
  assert.deepEqual((byType('user.created').data.user as { id: string }).id, person.id);
});
