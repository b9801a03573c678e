// What a webhook receiver (often chosen by a tenant administrator) can do to the rest of the
// service, and what a webhook carries: a receiver that never answers must not hold up other
// tenants' deliveries or the sign-in and reset codes the same outbox sends; a receiver answering
// 3xx to an internal address is not followed; a burst of 8 creates of one username leaves one
// record and one delivery; a refused call leaves neither; no signing secret or SCIM token reaches
// the audit log or a delivery's payload. Real receivers on 127.0.0.1 (private targets allowed).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ADMIN_PROOF, ok, startServer, transform, type Client, type TestServer } from './harness';
import {
  arrivesWhileHeld,
  smsChannel,
  startHttpReceiver,
  startTarpit,
  startWebhookReceiver,
  until,
  type HttpReceiver,
  type WebhookReceiver,
} from './receivers';
import { createTenant } from './scim-support';

const PASSWORD = 'Hooks1234';
let server: TestServer;
let admin: Client;
let receiver: WebhookReceiver;
let sms: HttpReceiver;
let serial = 0;

before(async () => {
  [server, receiver, sms] = await Promise.all([
    startServer({ outboundAllowPrivate: true }),
    startWebhookReceiver(),
    startHttpReceiver({ robotToken: 'robot', dingTalkSecret: 'ding' }),
  ]);
  admin = await server.admin();
  await ok(admin.post('/api/channels', smsChannel(sms)), 'sms channel');
});
after(async () => {
  await Promise.all([server.stop(), sms.stop(), new Promise((resolve) => receiver.server.close(resolve))]);
});

async function tenantAdministrator(tenantId: string): Promise<Client> {
  const username = `hook-boss-${++serial}`;
  await ok(admin.post('/api/user', { username, realName: 'Hook_Boss', password: transform(PASSWORD), tenantId, isAdmin: true }), username);
  const client = server.client();
  assert.equal((await client.login(username, PASSWORD)).body.data?.loginSuccess, true);
  return client;
}

const auditCount = async (action: string) =>
  Number(
    (
      await server.app.ctx.db
        .selectFrom('auditLog')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('action', '=', action)
        .executeTakeFirstOrThrow()
    ).n,
  );
const deliveriesOf = async (eventType: string) =>
  server.app.ctx.db.selectFrom('webhookDeliveries').select(['payload']).where('eventType', '=', eventType).execute();

describe('a receiver that never answers', () => {
  test("a tenant administrator's endpoints that never answer do not hold up another person's SMS password-reset code", async () => {
    const tarpit = await startTarpit();
    try {
      const tenant = await createTenant(admin, `Hook_Tarpit_${++serial}`);
      const boss = await tenantAdministrator(tenant.id);
      // Four endpoints of the tenant's own (the outbox posts four at a time), each taking its events.
      for (let at = 1; at <= 4; at++) await ok(boss.post('/api/webhooks', { url: `${tarpit.url}/${at}`, events: ['user.created'] }), `endpoint ${at}`);
      await ok(boss.post('/api/user', { username: `hook-member-${++serial}`, realName: 'Hook_Member', password: transform(PASSWORD) }), 'member');
      await until(() => tarpit.held.length >= 4, 'the four posts reach the tarpit');
      // Meanwhile someone else, in another tenant, asks for a reset code by SMS.
      const phone = '13900007070';
      await ok(
        admin.post('/api/user', { username: `hook-phone-${++serial}`, realName: 'Hook_Phone', password: transform(PASSWORD), mobilePhone: phone }),
        'person',
      );
      const asked = await server.client().post('/api/user/password/reset-code', { identifier: phone });
      assert.equal(asked.status, 200, JSON.stringify(asked.body));
      await arrivesWhileHeld(
        tarpit,
        () => sms.calls.find((call) => JSON.stringify(call.body).includes(phone)),
        'the reset code by SMS',
        "the one outbox worker waits on the tenant's four silent webhook posts (10 s each) before it sends sign-in and reset codes",
      );
    } finally {
      await tarpit.stop();
    }
  });

  test('a platform endpoint gets its event while a tenant’s four endpoints hang', async () => {
    const tarpit = await startTarpit();
    try {
      const tenant = await createTenant(admin, `Hook_Tarpit_${++serial}`);
      const boss = await tenantAdministrator(tenant.id);
      for (let at = 1; at <= 4; at++) await ok(boss.post('/api/webhooks', { url: `${tarpit.url}/p${at}`, events: ['user.created'] }), `endpoint ${at}`);
      await ok(admin.post('/api/webhooks', { url: `${receiver.url}/platform-${serial}`, events: ['user.created'] }), 'platform endpoint');
      const first = await ok(
        boss.post<{ id: string }>('/api/user', { username: `hook-member-${++serial}`, realName: 'Hook_Member', password: transform(PASSWORD) }),
        'member',
      );
      await until(() => tarpit.held.length >= 4, 'the four posts reach the tarpit');
      const second = await ok(
        admin.post<{ id: string }>('/api/user', { username: `hook-other-${++serial}`, realName: 'Hook_Other', password: transform(PASSWORD) }),
        'other',
      );
      await arrivesWhileHeld(
        tarpit,
        () => receiver.posts.find((post) => post.body.includes(second.id)),
        `the platform delivery about ${second.id} (first ${first.id})`,
        "one tenant's hanging receivers stall every endpoint",
      );
    } finally {
      await tarpit.stop();
    }
  });

  test("a tenant's sixteen endpoints that never answer get four posts under way at once, and a platform endpoint still gets its events", async () => {
    const tarpit = await startTarpit();
    try {
      const tenant = await createTenant(admin, `Hook_Tarpit_${++serial}`);
      const boss = await tenantAdministrator(tenant.id);
      // As many endpoints as the process has posts under way at once: without a cap per tenant they would take them all.
      for (let at = 1; at <= 16; at++) await ok(boss.post('/api/webhooks', { url: `${tarpit.url}/s${at}`, events: ['user.created'] }), `endpoint ${at}`);
      await ok(admin.post('/api/webhooks', { url: `${receiver.url}/slots-${serial}`, events: ['user.created'] }), 'platform endpoint');
      await ok(boss.post('/api/user', { username: `hook-member-${++serial}`, realName: 'Hook_Member', password: transform(PASSWORD) }), 'member');
      await until(() => tarpit.held.length >= 4, 'four posts reach the tarpit');
      const other = await ok(
        admin.post<{ id: string }>('/api/user', { username: `hook-other-${++serial}`, realName: 'Hook_Other', password: transform(PASSWORD) }),
        'other',
      );
      await arrivesWhileHeld(
        tarpit,
        () => receiver.posts.find((post) => post.body.includes(other.id)),
        `the platform delivery about ${other.id}`,
        "one tenant's sixteen hanging receivers took every post slot",
      );
      assert.equal(tarpit.held.length, 4, 'posts under way to one tenant’s endpoints');
    } finally {
      await tarpit.stop();
    }
  });
});

describe('redirects', () => {
  test('a receiver answering 307 to another internal address: the redirect is not followed and the attempt fails', async () => {
    const inside = await startWebhookReceiver();
    const redirector = createServer((req, res) => {
      req.resume();
      res.writeHead(307, { location: `${inside.url}/internal-admin` }).end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/hook`;
      const hook = await ok(admin.post<{ id: string }>('/api/webhooks', { url, events: ['user.created'] }), 'endpoint');
      const tested = await ok(admin.post<{ status: string; attemptLog: { statusCode: number | null }[] }>(`/api/webhooks/${hook.id}/test`), 'send test');
      assert.equal(tested.status, 'failed');
      assert.equal(tested.attemptLog[0]?.statusCode, 307);
      assert.equal(inside.posts.length, 0, 'the redirect target was posted to');
      await ok(admin.delete(`/api/webhooks/${hook.id}`), 'remove endpoint');
    } finally {
      redirector.closeAllConnections();
      await Promise.all([new Promise((resolve) => redirector.close(resolve)), new Promise((resolve) => inside.server.close(resolve))]);
    }
  });
});

describe('one change, one record, one delivery', () => {
  test('a burst of 8 creates of one username: one user, one user.create record, one user.created delivery per endpoint', async () => {
    const hook = await ok(admin.post<{ id: string }>('/api/webhooks', { url: `${receiver.url}/burst`, events: ['user.created'] }), 'endpoint');
    const username = `hook-burst-${++serial}`;
    const recordsBefore = await auditCount('user.create');
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => admin.post('/api/user', { username, realName: 'Hook_Burst', password: transform(PASSWORD) })),
    );
    assert.equal(answers.filter((answer) => answer.status === 200).length, 1, answers.map((answer) => answer.status).join(','));
    assert.equal((await auditCount('user.create')) - recordsBefore, 1);
    const mine = (await server.app.ctx.db.selectFrom('webhookDeliveries').select('payload').where('webhookId', '=', hook.id).execute()).filter((row) =>
      row.payload.includes(`"username":"${username}"`),
    );
    assert.equal(mine.length, 1);
    await ok(admin.delete(`/api/webhooks/${hook.id}`), 'remove endpoint');
  });

  test('a refused create (validation error) and a refused delete (404) leave no record and no delivery', async () => {
    const hook = await ok(
      admin.post<{ id: string }>('/api/webhooks', { url: `${receiver.url}/refused`, events: ['user.created', 'user.deleted'] }),
      'endpoint',
    );
    const [creates, deletes] = [await auditCount('user.create'), await auditCount('user.delete')];
    assert.equal((await admin.post('/api/user', { username: 'x', realName: '' })).status, 400);
    assert.equal((await admin.delete('/api/user/00000000-0000-4000-8000-00000000dead')).status, 404);
    assert.equal(await auditCount('user.create'), creates);
    assert.equal(await auditCount('user.delete'), deletes);
    assert.equal((await server.app.ctx.db.selectFrom('webhookDeliveries').select('id').where('webhookId', '=', hook.id).execute()).length, 0);
    await ok(admin.delete(`/api/webhooks/${hook.id}`), 'remove endpoint');
  });
});

describe('secrets', () => {
  test('no webhook signing secret or SCIM token reaches the audit log or a delivery payload', async () => {
    const created = await ok(
      admin.post<{ id: string; secret: string }>('/api/webhooks', { url: `${receiver.url}/secret?token=receiver-path-secret`, events: ['tenant.created'] }),
      'endpoint',
    );
    const rotated = await ok(admin.post<{ secret: string }>(`/api/webhooks/${created.id}/secret`), 'rotate');
    const tenant = await createTenant(admin, `Hook_Secret_${++serial}`);
    const token = await ok(admin.post<{ secret: string }>('/api/scim-tokens', { tenantId: tenant.id, name: 'Secret probe', ...ADMIN_PROOF }), 'token');
    const audit = JSON.stringify(await server.app.ctx.db.selectFrom('auditLog').selectAll().execute());
    const payloads = JSON.stringify(await deliveriesOf('tenant.created'));
    for (const [what, secret] of [
      ['signing secret', created.secret],
      ['rotated secret', rotated.secret],
      ['SCIM token', token.secret],
      ['receiver URL secret', 'receiver-path-secret'],
    ] as const) {
      assert.ok(!audit.includes(secret), `${what} in the audit log`);
      assert.ok(!payloads.includes(secret), `${what} in a delivery payload`);
    }
  });
});
