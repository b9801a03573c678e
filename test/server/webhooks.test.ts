// Outbound webhooks: a receiver on 127.0.0.1 (the server started with private targets allowed)
// checks every post with standardwebhooks' own Webhook.verify; a failing receiver (500, then 200)
// gets the event again after the backoff, and a delivery that keeps failing is given up after its
// attempts; "send test" answers the outcome; a tenant administrator's endpoint receives only its
// subtree's events and reaches no other endpoint; a server without the allow setting refuses
// loopback, private and link-local endpoints when saving and when sending.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook as Verifier } from 'standardwebhooks';
import { startServer, transform, type Client, type TestServer } from './harness';
import { startWebhookReceiver as startReceiver, until, type WebhookReceiver as Receiver } from './receivers';
import type { PagedList } from '../../src/core/types';
import type { Webhook, WebhookDelivery } from '../../src/core/schemas/webhooks';

const PASSWORD = 'Hooks1234';
let server: TestServer;
let admin: Client;
let receiver: Receiver;
let rootId: string;
let serial = 0;

async function ok<T>(answer: Promise<{ status: number; body: { data: T } }>, what: string): Promise<T> {
  const { status, body } = await answer;
  assert.equal(status, 200, `${what}: ${JSON.stringify(body)}`);
  return body.data;
}

const createHook = (client: Client, fields: Record<string, unknown>) =>
  ok(client.post<Webhook & { secret: string }>('/api/webhooks', fields), 'create webhook');

async function createUser(tenantId: string | undefined, fields: Record<string, unknown> = {}) {
  const username = `hook-user-${++serial}`;
  const user = await ok(
    admin.post<{ id: string; version: number }>('/api/user', { username, realName: 'Hook_User', password: transform(PASSWORD), tenantId, ...fields }),
    username,
  );
  return { ...user, username };
}

/** The posts to `path` whose event is about `targetId`. */
const postsAbout = (path: string, targetId: string) =>
  receiver.posts.filter((post) => post.path === path && (JSON.parse(post.body) as { data: { target?: { id?: string } } }).data.target?.id === targetId);

const deliveries = async (client: Client, id: string) =>
  (await ok(client.get<PagedList<WebhookDelivery>>(`/api/webhooks/${id}/deliveries?size=100`), 'deliveries')).list;

/** How long `delivery` waits after its attempt `index` ended (the backoff runs from the end: a
 *  post slowed by a loaded machine does not count towards it). */
const waitAfter = (delivery: WebhookDelivery, index: number) => {
  const attempt = delivery.attemptLog[index]!;
  return delivery.nextAttemptAt! - (attempt.at + attempt.durationMs);
};

before(async () => {
  // The receiver listens on 127.0.0.1: this server's operator allows private targets.
  server = await startServer({ outboundAllowPrivate: true });
  admin = await server.admin();
  receiver = await startReceiver();
  rootId = (await ok(admin.get<{ id: string; parentId: string | null }[]>('/api/tenants/tree'), 'tree')).find((row) => row.parentId === null)!.id;
});
after(async () => {
  await server.stop();
  await new Promise((resolve) => receiver.server.close(resolve));
});

describe('signed deliveries', () => {
  test('an event reaches the endpoint signed per Standard Webhooks; the log shows the attempt', async () => {
    const hook = await createHook(admin, { url: `${receiver.url}/created`, events: ['user.created', 'user.disabled'], description: 'Directory sync' });
    assert.match(hook.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(hook.tenantId, null, 'a platform endpoint by default');
    const read = await ok(admin.get<Record<string, unknown>>(`/api/webhooks/${hook.id}`), 'read');
    assert.ok(!JSON.stringify(read).includes(hook.secret.slice(6)), 'the secret is answered once only');

    const user = await createUser(rootId);
    const [post] = await until(() => (postsAbout('/created', user.id).length ? postsAbout('/created', user.id) : undefined), 'the user.created post');
    const event = new Verifier(hook.secret).verify(post!.body, post!.headers as Record<string, string>) as {
      type: string;
      data: { action: string; actor: { username: string }; target: { type: string } };
    };
    assert.equal(event.type, 'user.created');
    assert.equal(event.data.actor.username, 'admin');
    assert.deepEqual([event.data.action, event.data.target.type], ['user.create', 'user']);
    assert.match(String(post!.headers['webhook-id']), /^msg_[0-9a-f]{32}$/);
    assert.equal(post!.headers['content-type'], 'application/json');
    // A forged body does not verify.
    assert.throws(() => new Verifier(hook.secret).verify(post!.body.replace('user.created', 'user.deleted'), post!.headers as Record<string, string>));

    // Disabling a person is also user.disabled (user.updated is not chosen here).
    await ok(admin.put(`/api/user/${user.id}`, { availabilityStatus: 2, version: user.version }), 'disable');
    const disabled = await until(() => postsAbout('/created', user.id).find((item) => item.body.includes('"user.disabled"')), 'the user.disabled post');
    assert.equal((new Verifier(hook.secret).verify(disabled.body, disabled.headers as Record<string, string>) as { type: string }).type, 'user.disabled');

    const log = await until(async () => {
      const list = await deliveries(admin, hook.id);
      return list.filter((item) => item.status === 'delivered').length === 2 ? list : undefined;
    }, 'two delivered');
    const first = log.find((item) => item.eventType === 'user.created')!;
    assert.equal(first.attempts, 1);
    assert.equal(first.attemptLog[0]!.statusCode, 200);
    assert.equal(first.attemptLog[0]!.answer, 'thanks');
    assert.equal(first.messageId, post!.headers['webhook-id']);
  });

  test('a failing endpoint gets the event again after the backoff, with the same webhook-id', async () => {
    const hook = await createHook(admin, { url: `${receiver.url}/flaky`, events: ['user.created'] });
    receiver.statuses['/flaky'] = [500];
    const user = await createUser(rootId);
    await until(() => postsAbout('/flaky', user.id).length === 1, 'the first attempt');
    const [waiting] = await until(async () => {
      const list = await deliveries(admin, hook.id);
      return list[0]?.status === 'queued' && list[0].attemptLog.length === 1 ? list : undefined;
    }, 'the failed first attempt logged');
    const attempt = waiting!.attemptLog[0]!;
    assert.equal(attempt.statusCode, 500);
    assert.equal(attempt.errorCode, 'httpStatus');
    assert.equal(attempt.error, 'HTTP 500');
    assert.ok(attempt.answer!.startsWith('down for maintenance') && attempt.answer!.length === 1000, 'the answer excerpt is bounded');
    // The first retry waits 10 s from the attempt's end (the outbox polls every second: nothing is sent before).
    assert.equal(Math.round(waitAfter(waiting!, 0) / 1000), 10, `next attempt ${waitAfter(waiting!, 0)} ms after the first ended`);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assert.equal(postsAbout('/flaky', user.id).length, 1, 'not retried before the backoff');
    server.clock.advance(11_000);
    const posts = await until(() => (postsAbout('/flaky', user.id).length === 2 ? postsAbout('/flaky', user.id) : undefined), 'the retry');
    assert.equal(posts[1]!.headers['webhook-id'], posts[0]!.headers['webhook-id']);
    new Verifier(hook.secret).verify(posts[1]!.body, posts[1]!.headers as Record<string, string>);
    const [done] = await until(async () => {
      const list = await deliveries(admin, hook.id);
      return list[0]?.status === 'delivered' ? list : undefined;
    }, 'delivered on the second attempt');
    assert.deepEqual(
      done!.attemptLog.map((item) => item.statusCode),
      [500, 200],
    );
    assert.equal(done!.attempts, 2);
  });

  test('send test posts a signed webhook.test now and answers its outcome; a rotated secret signs beside the old one', async () => {
    const hook = await createHook(admin, { url: `${receiver.url}/test`, events: ['app.created'] });
    const delivery = await ok(admin.post<WebhookDelivery>(`/api/webhooks/${hook.id}/test`), 'send test');
    assert.equal(delivery.status, 'delivered');
    assert.equal(delivery.eventType, 'webhook.test');
    assert.equal(delivery.attemptLog[0]!.statusCode, 200);
    const post = receiver.posts.find((item) => item.path === '/test')!;
    assert.equal((new Verifier(hook.secret).verify(post.body, post.headers as Record<string, string>) as { type: string }).type, 'webhook.test');

    const { secret } = await ok(admin.post<{ secret: string }>(`/api/webhooks/${hook.id}/secret`), 'rotate');
    assert.notEqual(secret, hook.secret);
    await ok(admin.post(`/api/webhooks/${hook.id}/test`), 'send test again');
    const second = receiver.posts.filter((item) => item.path === '/test')[1]!;
    assert.equal(String(second.headers['webhook-signature']).split(' ').length, 2, 'two signatures while the old secret is honoured');
    new Verifier(secret).verify(second.body, second.headers as Record<string, string>);
    new Verifier(hook.secret).verify(second.body, second.headers as Record<string, string>);

    // A failing test is answered as failed, with no retry.
    receiver.statuses['/test'] = [500];
    const failed = await ok(admin.post<WebhookDelivery>(`/api/webhooks/${hook.id}/test`), 'failing test');
    assert.deepEqual([failed.status, failed.attemptLog[0]!.statusCode, failed.nextAttemptAt], ['failed', 500, null]);
  });

  test('a disabled endpoint gets nothing; edits are versioned', async () => {
    const hook = await createHook(admin, { url: `${receiver.url}/off`, events: ['user.created'], enabled: false });
    const user = await createUser(rootId);
    await createHook(admin, { url: `${receiver.url}/witness`, events: ['user.created'] });
    const later = await createUser(rootId);
    await until(() => postsAbout('/witness', later.id).length, 'a witness post');
    assert.equal(receiver.posts.filter((post) => post.path === '/off').length, 0);
    // Its events wait, queued and never attempted, until it is enabled again (webhook-redelivery.test.ts).
    assert.deepEqual(
      (await deliveries(admin, hook.id)).map((item) => [item.status, item.attempts]),
      [
        ['queued', 0],
        ['queued', 0],
      ],
    );
    const saved = await ok(
      admin.put<Webhook>(`/api/webhooks/${hook.id}`, { enabled: true, events: ['user.created', 'user.deleted'], version: hook.version }),
      'enable',
    );
    assert.deepEqual([saved.enabled, saved.events, saved.version], [true, ['user.created', 'user.deleted'], 2]);
    assert.equal((await admin.put(`/api/webhooks/${hook.id}`, { enabled: false, version: hook.version })).status, 409);
    await ok(admin.delete(`/api/user/${user.id}`), 'delete user');
    await until(() => postsAbout('/off', user.id).find((post) => post.body.includes('"user.deleted"')), 'user.deleted');
  });

  test("a person's roles set: user.roles_changed names the roles added and removed; a save that changes nothing is no event", async () => {
    const hook = await createHook(admin, { url: `${receiver.url}/roles`, events: ['user.roles_changed'] });
    const app = await ok(admin.post<{ id: string }>('/api/apps', { name: `Hook_Roles_${++serial}`, entrypoint: `/hook-roles-${serial}` }), 'app');
    const role = (name: string) => ok(admin.post<{ id: string; name: string }>(`/api/apps/${app.id}/roles`, { name }), name);
    const reader = await role('Hook_Reader');
    const writer = await role('Hook_Writer');
    const user = await createUser(rootId);
    for (const roles of [[reader], [writer], [writer], []]) {
      await ok(admin.put(`/api/user/${user.id}/roles/${app.id}`, { roleIds: roles.map((held) => held.id) }), 'set roles');
    }
    // The deliveries are queued with the records: the third save (nothing changed) queued none.
    assert.equal((await deliveries(admin, hook.id)).length, 3);
    const posts = await until(() => (postsAbout('/roles', user.id).length === 3 ? postsAbout('/roles', user.id) : undefined), 'three posts');
    const named = ({ id, name }: { id: string; name: string }) => ({ id, name });
    // Compared in any order (deliveries queued in one millisecond go out in id order).
    const sorted = (changes: unknown[]) => changes.map((change) => JSON.stringify(change)).sort();
    assert.deepEqual(
      sorted(posts.map((post) => (JSON.parse(post.body) as { data: { detail: { roles: unknown } } }).data.detail.roles)),
      sorted([
        { added: [named(reader)], removed: [] },
        { added: [named(writer)], removed: [named(reader)] },
        { added: [], removed: [named(writer)] },
      ]),
    );
  });

  test('bad input is a 400 naming the field', async () => {
    for (const [body, field] of [
      [{ url: 'ftp://example.com/x', events: ['user.created'] }, 'url'],
      [{ url: 'https://user:pw@example.com/x', events: ['user.created'] }, 'url'],
      [{ url: 'https://example.com/x#part', events: ['user.created'] }, 'url'],
      [{ url: `https://example.com/${'x'.repeat(2001)}`, events: ['user.created'] }, 'url'],
      [{ url: 'https://93.184.216.34/x', events: [] }, 'events'],
      [{ url: 'https://93.184.216.34/x', events: ['user.exploded'] }, 'events'],
      [{ url: 'https://93.184.216.34/x', events: 'user.created' }, 'events'],
    ] as const) {
      const answer = await admin.post<{ fields: { field: string }[] }>('/api/webhooks', body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.ok(
        answer.body.data.fields.some((item) => item.field.startsWith(field)),
        `${JSON.stringify(body)} → ${JSON.stringify(answer.body.data)}`,
      );
    }
  });
});

describe('tenant scope', () => {
  test("a tenant administrator's endpoint receives its subtree's events only and reaches no other endpoint", async () => {
    const tenant = (name: string, parentId = rootId) => ok(admin.post<{ id: string }>('/api/tenants', { parentId, name, type: 'company' }), name);
    const north = await tenant('Hook_North');
    const northEast = await tenant('Hook_North_East', north.id);
    const south = await tenant('Hook_South');
    await createUser(north.id, { isAdmin: true, username: 'hook-north-admin' });
    await createUser(south.id, { isAdmin: true, username: 'hook-south-admin' });
    const northAdmin = server.client();
    await northAdmin.login('hook-north-admin', PASSWORD);
    const southAdmin = server.client();
    await southAdmin.login('hook-south-admin', PASSWORD);

    // Without a tenant, a tenant administrator's endpoint is their own tenant's; never another's or the platform's.
    const northHook = await createHook(northAdmin, { url: `${receiver.url}/north`, events: ['user.created', 'user.updated'], tenantId: null });
    assert.equal(northHook.tenantId, north.id);
    assert.equal((await northAdmin.post('/api/webhooks', { url: `${receiver.url}/x`, events: ['user.created'], tenantId: south.id })).status, 404);
    const southHook = await createHook(southAdmin, { url: `${receiver.url}/south`, events: ['user.created'] });
    const platformHook = await createHook(admin, { url: `${receiver.url}/platform`, events: ['user.created'] });

    const inNorthEast = await createUser(northEast.id);
    const inSouth = await createUser(south.id);
    await until(() => postsAbout('/platform', inNorthEast.id).length && postsAbout('/platform', inSouth.id).length, 'both at the platform endpoint');
    await until(() => postsAbout('/north', inNorthEast.id).length && postsAbout('/south', inSouth.id).length, 'each at its tenant endpoint');
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    assert.equal(postsAbout('/north', inSouth.id).length, 0, "the south's user never reaches the north's endpoint");
    assert.equal(postsAbout('/south', inNorthEast.id).length, 0);

    const listed = await ok(northAdmin.get<PagedList<Webhook>>('/api/webhooks'), 'north list');
    assert.deepEqual(
      listed.list.map((item) => item.id),
      [northHook.id],
    );
    for (const other of [southHook, platformHook]) {
      assert.equal((await northAdmin.get(`/api/webhooks/${other.id}`)).status, 404);
      assert.equal((await northAdmin.put(`/api/webhooks/${other.id}`, { enabled: false, version: 1 })).status, 404);
      assert.equal((await northAdmin.post(`/api/webhooks/${other.id}/test`)).status, 404);
      assert.equal((await northAdmin.post(`/api/webhooks/${other.id}/secret`)).status, 404);
      assert.equal((await northAdmin.get(`/api/webhooks/${other.id}/deliveries`)).status, 404);
      assert.equal((await northAdmin.delete(`/api/webhooks/${other.id}`)).status, 404);
    }
    assert.equal((await ok(admin.get<Webhook>(`/api/webhooks/${platformHook.id}`), 'still there')).enabled, true);
    // A member has no operations permission at all.
    const member = server.client();
    await createUser(north.id, { username: 'hook-north-member' });
    await member.login('hook-north-member', PASSWORD);
    assert.equal((await member.get('/api/webhooks')).status, 403);
  });
});

describe('outbound address check (no allow setting)', () => {
  let strict: TestServer;
  let strictAdmin: Client;
  before(async () => {
    strict = await startServer();
    strictAdmin = await strict.admin();
  });
  after(async () => {
    await strict.stop();
  });

  test('loopback, private and link-local endpoints are refused when saving', async () => {
    for (const url of [
      receiver.url,
      'http://localhost:9/x',
      'http://[::1]/x',
      'http://10.0.0.8/x',
      'http://169.254.169.254/latest/meta-data',
      'http://[::ffff:127.0.0.1]/x',
      'http://0.0.0.0/x',
    ]) {
      const answer = await strictAdmin.post<{ fields: { field: string; rule: string }[] }>('/api/webhooks', { url, events: ['user.created'] });
      assert.equal(answer.status, 400, url);
      assert.deepEqual(answer.body.data.fields, [{ field: 'url', rule: 'rule.outboundUrl' }], url);
    }
    const saved = await createHook(strictAdmin, { url: 'https://93.184.216.34/public', events: ['user.created'] });
    assert.equal((await strictAdmin.put(`/api/webhooks/${saved.id}`, { url: `${receiver.url}/moved`, version: saved.version })).status, 400);
  });

  test('an endpoint whose address is refused when sending is not posted to, and not retried', async () => {
    const saved = await createHook(strictAdmin, { url: 'https://93.184.216.34/public', events: ['user.created'] });
    // As if its name had come to resolve to this machine since it was saved.
    await strict.app.ctx.db
      .updateTable('webhooks')
      .set({ url: `${receiver.url}/sneaky` })
      .where('id', '=', saved.id)
      .execute();
    const delivery = await ok(strictAdmin.post<WebhookDelivery>(`/api/webhooks/${saved.id}/test`), 'send test');
    assert.equal(delivery.status, 'failed');
    assert.equal(delivery.attemptLog[0]!.statusCode, null);
    assert.equal(delivery.attemptLog[0]!.errorCode, 'addressRefused');
    assert.match(delivery.attemptLog[0]!.error!, /not a public address/);
    assert.ok(!delivery.attemptLog[0]!.error!.includes('/sneaky'), 'the log never repeats the URL');
    assert.equal(receiver.posts.filter((post) => post.path === '/sneaky').length, 0);
  });
});

// Last: it moves this server's clock hours ahead (signatures made after it are not fresh any more).
describe('bounded attempts', () => {
  test('a delivery that keeps failing is given up after its attempts, each wait three times longer', async () => {
    const hook = await createHook(admin, { url: `${receiver.url}/down`, events: ['user.created'] });
    receiver.statuses['/down'] = Array<number>(20).fill(503);
    const user = await createUser(rootId);
    let waits: number[] = [];
    for (let attempt = 1; ; attempt++) {
      await until(() => postsAbout('/down', user.id).length === attempt, `attempt ${attempt}`);
      const [delivery] = await until(async () => {
        const list = await deliveries(admin, hook.id);
        return list[0]?.attemptLog.length === attempt && list[0].status !== 'sending' ? list : undefined;
      }, `attempt ${attempt} logged`);
      if (delivery!.status === 'failed') break;
      waits.push(waitAfter(delivery!, attempt - 1));
      server.clock.advance(delivery!.nextAttemptAt! - server.clock.now() + 1);
      // Hours pass: the administrator signs in again.
      admin = await server.admin();
    }
    waits = waits.map((wait) => Math.round(wait / 1000));
    assert.deepEqual(waits, [10, 30, 90, 270, 810, 2430, 7290]);
    const [failed] = await deliveries(admin, hook.id);
    assert.equal(failed!.attempts, 8);
    assert.equal(failed!.nextAttemptAt, null);
    server.clock.advance(24 * 60 * 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assert.equal(postsAbout('/down', user.id).length, 8, 'no attempt after the last');
  });
});
