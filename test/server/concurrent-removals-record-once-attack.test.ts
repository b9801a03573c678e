// A removal sent several times at once (a double click, a client's retry, two administrators) removes
// one thing once: one caller hears 200, the others 404 (or the idempotent answer of a revoke), and the
// audit log holds ONE record of it, with one webhook event. On PostgreSQL the rows are read before
// the change and the delete does not look at what it deleted, so every caller of a burst hears 200
// and writes its own record (and its own user.deleted delivery, each with a new webhook-id a
// receiver cannot deduplicate). Also: two secret rotations at once leave every answered secret
// signing (as the current or the previous one), not one the console showed and nothing accepts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook as Verifier } from 'standardwebhooks';
import { ADMIN_PROOF, ok, startServer, transform, type Answer, type Client, type TestServer } from './harness';
import { startWebhookReceiver, until, type WebhookReceiver } from './receivers';
import { createTenant, rootTenantId } from './scim-support';

const BURST = 8;
let server: TestServer;
let admin: Client;
let second: Client;
let receiver: WebhookReceiver;
let hookId: string;
let serial = 0;

before(async () => {
  [server, receiver] = await Promise.all([startServer({ outboundAllowPrivate: true }), startWebhookReceiver()]);
  admin = await server.admin();
  second = await server.admin();
  hookId = (
    await ok(admin.post<{ id: string }>('/api/webhooks', { url: `${receiver.url}/removals`, events: ['user.deleted', 'tenant.deleted', 'app.deleted'] }))
  ).id;
});
after(async () => {
  await Promise.all([server.stop(), new Promise((resolve) => receiver.server.close(resolve))]);
});

const recordsOf = (action: string, targetId: string) =>
  server.app.ctx.db.selectFrom('auditLog').select('id').where('action', '=', action).where('targetId', '=', targetId).execute();
const deliveriesAbout = async (eventType: string, targetId: string) =>
  (
    await server.app.ctx.db.selectFrom('webhookDeliveries').select('payload').where('webhookId', '=', hookId).where('eventType', '=', eventType).execute()
  ).filter((row) => row.payload.includes(targetId));

/** The same call sent BURST times at once, from two administrators' sessions. */
const burst = (call: (client: Client) => Promise<Answer>) => Promise.all(Array.from({ length: BURST }, (_, at) => call(at % 2 ? second : admin)));

function assertOneRemoval(answers: Answer[], records: unknown[], what: string, deliveries?: unknown[]) {
  const statuses = answers.map((answer) => answer.status).join(',');
  const events = deliveries ? `, ${deliveries.length} webhook deliveries` : '';
  assert.equal(records.length, 1, `${what}: ${records.length} audit records of one removal${events} (answers ${statuses})`);
  if (deliveries) assert.equal(deliveries.length, 1, `${what}: ${deliveries.length} webhook deliveries of one removal`);
  assert.equal(answers.filter((answer) => answer.status === 200).length, 1, `${what}: answers ${statuses}`);
  assert.ok(
    answers.every((answer) => answer.status === 200 || answer.status === 404),
    `${what}: answers ${statuses}`,
  );
}

describe(`a burst of ${BURST} removals of one thing`, () => {
  test('DELETE /api/user/{id}: one 200, one user.delete record, one user.deleted delivery', async () => {
    const user = await ok(
      admin.post<{ id: string }>('/api/user', { username: `removal-${++serial}`, realName: 'Removal_User', password: transform('Secret123') }),
    );
    const answers = await burst((client) => client.delete(`/api/user/${user.id}`));
    assertOneRemoval(answers, await recordsOf('user.delete', user.id), 'user', await deliveriesAbout('user.deleted', user.id));
  });

  test('DELETE /api/tenants/{id}: one 200, one tenant.delete record, one tenant.deleted delivery', async () => {
    const tenant = await createTenant(admin, `Removal_Tenant_${++serial}`);
    const answers = await burst((client) => client.delete(`/api/tenants/${tenant.id}`));
    assertOneRemoval(answers, await recordsOf('tenant.delete', tenant.id), 'tenant', await deliveriesAbout('tenant.deleted', tenant.id));
  });

  test('DELETE /api/apps/{id}: one 200, one app.delete record, one app.deleted delivery', async () => {
    const app = await ok(admin.post<{ id: string }>('/api/apps', { name: `Removal_App_${++serial}`, entrypoint: '/removal' }));
    const answers = await burst((client) => client.delete(`/api/apps/${app.id}`));
    assertOneRemoval(answers, await recordsOf('app.delete', app.id), 'app', await deliveriesAbout('app.deleted', app.id));
  });

  test('DELETE /api/webhooks/{id}: one 200, one webhook.delete record', async () => {
    const hook = await ok(admin.post<{ id: string }>('/api/webhooks', { url: `${receiver.url}/gone-${++serial}`, events: ['user.created'] }));
    const answers = await burst((client) => client.delete(`/api/webhooks/${hook.id}`));
    assertOneRemoval(answers, await recordsOf('webhook.delete', hook.id), 'webhook endpoint');
  });

  test('DELETE /api/scim-tokens/{id}: one scim_token.revoke record (a repeated revoke answers the revoked token)', async () => {
    const { token } = await ok(
      admin.post<{ token: { id: string } }>('/api/scim-tokens', { tenantId: await rootTenantId(admin), name: `Removal token ${++serial}`, ...ADMIN_PROOF }),
    );
    const answers = await burst((client) => client.delete(`/api/scim-tokens/${token.id}`));
    assert.ok(
      answers.every((answer) => answer.status === 200),
      answers.map((answer) => answer.status).join(','),
    );
    const records = await recordsOf('scim_token.revoke', token.id);
    assert.equal(records.length, 1, `${records.length} scim_token.revoke records of one revocation`);
  });
});

describe(`a burst of ${BURST} removals of one thing (more kinds)`, () => {
  test('DELETE /api/apps/{appId}/roles/{id}: one 200, one role.delete record', async () => {
    const app = await ok(admin.post<{ id: string }>('/api/apps', { name: `Removal_Roles_${++serial}`, entrypoint: '/roles' }));
    const role = await ok(admin.post<{ id: string }>(`/api/apps/${app.id}/roles`, { name: `Removal_Role_${serial}`, description: 'Removal role' }));
    const answers = await burst((client) => client.delete(`/api/apps/${app.id}/roles/${role.id}`));
    assertOneRemoval(answers, await recordsOf('role.delete', role.id), 'role');
  });

  test('DELETE /api/menu-plans/{id}: one 200, one menu.delete record', async () => {
    const app = await ok(admin.post<{ id: string }>('/api/apps', { name: `Removal_Menu_${++serial}`, entrypoint: '/menu' }));
    const plan = await ok(admin.post<{ id: string }>('/api/menu-plans', { appId: app.id, name: `Removal menu ${serial}`, items: [] }));
    const answers = await burst((client) => client.delete(`/api/menu-plans/${plan.id}`));
    assertOneRemoval(answers, await recordsOf('menu.delete', plan.id), 'menu plan');
  });

  test('DELETE /api/cas/sessions/{id} (a person ends one of their other sessions): one 200, one session.revoke record', async () => {
    const username = `removal-sessions-${++serial}`;
    await ok(admin.post('/api/user', { username, realName: 'Removal_Sessions', password: transform('Secret123') }));
    const [mine, other] = [server.client(), server.client()];
    await mine.login(username, 'Secret123');
    await other.login(username, 'Secret123');
    const target = (await ok(mine.get<{ id: string; current: boolean }[]>('/api/cas/sessions'))).find((session) => !session.current)!;
    const answers = await Promise.all(Array.from({ length: BURST }, () => mine.delete(`/api/cas/sessions/${target.id}`)));
    assertOneRemoval(answers, await recordsOf('session.revoke', target.id), 'session');
  });
});

describe(`a burst of ${BURST} creates of what there is one of`, () => {
  test('POST /api/menu-plans for one app: one plan (the others 400 rule.duplicate), one menu.create record', async () => {
    const app = await ok(admin.post<{ id: string }>('/api/apps', { name: `Burst_Menu_${++serial}`, entrypoint: '/burst' }));
    const answers = await burst((client) => client.post('/api/menu-plans', { appId: app.id, name: `Burst menu ${serial}`, items: [] }));
    const plans = await server.app.ctx.db.selectFrom('menuPlans').select('id').where('appId', '=', app.id).execute();
    assert.equal(
      plans.length,
      1,
      `${plans.length} menu plans for one app (answers ${answers.map((answer) => answer.status).join(',')}): which one the app gets is left to chance`,
    );
    assert.ok(answers.every((answer) => answer.status === 200 || answer.status === 400));
  });
});

describe('two secret rotations at once', () => {
  test('POST /api/webhooks/{id}/secret twice at once: each answered secret still signs (current or previous)', async () => {
    const hook = await ok(admin.post<{ id: string }>('/api/webhooks', { url: `${receiver.url}/rotated-${++serial}`, events: ['user.created'] }));
    const path = `/rotated-${serial}`;
    const answers = await Promise.all([admin, second].map((client) => ok(client.post<{ secret: string }>(`/api/webhooks/${hook.id}/secret`))));
    await ok(admin.post(`/api/webhooks/${hook.id}/test`));
    const post = await until(() => receiver.posts.find((item) => item.path === path), 'the test post');
    for (const { secret } of answers) {
      assert.doesNotThrow(
        () => new Verifier(secret).verify(post.body, post.headers as Record<string, string>),
        `a rotation answered ${secret.slice(0, 12)}…, which signs nothing: the console showed a secret the receiver can never verify`,
      );
    }
  });
});
