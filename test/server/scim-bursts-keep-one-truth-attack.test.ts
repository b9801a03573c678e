// SCIM clients send in bursts: Entra ID and Okta run several workers, retry on a timeout, and put
// one person in two groups from two jobs at once. Whatever the interleaving, each answer must be
// true of what is stored: a person is a member of at most one group (a tenant), so two PATCHes
// adding them to two groups cannot both answer success; a burst of one POST /Users creates one person;
// a request answered with an error changed nothing (the client does not retry what it thinks failed
// half-way, and has no way to know).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer } from './harness';
import { GROUP_SCHEMA, PATCH_SCHEMA, provisionedTenant, USER_SCHEMA, type Scim } from './scim-support';

let server: TestServer;
let admin: Client;
let scim: Scim;
let tokenTenantId: string;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  ({
    scim,
    tenant: { id: tokenTenantId },
  } = await provisionedTenant(server, admin, 'Scim_Burst_Co'));
});
after(async () => {
  await server.stop();
});

const addMember = (groupId: string, userId: string) =>
  scim('PATCH', `/Groups/${groupId}`, { schemas: [PATCH_SCHEMA], Operations: [{ op: 'Add', path: 'members', value: [{ value: userId }] }] });

test('two PATCHes racing to add one person to two groups: at most one answers success, and the person is in the group that did', async () => {
  const rounds = 3;
  for (let round = 0; round < rounds; round++) {
    const user = await scim<{ id: string }>('POST', '/Users', { schemas: [USER_SCHEMA], userName: `racer_${round}`, name: { formatted: 'Racer_Person' } });
    assert.equal(user.status, 201, JSON.stringify(user.body));
    const groups = await Promise.all(
      ['Red', 'Blue'].map(async (colour) => {
        const group = await scim<{ id: string }>('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: `Race_${colour}_${round}` });
        assert.equal(group.status, 201, JSON.stringify(group.body));
        return group.body.id;
      }),
    );
    const answers = await Promise.all(groups.map((groupId) => addMember(groupId, user.body.id)));
    const succeeded = groups.filter((_, index) => answers[index]!.status === 204);
    const { tenantId } = await server.app.ctx.db.selectFrom('users').select('tenantId').where('id', '=', user.body.id).executeTakeFirstOrThrow();
    assert.ok(
      succeeded.length <= 1,
      `round ${round}: both PATCHes answered 204, yet the person is in one group only (${tenantId === groups[0] ? 'Red' : tenantId === groups[1] ? 'Blue' : 'neither'}): the client now believes they are a member of both`,
    );
    for (const answer of answers) assert.ok([204, 409].includes(answer.status), `round ${round}: ${answer.status} ${JSON.stringify(answer.body)}`);
    if (succeeded.length === 1) assert.equal(tenantId, succeeded[0], `round ${round}: the person is not in the group whose PATCH succeeded`);
  }
});

test('a burst of the same POST /Users (a client retrying on a timeout): one person is created, the others answer 409 uniqueness', async () => {
  const body = { schemas: [USER_SCHEMA], userName: 'burst_user', externalId: 'burst-ext', name: { formatted: 'Burst_User' } };
  const answers = await Promise.all(Array.from({ length: 8 }, () => scim<{ id?: string }>('POST', '/Users', body)));
  assert.deepEqual(
    answers.map((answer) => answer.status).sort(),
    [201, 409, 409, 409, 409, 409, 409, 409],
    JSON.stringify(answers.map((answer) => answer.body)),
  );
  const rows = await server.app.ctx.db.selectFrom('users').select('id').where('username', '=', 'burst_user').execute();
  assert.equal(rows.length, 1);
});

test('a DELETE of a group answered 409 (someone the console placed there keeps the tenant) leaves its members in it', async () => {
  const member = await scim<{ id: string }>('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'kept_member', name: { formatted: 'Kept_Member' } });
  assert.equal(member.status, 201, JSON.stringify(member.body));
  const group = await scim<{ id: string }>('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Kept_Group', members: [{ value: member.body.id }] });
  assert.equal(group.status, 201, JSON.stringify(group.body));
  // A platform-type account an administrator placed in that tenant in the console: no SCIM member, but it keeps the tenant.
  const placed = await admin.post('/api/user', {
    username: 'console_placed',
    realName: 'Console_Placed',
    password: transform('Secret123'),
    tenantId: group.body.id,
    extraProp: { intProperty1: 2 },
  });
  assert.equal(placed.status, 200, JSON.stringify(placed.body));
  const deleted = await scim('DELETE', `/Groups/${group.body.id}`);
  assert.equal(deleted.status, 409, JSON.stringify(deleted.body));
  const { tenantId } = await server.app.ctx.db.selectFrom('users').select('tenantId').where('id', '=', member.body.id).executeTakeFirstOrThrow();
  assert.equal(
    tenantId,
    group.body.id,
    `the DELETE answered 409, yet its member was moved out of the group${tenantId === tokenTenantId ? " (into the token's tenant)" : ''}: the client still lists them as a member`,
  );
  const listed = await scim<{ members?: { value: string }[] }>('GET', `/Groups/${group.body.id}`);
  assert.deepEqual(
    listed.body.members?.map(({ value }) => value),
    [member.body.id],
  );
});
