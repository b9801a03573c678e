// SCIM requests as Entra ID and Okta send them, and hostile variants: every answer is a SCIM answer
// (2xx, or a 4xx SCIM error envelope), never a 5xx; filters never widen a list beyond what they name.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type Client, type TestServer } from './harness';
import { ERROR_SCHEMA, GROUP_SCHEMA, PATCH_SCHEMA, provisionedTenant, USER_SCHEMA, type Scim, type ScimAnswer } from './scim-support';

let server: TestServer;
let admin: Client;
let scim: Scim;
let userId: string;
let groupId: string;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  ({ scim } = await provisionedTenant(server, admin, 'Shapes_Tenant'));
  const user = await scim<{ id: string }>('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'shapes_user', name: { formatted: 'Shapes_User' } });
  assert.equal(user.status, 201, JSON.stringify(user.body));
  userId = user.body.id;
  const group = await scim<{ id: string }>('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Shapes_Group' });
  assert.equal(group.status, 201, JSON.stringify(group.body));
  groupId = group.body.id;
});
after(async () => {
  await server.stop();
});

function assertScimAnswer(answer: ScimAnswer, what: string): void {
  const where = `${what}: ${answer.status} ${JSON.stringify(answer.body)}`;
  assert.ok(answer.status < 500, where);
  if (answer.status >= 400) assert.deepEqual((answer.body as { schemas?: unknown }).schemas, [ERROR_SCHEMA], where);
}

describe('hostile SCIM shapes answer 2xx or a 4xx SCIM error, never a 5xx', () => {
  test('filters: nesting, odd values, wildcards, unknown attributes', async () => {
    const filters = [
      '('.repeat(200) + 'userName eq "x"' + ')'.repeat(200),
      'userName eq null',
      'userName eq 1',
      'userName eq true',
      'userName sw "%"',
      'userName co "_"',
      'emails[type eq "work" and value co "@"]',
      'emails[value eq "a"] or emails[value eq "b"]',
      'emails[not (type eq "work")]',
      'meta.created gt "not a date"',
      'meta.lastModified ge "2020-01-01T00:00:00Z" and active eq "True"',
      'active eq "yes"',
      'name.givenName eq "x"',
      'urn:ietf:params:scim:schemas:core:2.0:User:userName eq "shapes_user"',
      'userName eq "\u0000"',
      'userName eq "' + 'a'.repeat(990) + '"',
      'userName eq "x" and',
      'not userName eq "x"',
      'groups.value eq "x"',
      'phoneNumbers[type eq "mobile"].value eq "1"',
      'userName[value eq "x"]',
    ];
    for (const filter of filters) assertScimAnswer(await scim('GET', `/Users?filter=${encodeURIComponent(filter)}`), `filter ${filter.slice(0, 60)}`);
    const wildcard = await scim<{ totalResults: number }>('GET', `/Users?filter=${encodeURIComponent('userName sw "%"')}`);
    if (wildcard.status === 200) assert.equal(wildcard.body.totalResults, 0, 'a % in sw is a letter, not a wildcard');
    for (const filter of ['members eq "x"', 'members[value eq "x"]', 'displayName co "%"', 'members.display eq "x"']) {
      assertScimAnswer(await scim('GET', `/Groups?filter=${encodeURIComponent(filter)}`), `group filter ${filter}`);
    }
  });

  test('PATCH: Entra and Okta spellings, filtered multi-valued paths on absent values, wrong types', async () => {
    const operations: unknown[][] = [
      [{ op: 'Replace', path: 'emails[type eq "work"].value', value: 'shapes@corp.example' }],
      [{ op: 'Add', path: 'phoneNumbers[type eq "fax"].value', value: '13900001111' }],
      [{ op: 'remove', path: 'emails[type eq "home"]' }],
      [{ op: 'replace', path: 'active', value: 'False' }],
      [{ op: 'replace', path: 'active', value: 'maybe' }],
      [{ op: 'replace', value: { active: 'True', 'name.formatted': 'Shapes_Again' } }],
      [{ op: 'replace', path: 'name', value: 'not an object' }],
      [{ op: 'replace', path: 'emails', value: 'not a list' }],
      [{ op: 'replace', path: 'emails[value eq "x"', value: 'x' }],
      [{ op: 'replace', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager', value: 'x' }],
      [{ op: 'remove', path: 'userName' }],
      [{ op: 'remove', path: 'id' }],
      [{ op: 'replace', path: 'meta.created', value: 'x' }],
      [{ op: 'add' }],
      [
        {
          op: 'add',
          path: 'emails',
          value: [
            { value: 'a@corp.example', primary: 'True' },
            { value: 'b@corp.example', primary: 'True' },
          ],
        },
      ],
      [{ op: 'replace', path: 'displayName', value: null }],
      [{ op: 'replace', path: 'name.formatted', value: '\u202eevil' }],
    ];
    for (const Operations of operations) {
      assertScimAnswer(await scim('PATCH', `/Users/${userId}`, { schemas: [PATCH_SCHEMA], Operations }), `user PATCH ${JSON.stringify(Operations)}`);
    }
    const groupOperations: unknown[][] = [
      [{ op: 'Add', path: 'members', value: [{ value: userId }, { value: userId }] }],
      [{ op: 'Add', path: 'members', value: [{ value: 'not-an-id' }] }],
      [{ op: 'Add', path: 'members', value: { value: userId } }],
      [{ op: 'Remove', path: 'members[value eq "not-an-id"]' }],
      [{ op: 'Replace', path: 'displayName', value: '' }],
      [{ op: 'Replace', value: { displayName: 'Shapes_Group2', members: 'x' } }],
      [{ op: 'Remove', path: 'members[value eq "' + userId + '" or value pr]' }],
    ];
    for (const Operations of groupOperations) {
      assertScimAnswer(await scim('PATCH', `/Groups/${groupId}`, { schemas: [PATCH_SCHEMA], Operations }), `group PATCH ${JSON.stringify(Operations)}`);
    }
  });

  test('bodies: wrong JSON shapes, huge attribute counts, bidi and control characters', async () => {
    const bodies: unknown[] = [
      '[]',
      'null',
      '"text"',
      '{"schemas":"x","userName":"shapes_b1"}',
      { schemas: [USER_SCHEMA], userName: ['a'] },
      { schemas: [USER_SCHEMA], userName: 'shapes_b2', name: { formatted: 'A\u202eB' } },
      { schemas: [USER_SCHEMA], userName: 'shapes_b3', emails: [{ value: 'x@corp.example\u0000' }] },
      { schemas: [USER_SCHEMA], userName: 'shapes_b4', active: 'False', password: 12345 },
      { schemas: [USER_SCHEMA], userName: 'shapes_b5', phoneNumbers: [{ value: '+86 139-0000-2222', type: 'mobile', primary: 'True' }] },
      { schemas: [USER_SCHEMA], userName: 'shapes_b6', __proto__: { isAdmin: true }, constructor: { prototype: { isAdmin: true } } },
    ];
    for (const body of bodies) assertScimAnswer(await scim('POST', '/Users', body), `POST ${JSON.stringify(body).slice(0, 80)}`);
    const polluted = JSON.parse('{"isAdmin": false}') as { isAdmin?: unknown };
    assert.equal(({} as { isAdmin?: unknown }).isAdmin, undefined, 'no prototype pollution');
    assert.equal(polluted.isAdmin, false);
    const rtl = await server.app.ctx.db.selectFrom('users').select('realName').where('username', '=', 'shapes_b2').executeTakeFirst();
    assert.equal(rtl, undefined, 'a bidi override in name.formatted is refused');
  });
});
