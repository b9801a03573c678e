// A borrowed tenant-administrator session (an unlocked screen: no password) must not take over a
// member's account. The direct ways are guarded (docs/security.md: moving a member's phone or
// e-mail takes the administrator's password, borrowed-session-rechecks.test.ts), but the session
// can make a SCIM token without any password (POST /api/scim-tokens), and a SCIM token changes
// phones and e-mails without a re-check (server/auth/contact-change.ts, `actor.provisioning`): the
// member's reset phone becomes the attacker's, and "forgot password" hands the account over.
// Now: making a token takes the maker's current password (server/services/scim-tokens.ts).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer } from './harness';
import { codeSentTo } from './sign-in-support';
import { createTenant, PATCH_SCHEMA, scimClient } from './scim-support';

const PASSWORD = 'Borrowed1pass';
const ATTACKER_PHONE = '13900006666';

let server: TestServer;
let admin: Client;

before(async () => {
  server = await startServer();
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

async function person(username: string, fields: Record<string, unknown>): Promise<string> {
  const created = await admin.post<{ id: string }>('/api/user', { username, realName: username.replace(/-/g, '_'), password: transform(PASSWORD), ...fields });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return created.body.data.id;
}

test("a tenant administrator's borrowed session cannot take over a member through a SCIM token it makes without the password", async () => {
  const tenant = await createTenant(admin, 'Borrowed_Co');
  await person('borrowed-boss', { tenantId: tenant.id, isAdmin: true, mobilePhone: '13900006601' });
  const memberId = await person('borrowed-member', { tenantId: tenant.id, mobilePhone: '13900006602' });
  const session = server.client();
  assert.equal((await session.login('borrowed-boss', PASSWORD)).body.data?.loginSuccess, true);

  const steps: string[] = [];
  // The session alone (no password in the body) makes a token for its tenant.
  const made = await session.post<{ secret: string }>('/api/scim-tokens', { tenantId: tenant.id, name: 'Borrowed token' });
  steps.push(`token ${made.status}`);
  if (made.status === 200) {
    const scim = scimClient(server.base, made.body.data.secret);
    const moved = await scim('PATCH', `/Users/${memberId}`, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'replace', path: 'phoneNumbers[type eq "mobile"].value', value: ATTACKER_PHONE }],
    });
    steps.push(`scim patch ${moved.status}`);
    server.clock.advance(61_000);
    const since = server.clock.now();
    steps.push(`reset-code ${(await server.client().post('/api/user/password/reset-code', { identifier: ATTACKER_PHONE })).status}`);
    const code = await codeSentTo(server, memberId, ATTACKER_PHONE, since);
    const reset = code && (await server.client().put('/api/user/password', { identifier: ATTACKER_PHONE, code, password: transform('Attacker-owns-1') }));
    steps.push(`reset ${reset ? reset.status : 'no code'}`);
  }
  const taken = await server.client().login('borrowed-member', 'Attacker-owns-1');
  assert.notEqual(
    taken.body.data?.loginSuccess,
    true,
    `a borrowed session without the password took the member's account over through a SCIM token (${steps.join(', ')})`,
  );
});

test("making a SCIM token takes the maker's current password: none or a wrong one answers 400 on currentPassword (no token, audited as a re-check failure); the right one makes it", async () => {
  const tenant = await createTenant(admin, 'Borrowed_Proof_Co');
  await person('borrowed-proof-boss', { tenantId: tenant.id, isAdmin: true, mobilePhone: '13900006603' });
  const session = server.client();
  assert.equal((await session.login('borrowed-proof-boss', PASSWORD)).body.data?.loginSuccess, true);
  const tokensOf = () => server.app.ctx.db.selectFrom('scimTokens').select('id').where('tenantId', '=', tenant.id).execute();

  const none = await session.post<{ fields: unknown[] }>('/api/scim-tokens', { tenantId: tenant.id, name: 'No proof' });
  assert.deepEqual([none.status, none.body.data.fields], [400, [{ field: 'currentPassword', rule: 'rule.required' }]]);
  const wrong = await session.post<{ fields: unknown[] }>('/api/scim-tokens', {
    tenantId: tenant.id,
    name: 'Wrong proof',
    currentPassword: transform('Not-the-password-1'),
  });
  assert.deepEqual([wrong.status, wrong.body.data.fields], [400, [{ field: 'currentPassword', rule: 'rule.wrongPassword' }]]);
  assert.equal((await tokensOf()).length, 0);
  const failures = await server.app.ctx.db.selectFrom('auditLog').select('detail').where('action', '=', 'login.failure').execute();
  assert.ok(failures.some((row) => String(row.detail).includes('"reason":"recheck"') && String(row.detail).includes('borrowed-proof-boss')));

  const made = await session.post('/api/scim-tokens', { tenantId: tenant.id, name: 'With proof', currentPassword: transform(PASSWORD) });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  assert.equal((await tokensOf()).length, 1);
});

test('a SCIM token made by a tenant administrator stops working once that administrator is disabled (it does not outlive their rights)', async () => {
  const tenant = await createTenant(admin, 'Leaving_Admin_Co');
  const bossId = await person('leaving-boss', { tenantId: tenant.id, isAdmin: true, mobilePhone: '13900006604' });
  const bossSession = server.client();
  assert.equal((await bossSession.login('leaving-boss', PASSWORD)).body.data?.loginSuccess, true);
  const made = await bossSession.post<{ secret: string }>('/api/scim-tokens', {
    tenantId: tenant.id,
    name: 'Leaving admin',
    currentPassword: transform(PASSWORD),
  });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  const scim = scimClient(server.base, made.body.data.secret);
  assert.equal((await scim('GET', '/Users')).status, 200);
  // The administrator leaves (or is caught): the platform administrator disables them.
  const disabled = await admin.post<{ results: { ok: boolean }[] }>('/api/user/bulk', { action: 'disable', ids: [bossId] });
  assert.equal(disabled.body.data?.results?.[0]?.ok, true, JSON.stringify(disabled.body));
  assert.equal((await bossSession.get('/api/cas/session')).status, 401, 'their session ended');
  const after = await scim('GET', '/Users');
  assert.equal(
    after.status,
    401,
    `the disabled administrator's token still acts as a tenant administrator (${after.status}): a credential outliving the person's rights`,
  );
});
