// SCIM security (server/scim/plugin.ts, server/services/scim-tokens.ts): a token reaches its own
// tenant's subtree only (tenant A's token never reads or writes tenant B, nor a platform user); a
// revoked, unknown or missing token is 401; the tokens are managed by administrators of the tenant's
// scope only, shown once, stored as a digest and audited; hostile requests (bad filters, huge or deep
// bodies, deep PATCH paths, too many operations, wrong media types) are SCIM errors, never a 500;
// calls are counted per token.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { digest } from '../../server/auth/secrets';
import { startServer, transform, type Client, type TestServer } from './harness';
import {
  assertScimError,
  createTenant,
  createToken,
  GROUP_SCHEMA,
  PATCH_SCHEMA,
  provisionedTenant,
  rootTenantId,
  scimClient,
  USER_SCHEMA,
} from './scim-support';

let server: TestServer;
let admin: Client;
let a: Awaited<ReturnType<typeof provisionedTenant>>;
let b: Awaited<ReturnType<typeof provisionedTenant>>;
let userA: string;
let groupA: string;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  a = await provisionedTenant(server, admin, 'Scim_Side_A');
  b = await provisionedTenant(server, admin, 'Scim_Side_B');
  userA = (await a.scim<{ id: string }>('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'side_a_person', name: { formatted: 'Side_A_Person' } })).body.id;
  groupA = (await a.scim<{ id: string }>('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Side_A_Group', members: [{ value: userA }] })).body.id;
});
after(async () => {
  await server.stop();
});

async function signedInAdminOf(tenantId: string, username: string): Promise<Client> {
  const created = await admin.post('/api/user', { username, realName: 'Scim_Admin', password: transform('Probe1234'), tenantId, isAdmin: true });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const client = server.client();
  await client.login(username, 'Probe1234');
  return client;
}

describe('SCIM tokens and tenant isolation', () => {
  test("tenant B's token never reads or writes tenant A's users and groups", async () => {
    const scim = b.scim;
    assertScimError(await scim('GET', `/Users/${userA}`), 404);
    assert.equal((await scim<{ totalResults: number }>('GET', `/Users?filter=${encodeURIComponent('userName eq "side_a_person"')}`)).body.totalResults, 0);
    const listed = await scim<{ Resources: { id: string }[] }>('GET', '/Users');
    assert.ok(!JSON.stringify(listed.body).includes('side_a_person'), 'the list of B holds nothing of A');
    assertScimError(await scim('PUT', `/Users/${userA}`, { schemas: [USER_SCHEMA], userName: 'side_a_person', name: { formatted: 'Taken_Over' } }), 404);
    assertScimError(await scim('PATCH', `/Users/${userA}`, { schemas: [PATCH_SCHEMA], Operations: [{ op: 'replace', path: 'active', value: false }] }), 404);
    assertScimError(await scim('DELETE', `/Users/${userA}`), 404);
    assertScimError(await scim('GET', `/Groups/${groupA}`), 404);
    assertScimError(await scim('PATCH', `/Groups/${groupA}`, { schemas: [PATCH_SCHEMA], Operations: [{ op: 'remove', path: 'members' }] }), 404);
    assertScimError(await scim('DELETE', `/Groups/${groupA}`), 404);
    assert.ok(!JSON.stringify((await scim('GET', '/Groups')).body).includes('Side_A_Group'));
    // Pulling A's user into a group of B: the user is unknown to B.
    const groupB = (await scim<{ id: string }>('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Side_B_Group' })).body.id;
    assertScimError(
      await scim('PATCH', `/Groups/${groupB}`, { schemas: [PATCH_SCHEMA], Operations: [{ op: 'add', path: 'members', value: [{ value: userA }] }] }),
      400,
      'invalidValue',
    );
    const stored = (await admin.get<{ tenantId: string; realName: string; availabilityStatus: number }>(`/api/user/${userA}`)).body.data;
    assert.deepEqual([stored.tenantId, stored.realName, stored.availabilityStatus], [groupA, 'Side_A_Person', 1]);
  });

  test('a token of the root tenant reaches every tenant user, never a platform user', async () => {
    const { secret } = await createToken(admin, await rootTenantId(admin), 'Root token');
    const scim = scimClient(server.base, secret);
    const adminId = (await admin.get<{ user: { id: string } }>('/api/cas/session')).body.data.user.id;
    assert.equal((await scim<{ totalResults: number }>('GET', `/Users?filter=${encodeURIComponent('userName eq "admin"')}`)).body.totalResults, 0);
    assertScimError(await scim('PATCH', `/Users/${adminId}`, { schemas: [PATCH_SCHEMA], Operations: [{ op: 'replace', path: 'active', value: false }] }), 404);
    assertScimError(await scim('DELETE', `/Users/${adminId}`), 404);
    assert.equal((await scim<{ totalResults: number }>('GET', `/Users?filter=${encodeURIComponent('userName eq "side_a_person"')}`)).body.totalResults, 1);
  });

  test('no token, a malformed or unknown one, a revoked one: 401 with WWW-Authenticate; a SCIM token opens nothing under /api', async () => {
    const anonymous = await fetch(`${server.base}/scim/v2/Users`);
    assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer realm="scim"');
    assertScimError({ status: anonymous.status, headers: anonymous.headers, body: (await anonymous.json()) as Record<string, unknown> }, 401);
    assertScimError(await scimClient(server.base, 'scim_not-a-token')('GET', '/Users'), 401);
    assertScimError(await scimClient(server.base, a.secret.slice(0, -1))('GET', '/Users'), 401);
    assertScimError(await a.scim('GET', '/Users', undefined, { authorization: `Basic ${a.secret}` }), 401);

    const { token, secret } = await createToken(admin, a.tenant.id, 'Short lived');
    const scim = scimClient(server.base, secret);
    assert.equal((await scim('GET', '/Users')).status, 200);
    const revoked = await admin.delete<{ revokedAt: number | null }>(`/api/scim-tokens/${token.id}`);
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    assert.ok(revoked.body.data.revokedAt);
    assertScimError(await scim('GET', '/Users'), 401);
    assertScimError(await scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'after_revoke', name: { formatted: 'After_Revoke' } }), 401);
    assert.equal((await admin.get<{ list: unknown[] }>('/api/user?searchProp=username&searchValue=after_revoke')).body.data.list.length, 0);

    const api = await fetch(`${server.base}/api/user`, { headers: { authorization: `Bearer ${a.secret}` } });
    assert.equal(api.status, 401);
  });

  test('tokens: shown once, stored as a digest, listed with last use; audited; a tenant administrator manages its own subtree only', async () => {
    const { token, secret } = await createToken(admin, a.tenant.id, 'Okta provisioning');
    assert.match(secret, /^scim_[\w-]{43}$/);
    const row = await server.app.ctx.db.selectFrom('scimTokens').selectAll().where('id', '=', token.id).executeTakeFirstOrThrow();
    assert.equal(row.secretHash, digest(secret));
    const list = await admin.get<{ list: { id: string; lastUsedAt: number | null; tenantName: string }[] }>(`/api/scim-tokens?tenantId=${a.tenant.id}`);
    assert.ok(!JSON.stringify(list.body).includes(secret) && !JSON.stringify(list.body).includes(row.secretHash));
    assert.equal(list.body.data.list.find((entry) => entry.id === token.id)?.lastUsedAt, null);
    await scimClient(server.base, secret)('GET', '/ServiceProviderConfig');
    const used = (
      await admin.get<{ list: { id: string; lastUsedAt: number | null; tenantName: string }[] }>(`/api/scim-tokens?tenantId=${a.tenant.id}`)
    ).body.data.list.find((entry) => entry.id === token.id);
    assert.ok(used?.lastUsedAt && used.tenantName === 'Scim_Side_A');
    const audit = (await admin.get<{ list: { action: string; targetId: string }[] }>('/api/audit?action=scim_token.create')).body.data.list;
    assert.ok(audit.some((entry) => entry.targetId === token.id));

    const adminA = await signedInAdminOf(a.tenant.id, 'scim-admin-a');
    const mine = await adminA.post<{ secret: string }>('/api/scim-tokens', {
      tenantId: a.tenant.id,
      name: 'A own token',
      currentPassword: transform('Probe1234'),
    });
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    const sub = await createTenant(admin, 'Scim_Side_A_Sub', a.tenant.id);
    assert.equal((await adminA.post('/api/scim-tokens', { tenantId: sub.id, name: 'A sub token', currentPassword: transform('Probe1234') })).status, 200);
    const before = await server.app.ctx.db.selectFrom('scimTokens').select('id').execute();
    for (const tenantId of [b.tenant.id, await rootTenantId(admin)]) {
      const refused = await adminA.post('/api/scim-tokens', { tenantId, name: 'Outside token', currentPassword: transform('Probe1234') });
      assert.ok([403, 404].includes(refused.status), JSON.stringify(refused.body));
    }
    assert.equal((await server.app.ctx.db.selectFrom('scimTokens').select('id').execute()).length, before.length);
    const seen = (await adminA.get<{ list: { tenantId: string }[] }>('/api/scim-tokens')).body.data.list;
    assert.ok(seen.length >= 2 && seen.every((entry) => [a.tenant.id, sub.id].includes(entry.tenantId)), JSON.stringify(seen));
    assert.equal((await adminA.delete(`/api/scim-tokens/${b.token.id}`)).status, 404);
    assert.equal((await b.scim('GET', '/Users')).status, 200, "B's token still works");
    const member = server.client();
    await admin.post('/api/user', { username: 'scim-plain-member', realName: 'Plain_Member', password: transform('Probe1234'), tenantId: a.tenant.id });
    await member.login('scim-plain-member', 'Probe1234');
    assert.equal((await member.post('/api/scim-tokens', { tenantId: a.tenant.id, name: 'Member token', currentPassword: transform('Probe1234') })).status, 403);
    assert.equal((await member.get('/api/scim-tokens')).status, 403);
  });

  test('hostile requests are SCIM errors, never a 500', async () => {
    const scim = a.scim;
    assertScimError(await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "a" or '.repeat(200))}`), 400, 'invalidFilter');
    // Deeper than 12 levels of and / or / not, or more than 64 comparisons: refused (the SQL stays small).
    assertScimError(await scim('GET', `/Users?filter=${encodeURIComponent(`${'not ('.repeat(20)}userName eq "a"${')'.repeat(20)}`)}`), 400, 'invalidFilter');
    assertScimError(
      await scim('GET', `/Users?filter=${encodeURIComponent(Array.from({ length: 65 }, (_, i) => `id eq "${i}"`).join(' or '))}`),
      400,
      'invalidFilter',
    );
    assertScimError(await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "unterminated')}`), 400, 'invalidFilter');
    assertScimError(await scim('GET', '/Users?filter=a&filter=b'), 400, 'invalidValue');
    const huge = { schemas: [USER_SCHEMA], userName: 'huge_body', name: { formatted: 'Huge_Body' }, description: 'x'.repeat(200 * 1024) };
    assertScimError(await scim('POST', '/Users', huge), 413);
    assertScimError(await scim('POST', '/Users', `${'['.repeat(100)}${']'.repeat(100)}`), 400);
    assertScimError(await scim('POST', '/Users', '{"schemas":'), 400);
    assertScimError(await scim('POST', '/Users', '[1,2]'), 400, 'invalidSyntax');
    assertScimError(await scim('POST', '/Users', 'userName=x', { 'content-type': 'text/plain' }), 415);
    const patch = (Operations: unknown) => scim('PATCH', `/Users/${userA}`, { schemas: [PATCH_SCHEMA], Operations });
    assertScimError(await patch([{ op: 'replace', path: `name${'.a'.repeat(60)}`, value: 'x' }]), 400, 'invalidPath');
    assertScimError(await patch([{ op: 'replace', path: 'emails[value co "a"].x.y.z', value: 'x' }]), 400);
    assertScimError(await patch([{ op: 'replace', path: `x${'y'.repeat(400)}`, value: 'x' }]), 400, 'invalidPath');
    assertScimError(await patch(Array.from({ length: 101 }, () => ({ op: 'replace', path: 'active', value: true }))), 400, 'invalidSyntax');
    assertScimError(await patch('replace everything'), 400);
    assertScimError(
      await scim('PATCH', `/Users/${userA}`, { Operations: [{ op: 'replace', path: 'active', value: true }], schemas: ['urn:example:not-patch'] }),
      400,
    );
    assertScimError(await scim('GET', '/Unknown'), 404);
    assertScimError(await scim('GET', '/Users/x/y'), 404);
    assertScimError(await scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'nul_person', name: { formatted: 'Nul\u0000Person' } }), 400);
    const stored = (await admin.get<{ realName: string; availabilityStatus: number }>(`/api/user/${userA}`)).body.data;
    assert.deepEqual([stored.realName, stored.availabilityStatus], ['Side_A_Person', 1], 'nothing hostile changed the user');
  });

  test('discovery: ServiceProviderConfig, ResourceTypes and Schemas', async () => {
    const config = (
      await a.scim<{
        patch: { supported: boolean };
        filter: { supported: boolean; maxResults: number };
        bulk: { supported: boolean };
        authenticationSchemes: { type: string }[];
      }>('GET', '/ServiceProviderConfig')
    ).body;
    assert.deepEqual([config.patch.supported, config.filter.supported, config.filter.maxResults, config.bulk.supported], [true, true, 100, false]);
    assert.equal(config.authenticationSchemes[0]?.type, 'oauthbearertoken');
    const types = (await a.scim<{ Resources: { name: string; endpoint: string }[] }>('GET', '/ResourceTypes')).body;
    assert.deepEqual(types.Resources.map((type) => [type.name, type.endpoint]).sort(), [
      ['Group', '/Groups'],
      ['User', '/Users'],
    ]);
    const user = (await a.scim<{ id: string; attributes: { name: string }[] }>('GET', `/Schemas/${USER_SCHEMA}`)).body;
    assert.ok(user.attributes.some((attribute) => attribute.name === 'userName'));
    assertScimError(await a.scim('GET', '/Schemas/urn:example:none'), 404);
  });
});

describe('SCIM rate limit per token', () => {
  test('a burst beyond the limit is refused with 429 and Retry-After; another token is not slowed', async () => {
    const limited = await startServer({
      rateLimits: {
        login: { max: 1000, timeWindow: 60_000 },
        captcha: { max: 1000, timeWindow: 60_000 },
        upload: { max: 1000, timeWindow: 60_000 },
        scim: { max: 5, timeWindow: 60_000 },
      },
    });
    try {
      const administrator = await limited.admin();
      const one = await provisionedTenant(limited, administrator, 'Scim_Limited_One');
      const two = await provisionedTenant(limited, administrator, 'Scim_Limited_Two');
      const answers = await Promise.all(Array.from({ length: 12 }, () => one.scim('GET', '/Users')));
      assert.equal(answers.filter((answer) => answer.status === 200).length, 5, answers.map((answer) => answer.status).join());
      const refused = answers.find((answer) => answer.status === 429)!;
      assertScimError(refused, 429);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      assert.equal((await two.scim('GET', '/Users')).status, 200);
    } finally {
      await limited.stop();
    }
  });
});

test('a SCIM attribute list with an empty name (attributes=userName, or a trailing comma) is a SCIM 400, not a 500', async () => {
  const { scim } = await provisionedTenant(server, admin, 'Scim_Attributes_Co');
  const created = await scim<{ id: string }>('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'attributes_one', name: { formatted: 'Attr_One' } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  for (const path of ['/Users?attributes=userName,', '/Users?excludedAttributes=,userName', `/Users/${created.body.id}?attributes=userName,,name`]) {
    assertScimError(await scim('GET', path), 400);
  }
});

test('a SCIM PATCH answered with an error changes nothing (no deactivation behind a 400)', async () => {
  const { scim } = await provisionedTenant(server, admin, 'Scim_Patch_Co');
  const created = await scim<{ id: string }>('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'patch_refused', name: { formatted: 'Patch_One' } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const answer = await scim('PATCH', `/Users/${created.body.id}`, {
    schemas: [PATCH_SCHEMA],
    Operations: [{ op: 'replace', value: { active: false, externalId: 'x'.repeat(300) } }],
  });
  assertScimError(answer, 400);
  const after = await scim<{ active: boolean }>('GET', `/Users/${created.body.id}`);
  assert.equal(
    after.body.active,
    true,
    'the PATCH was refused with 400, yet the person was deactivated (the client believes nothing changed and will not retry the rest)',
  );
});

test('a SCIM create answered with an error creates nobody (a retry is not refused as a duplicate)', async () => {
  const { scim } = await provisionedTenant(server, admin, 'Scim_Create_Co');
  const refused = await scim('POST', '/Users', {
    schemas: [USER_SCHEMA],
    userName: 'create_refused',
    name: { formatted: 'Create_One' },
    externalId: 'x'.repeat(300),
  });
  assertScimError(refused, 400);
  const retry = await scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'create_refused', name: { formatted: 'Create_One' }, externalId: 'ext-1' });
  assert.equal(retry.status, 201, `the refused create left the person behind: ${JSON.stringify(retry.body)}`);
});
