// A SCIM token grants no administrator right (docs/scim.md): no write a provisioning client can make
// moves an administrator into another tenant with the flag, makes anyone an administrator, or places
// anyone outside the token's tenant. Every SCIM write path that touches a person's tenant or admin
// state is tried here with a hostile body: group member removal (one, all), replace, PUT, DELETE of the
// group, adding an administrator to a group, and users' bodies with admin-, tenant- and group-looking
// attributes (core, enterprise extension, unknown ones). Before, removing a sub-tenant administrator
// from its group (or deleting the group) moved them into the token's tenant as its administrator.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer } from './harness';
import { assertScimError, GROUP_SCHEMA, PATCH_SCHEMA, provisionedTenant, USER_SCHEMA, type Scim } from './scim-support';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

let server: TestServer;
let admin: Client;
let scim: Scim;
let tenantId: string;
let rootId: string;
/** A group (sub-tenant) made by the token, its administrator (made in the console) and a plain member. */
let groupId: string;
let subAdmin: string;
let member: string;
/** An administrator of the token's own tenant, and a plain user of it. */
let peerAdmin: string;
let plain: string;

interface Placement {
  tenantId: string;
  isAdmin: boolean;
  userType: number;
}
const placementOf = async (id: string): Promise<Placement> => {
  const { tenantId: tenant, isAdmin, extraProp } = (await admin.get<Placement & { extraProp?: { intProperty1?: number } }>(`/api/user/${id}`)).body.data;
  return { tenantId: tenant, isAdmin, userType: extraProp?.intProperty1 ?? -1 };
};

async function consoleUser(username: string, tenant: string, isAdmin: boolean): Promise<string> {
  const created = await admin.post<{ id: string }>('/api/user', { username, realName: username, password: transform('Probe1234'), tenantId: tenant, isAdmin });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return created.body.data.id;
}

before(async () => {
  server = await startServer();
  admin = await server.admin();
  ({
    scim,
    tenant: { id: tenantId },
  } = await provisionedTenant(server, admin, 'Grants_Tenant'));
  rootId = (await admin.get<{ id: string; parentId: string | null }[]>('/api/tenants/tree')).body.data.find((row) => row.parentId === null)!.id;
  const created = await scim<{ id: string }>('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'grants_member', name: { formatted: 'Grants_Member' } });
  member = created.body.id;
  const group = await scim<{ id: string }>('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Grants_Sales', members: [{ value: member }] });
  assert.equal(group.status, 201, JSON.stringify(group.body));
  groupId = group.body.id;
  subAdmin = await consoleUser('grants_subadmin', groupId, true);
  peerAdmin = await consoleUser('grants_peer', tenantId, true);
  plain = (await scim<{ id: string }>('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'grants_plain', name: { formatted: 'Grants_Plain' } })).body.id;
});
after(async () => {
  await server.stop();
});

const patchGroup = (Operations: unknown[]) => scim('PATCH', `/Groups/${groupId}`, { schemas: [PATCH_SCHEMA], Operations });

/** The sub-tenant administrator is still in the group, still its administrator; the member too. */
async function assertGroupUntouched(what: string): Promise<void> {
  assert.deepEqual(await placementOf(subAdmin), { tenantId: groupId, isAdmin: true, userType: 1 }, `${what}: the group's administrator stays where they are`);
  assert.equal((await placementOf(member)).tenantId, groupId, `${what}: nobody was moved (the request is refused whole)`);
  assert.equal((await scim('GET', `/Groups/${groupId}`)).status, 200, `${what}: the group is still there`);
}

describe('a SCIM token grants no administrator right', () => {
  test("removing a group's administrator from the group (by a value filter, or all members): 403, nobody moved", async () => {
    assertScimError(await patchGroup([{ op: 'remove', path: `members[value eq "${subAdmin}"]` }]), 403);
    await assertGroupUntouched('remove members[value eq S]');
    assertScimError(await patchGroup([{ op: 'Remove', path: 'members', value: [{ $ref: null, value: subAdmin }] }]), 403);
    await assertGroupUntouched("Entra's remove with a member list");
    assertScimError(await patchGroup([{ op: 'remove', path: 'members' }]), 403);
    await assertGroupUntouched('remove all members');
  });

  test('replacing the members (PATCH replace, PUT) without the administrator: 403, nobody moved', async () => {
    assertScimError(await patchGroup([{ op: 'replace', path: 'members', value: [{ value: member }] }]), 403);
    await assertGroupUntouched('PATCH replace members');
    assertScimError(await scim('PUT', `/Groups/${groupId}`, { schemas: [GROUP_SCHEMA], displayName: 'Grants_Sales', members: [{ value: member }] }), 403);
    await assertGroupUntouched('PUT without the administrator');
  });

  test("deleting the administrator's group: 403, the group and its people stay", async () => {
    assertScimError(await scim('DELETE', `/Groups/${groupId}`), 403);
    await assertGroupUntouched('DELETE the group');
  });

  test("adding an administrator of the token's tenant to a group, or creating a group with them: 403, no group left behind", async () => {
    assertScimError(await patchGroup([{ op: 'add', path: 'members', value: [{ value: peerAdmin }] }]), 403);
    assert.deepEqual(await placementOf(peerAdmin), { tenantId, isAdmin: true, userType: 1 });
    assertScimError(await scim('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Grants_Trap', members: [{ value: peerAdmin }] }), 403);
    const trap = await scim<{ totalResults: number }>('GET', `/Groups?filter=${encodeURIComponent('displayName eq "Grants_Trap"')}`);
    assert.equal(trap.body.totalResults, 0, 'the refused create made no group');
    assert.deepEqual(await placementOf(peerAdmin), { tenantId, isAdmin: true, userType: 1 });
  });

  test('a plain member still moves in and out of groups as before', async () => {
    assert.equal((await patchGroup([{ op: 'add', path: 'members', value: [{ value: plain }] }])).status, 204);
    assert.deepEqual(await placementOf(plain), { tenantId: groupId, isAdmin: false, userType: 1 });
    assert.equal((await patchGroup([{ op: 'remove', path: `members[value eq "${plain}"]` }])).status, 204);
    assert.deepEqual(await placementOf(plain), { tenantId, isAdmin: false, userType: 1 });
  });

  test('users created or replaced with admin-, tenant- and group-looking attributes are plain users of the token tenant', async () => {
    const hostile = (userName: string) => ({
      schemas: [USER_SCHEMA, ENTERPRISE],
      userName,
      name: { formatted: 'Hostile_Body' },
      userType: 'Administrator',
      roles: [{ value: 'admin', primary: 'True' }],
      entitlements: [{ value: 'platform-admin' }],
      groups: [{ value: groupId }, { value: rootId }],
      [ENTERPRISE]: { organization: rootId, department: groupId, manager: { value: peerAdmin } },
    });
    const created = await scim<{ id: string }>('POST', '/Users', hostile('grants_hostile'));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(await placementOf(created.body.id), { tenantId, isAdmin: false, userType: 1 });
    const extra = await scim('POST', '/Users', { ...hostile('grants_hostile2'), isAdmin: true, tenantId: rootId, isMaster: true });
    if (extra.status === 201) assert.deepEqual(await placementOf((extra.body as { id: string }).id), { tenantId, isAdmin: false, userType: 1 });
    else assertScimError(extra, 400);
    const replaced = await scim('PUT', `/Users/${plain}`, hostile('grants_plain'));
    assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
    assert.deepEqual(await placementOf(plain), { tenantId, isAdmin: false, userType: 1 });
  });

  test('PATCH of a user with groups, roles, the enterprise extension or admin-looking attributes changes no tenant and no flag', async () => {
    const patchUser = (id: string, Operations: unknown[]) => scim('PATCH', `/Users/${id}`, { schemas: [PATCH_SCHEMA], Operations });
    for (const operations of [
      [{ op: 'add', path: 'groups', value: [{ value: groupId }] }],
      [{ op: 'replace', path: 'roles', value: [{ value: 'admin', primary: true }] }],
      [{ op: 'replace', value: { userType: 'Administrator', [`${ENTERPRISE}:department`]: 'Grants_Sales' } }],
      [{ op: 'add', path: `${ENTERPRISE}:manager`, value: { value: peerAdmin } }],
      [{ op: 'replace', value: { isAdmin: true, tenantId: rootId } }],
    ]) {
      const answer = await patchUser(plain, operations);
      assert.ok(answer.status === 200 || answer.status === 400, `${JSON.stringify(operations)}: ${answer.status} ${JSON.stringify(answer.body)}`);
      assert.deepEqual(await placementOf(plain), { tenantId, isAdmin: false, userType: 1 }, JSON.stringify(operations));
    }
    // An administrator of the token's own tenant is the token creator's equal: not changed at all.
    assertScimError(await patchUser(peerAdmin, [{ op: 'replace', path: 'active', value: 'False' }]), 403);
    assertScimError(await scim('DELETE', `/Users/${peerAdmin}`), 403);
    assert.deepEqual(await placementOf(peerAdmin), { tenantId, isAdmin: true, userType: 1 });
  });
});
