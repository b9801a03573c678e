// SCIM Groups (server/scim/groups.ts): a group is a tenant below the token's tenant, its members
// that tenant's users. The RFC 7644 §3.5.2 PATCH examples on `members` (add, remove one by a value
// filter, remove all, remove-then-add, replace), create, get, filter, PUT and DELETE; and the one
// rule our model adds: a user is in at most one group (409 uniqueness, nothing moved).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type Client, type TestServer } from './harness';
import { assertScimError, GROUP_SCHEMA, PATCH_SCHEMA, provisionedTenant, USER_SCHEMA, type Scim } from './scim-support';

let server: TestServer;
let admin: Client;
let scim: Scim;
let tenantId: string;

type Member = { value: string; display?: string; $ref?: string };
type ScimGroup = {
  id: string;
  displayName: string;
  externalId?: string;
  members?: Member[];
  meta: { resourceType: string; location: string };
  schemas: string[];
};

before(async () => {
  server = await startServer();
  admin = await server.admin();
  ({
    scim,
    tenant: { id: tenantId },
  } = await provisionedTenant(server, admin, 'Scim_Groups_Tenant'));
});
after(async () => {
  await server.stop();
});

async function user(name: string): Promise<string> {
  const answer = await scim<{ id: string }>('POST', '/Users', { schemas: [USER_SCHEMA], userName: name, name: { formatted: name } });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body.id;
}

async function group(displayName: string, members: string[] = []): Promise<ScimGroup> {
  const answer = await scim<ScimGroup>('POST', '/Groups', {
    schemas: [GROUP_SCHEMA],
    displayName,
    externalId: `ext-${displayName}`,
    members: members.map((value) => ({ value })),
  });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body;
}

const memberIds = async (id: string) => ((await scim<ScimGroup>('GET', `/Groups/${id}`)).body.members ?? []).map((member) => member.value).sort();
const tenantOf = async (userId: string) => (await admin.get<{ tenantId: string }>(`/api/user/${userId}`)).body.data.tenantId;
const patch = (id: string, Operations: unknown[]) => scim('PATCH', `/Groups/${id}`, { schemas: [PATCH_SCHEMA], Operations });

describe('SCIM Groups (RFC 7644 §3, groups as sub-tenants)', () => {
  test("create: a sub-tenant of the token's tenant, with its members moved into it", async () => {
    const babs = await user('g_babs');
    const created = await group('Tour_Guides', [babs]);
    assert.deepEqual(created.schemas, [GROUP_SCHEMA]);
    assert.equal(created.displayName, 'Tour_Guides');
    assert.equal(created.externalId, 'ext-Tour_Guides');
    assert.equal(created.meta.location, `${server.base}/scim/v2/Groups/${created.id}`);
    assert.deepEqual(
      created.members?.map((member) => member.value),
      [babs],
    );
    assert.equal(created.members?.[0]?.$ref, `${server.base}/scim/v2/Users/${babs}`);
    const tenant = (await admin.get<{ id: string; parentId: string; name: string; type: string }>(`/api/tenants/${created.id}`)).body.data;
    assert.deepEqual([tenant.parentId, tenant.name, tenant.type], [tenantId, 'Tour_Guides', 'department']);
    assert.equal(await tenantOf(babs), created.id);
    const asUser = (await scim<{ groups?: Member[] }>('GET', `/Users/${babs}`)).body;
    assert.deepEqual(
      asUser.groups?.map((entry) => [entry.value, entry.display]),
      [[created.id, 'Tour_Guides']],
    );
  });

  test('get with excludedAttributes=members, filter by displayName and by member', async () => {
    const babs = await user('g_filter');
    const created = await group('Filter_Group', [babs]);
    const got = (await scim<ScimGroup>('GET', `/Groups/${created.id}?excludedAttributes=members`)).body;
    assert.equal(got.members, undefined);
    assert.equal(got.displayName, 'Filter_Group');
    const byName = (
      await scim<{ totalResults: number; Resources: ScimGroup[] }>(
        'GET',
        `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "filter_group"')}`,
      )
    ).body;
    assert.deepEqual(
      byName.Resources.map((entry) => entry.id),
      [created.id],
    );
    assert.equal(byName.Resources[0]!.members, undefined);
    const byMember = (
      await scim<{ Resources: ScimGroup[] }>('GET', `/Groups?filter=${encodeURIComponent(`id eq "${created.id}" and members[value eq "${babs}"]`)}`)
    ).body;
    assert.deepEqual(
      byMember.Resources.map((entry) => entry.id),
      [created.id],
    );
    assertScimError(await scim('GET', `/Groups?filter=${encodeURIComponent('members co "x"')}`), 400, 'invalidFilter');
  });

  test('§3.5.2.1 add members; §3.5.2.2 remove one by a value filter, then all', async () => {
    const [a, b, c] = [await user('g_add_a'), await user('g_add_b'), await user('g_add_c')];
    const created = await group('Patch_Group');
    const added = await patch(created.id, [
      { op: 'add', path: 'members', value: [{ display: 'Babs Jensen', $ref: `${server.base}/scim/v2/Users/${a}`, value: a }, { value: b }, { value: c }] },
    ]);
    assert.equal(added.status, 204, JSON.stringify(added.body));
    assert.deepEqual(await memberIds(created.id), [a, b, c].sort());
    assert.equal((await patch(created.id, [{ op: 'remove', path: `members[value eq "${a}"]` }])).status, 204);
    assert.deepEqual(await memberIds(created.id), [b, c].sort());
    assert.equal(await tenantOf(a), tenantId, "a member removed goes back to the token's tenant");
    assert.equal((await patch(created.id, [{ op: 'remove', path: 'members' }])).status, 204);
    assert.deepEqual(await memberIds(created.id), []);
  });

  test('§3.5.2.2 remove then add in one request; §3.5.2.3 replace all members', async () => {
    const [a, b, c] = [await user('g_swap_a'), await user('g_swap_b'), await user('g_swap_c')];
    const created = await group('Swap_Group', [a]);
    const swapped = await patch(created.id, [
      { op: 'remove', path: `members[value eq "${a}"]` },
      { op: 'add', path: 'members', value: [{ display: 'James Smith', value: b }] },
    ]);
    assert.equal(swapped.status, 204, JSON.stringify(swapped.body));
    assert.deepEqual(await memberIds(created.id), [b]);
    assert.equal((await patch(created.id, [{ op: 'replace', path: 'members', value: [{ value: a }, { value: c }] }])).status, 204);
    assert.deepEqual(await memberIds(created.id), [a, c].sort());
    assert.equal((await patch(created.id, [{ op: 'replace', path: 'displayName', value: 'Swapped_Group' }])).status, 204);
    assert.equal((await admin.get<{ name: string }>(`/api/tenants/${created.id}`)).body.data.name, 'Swapped_Group');
  });

  test('a user in another group: 409 uniqueness, nobody moved; an unknown member: 400 invalidValue', async () => {
    const [a, b] = [await user('g_one_a'), await user('g_one_b')];
    const first = await group('First_Group', [a]);
    const second = await group('Second_Group');
    assertScimError(await patch(second.id, [{ op: 'add', path: 'members', value: [{ value: b }, { value: a }] }]), 409, 'uniqueness');
    assert.deepEqual([await tenantOf(a), await tenantOf(b)], [first.id, tenantId]);
    assertScimError(await patch(second.id, [{ op: 'add', path: 'members', value: [{ value: '2819c223-7f76-453a-919d-413861904646' }] }]), 400, 'invalidValue');
    assertScimError(await scim('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Third_Group', members: [{ value: a }] }), 409, 'uniqueness');
    assert.equal(
      (await scim<{ totalResults: number }>('GET', `/Groups?filter=${encodeURIComponent('displayName eq "Third_Group"')}`)).body.totalResults,
      0,
      'a refused create makes no group',
    );
  });

  test('PUT replaces name, externalId and members; DELETE moves members back and removes the tenant', async () => {
    const [a, b] = [await user('g_put_a'), await user('g_put_b')];
    const created = await group('Put_Group', [a]);
    const replaced = await scim<ScimGroup>('PUT', `/Groups/${created.id}`, { schemas: [GROUP_SCHEMA], displayName: 'Put_Group_2', members: [{ value: b }] });
    assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
    assert.equal(replaced.body.displayName, 'Put_Group_2');
    assert.equal(replaced.body.externalId, undefined);
    assert.deepEqual(
      replaced.body.members?.map((member) => member.value),
      [b],
    );
    assert.equal(await tenantOf(a), tenantId);
    assert.equal((await scim('DELETE', `/Groups/${created.id}`)).status, 204);
    assertScimError(await scim('GET', `/Groups/${created.id}`), 404);
    assert.equal(await tenantOf(b), tenantId);
    assert.equal((await admin.get(`/api/tenants/${created.id}`)).status, 404);
  });

  test("group names follow the console's tenant-name rule; the token's own tenant is no group", async () => {
    assertScimError(await scim('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Sales Team' }), 400, 'invalidValue');
    assertScimError(await scim('GET', `/Groups/${tenantId}`), 404);
    assertScimError(await scim('DELETE', `/Groups/${tenantId}`), 404);
  });
});
