// Deleting a tenant takes with it what hangs on it by the database's cascades: its SCIM tokens (a
// credential a provisioning client holds) and its webhook endpoints (with their queued deliveries).
// Each of those removals is a change an auditor asks about ("who revoked Entra's token, and when?"):
// it is either refused while they exist or recorded as itself. And a tenant deleted while someone
// creates a person in it ends one way or the other, with a clear answer, never a 500.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PROOF, ok, startServer, transform, type Client, type TestServer } from './harness';
import { createTenant, scimClient, USER_SCHEMA } from './scim-support';

let server: TestServer;
let admin: Client;
let serial = 0;

before(async () => {
  server = await startServer({ outboundAllowPrivate: true });
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

const recordsAbout = (targetId: string) => server.app.ctx.db.selectFrom('auditLog').select(['action', 'targetId']).where('targetId', '=', targetId).execute();

test("deleting a tenant that holds a SCIM token: refused while the token exists, or the token's revocation is recorded", async () => {
  const tenant = await createTenant(admin, `Removal_Scim_${++serial}`);
  const { token, secret } = await ok(
    admin.post<{ token: { id: string }; secret: string }>('/api/scim-tokens', { tenantId: tenant.id, name: 'Entra job', ...ADMIN_PROOF }),
  );
  assert.equal((await scimClient(server.base, secret)('GET', '/Users')).status, 200);
  const removed = await admin.delete(`/api/tenants/${tenant.id}`);
  const tokenLeft = await server.app.ctx.db.selectFrom('scimTokens').select('id').where('id', '=', token.id).executeTakeFirst();
  if (removed.status === 200) {
    assert.equal(tokenLeft, undefined);
    const records = await recordsAbout(token.id);
    assert.ok(
      records.some((row) => row.action === 'scim_token.revoke'),
      `the tenant's delete (200) removed SCIM token ${token.id} by cascade with no record of its own: ${JSON.stringify(records)}`,
    );
  } else {
    assert.equal(removed.status, 409, JSON.stringify(removed.body));
    assert.ok(tokenLeft, 'a refused delete keeps the token');
  }
});

test("deleting a tenant that holds a webhook endpoint: refused while it exists, or the endpoint's removal is recorded", async () => {
  const tenant = await createTenant(admin, `Removal_Hook_${++serial}`);
  const hook = await ok(admin.post<{ id: string }>('/api/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['user.created'], tenantId: tenant.id }));
  const removed = await admin.delete(`/api/tenants/${tenant.id}`);
  const hookLeft = await server.app.ctx.db.selectFrom('webhooks').select('id').where('id', '=', hook.id).executeTakeFirst();
  if (removed.status === 200) {
    assert.equal(hookLeft, undefined);
    const records = await recordsAbout(hook.id);
    assert.ok(
      records.some((row) => row.action === 'webhook.delete'),
      `the tenant's delete (200) removed webhook endpoint ${hook.id} by cascade with no record of its own: ${JSON.stringify(records)}`,
    );
  } else {
    assert.equal(removed.status, 409, JSON.stringify(removed.body));
    assert.ok(hookLeft, 'a refused delete keeps the endpoint');
  }
});

test('a tenant deleted while a person is created in it (console and SCIM, 6 rounds): each call answers 200/201 or a 4xx, never 500, and no person is left without a tenant', async () => {
  for (let round = 0; round < 6; round++) {
    const tenant = await createTenant(admin, `Removal_Race_${++serial}`);
    const { secret } = await ok(admin.post<{ secret: string }>('/api/scim-tokens', { tenantId: tenant.id, name: `Race ${serial}`, ...ADMIN_PROOF }));
    const scim = scimClient(server.base, secret);
    const [removed, created, provisioned] = await Promise.all([
      admin.delete(`/api/tenants/${tenant.id}`),
      admin.post('/api/user', { username: `removal-race-${serial}`, realName: 'Removal_Race', password: transform('Secret123'), tenantId: tenant.id }),
      scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: `removal_scim_${serial}`, name: { formatted: 'Removal_Scim' } }),
    ]);
    const statuses = `delete ${removed.status}, console create ${created.status} ${JSON.stringify(created.body)}, SCIM create ${provisioned.status} ${JSON.stringify(provisioned.body)}`;
    for (const status of [removed.status, created.status, provisioned.status]) assert.ok(status < 500, statuses);
    const orphans = await server.app.ctx.db
      .selectFrom('users')
      .leftJoin('tenants', 'tenants.id', 'users.tenantId')
      .select('users.id')
      .where('users.tenantId', 'is not', null)
      .where('tenants.id', 'is', null)
      .execute();
    assert.equal(orphans.length, 0, statuses);
  }
});
