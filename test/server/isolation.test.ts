// Tenant isolation over every operation of /api/openapi.json. The platform administrator makes
// two sides (security-support.ts seedTwoSides): tenant A with its administrator and a member, app
// X with its administrator; tenant B's user, app Y's privilege/role/plan, a channel, a message to
// B. Then each caller of side A calls every operation with the ids of side B/Y (and bodies whose
// references point there):
//  - an operation needing a permission the caller lacks → 403;
//  - an operation that addresses a record of B/Y by path → 403 or 404, nothing changed;
//  - any other call may answer, but never with B/Y's data, and changes nothing of B/Y.
// A plain member is refused (403) every operation that needs more than self-service (code 0).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type Client, type TestServer } from './harness';
import {
  changesState,
  fillPath,
  otherSideBody,
  otherSideParam,
  otherSideQuery,
  PROBE_PASSWORD,
  readOperations,
  seedTwoSides,
  snapshot,
  snapshots,
  type Operation,
  type TwoSides,
} from './security-support';
import { Permission } from '../../src/core/permission-codes';

/** Left out, with the reason:
 *  - public calls (sign-in, captcha, the public settings and IdP list, third-party sign-in flow,
 *    the served files, password reset by code, email verification link): they hold no tenant's data
 *    and take no session; their refusals are covered by the fuzz, enumeration and auth tests;
 *  - GET /api/cas/logout: ends the caller's own session (the caller's session is all it touches). */
const excluded = (operation: Operation) => operation.permission === 'public' || operation.path === '/api/cas/logout';

/** Self-service calls without a path id that a caller of side A may complete on their own record
 *  (the body's references to B are ignored or refused; B's rows are checked unchanged). */
const SELF_SERVICE = new Set([
  'PUT /api/user/profile',
  'PUT /api/user/password',
  'PUT /api/messages/read',
  'DELETE /api/cas/sessions',
  'POST /api/user/totp',
  'POST /api/user/email/verification',
  // The start of adding a passkey to one's own account (a challenge for the caller, after their password).
  'POST /api/user/passkeys/options',
]);

/** Reads by path id that any holder of the permission may make whatever the record's side: the
 *  menu plans are shared portal configuration (every signed-in user receives them through
 *  GET …/multi_app_menu/list); only platform administrators change them. */
const SHARED_READS = new Set(['GET /api/menu-plans/for/{appId}', 'GET /api/menu-plans/{id}', 'GET /api/menu-plans/{id}/privileges']);

let server: TestServer;
let admin: Client;
let sides: TwoSides;
let operations: Operation[] = [];
let otherIds: string[] = [];
const tally = { calls: 0, refused403: 0, refused404: 0, refused400: 0, answeredClean: 0, serverErrors: 0 };

interface Caller {
  name: string;
  username: string;
  permissions: string[];
  client: Client;
}

async function signIn(username: string): Promise<Client> {
  const client = server.client();
  const answer = await client.login(username, PROBE_PASSWORD);
  assert.equal(answer.body.data?.loginSuccess, true, `${username}: ${JSON.stringify(answer.body)}`);
  return client;
}

async function callerNamed(name: string, username: string): Promise<Caller> {
  const client = await signIn(username);
  const session = await client.get<{ user: { permissions: string[] } }>('/api/cas/session');
  return { name, username, client, permissions: session.body.data.user.permissions.map((code) => code.split('|')[0]!) };
}

before(async () => {
  server = await startServer();
  admin = await server.admin();
  sides = await seedTwoSides(server, admin);
  operations = (await readOperations(server.base)).filter((operation) => !excluded(operation));
  otherIds = [
    sides.tenantB.id,
    sides.appY.id,
    sides.userB.id,
    sides.privilegeY.id,
    sides.roleY.id,
    sides.planY.id,
    sides.messageB.id,
    sides.channel.id,
    sides.sessionB,
  ];
});
after(async () => {
  console.log(
    `isolation: ${tally.calls} calls over ${operations.length} operations × 3 callers: ${tally.refused403} refused 403, ${tally.refused404} refused 404, ` +
      `${tally.refused400} refused 400 (input), ${tally.answeredClean} answered without the other side's data, ${tally.serverErrors} answers ≥ 500`,
  );
  await server.stop();
});

/** A caller whose call ended their own session (a self-service password change) signs in again. */
async function keepSignedIn(caller: Caller): Promise<void> {
  if ((await caller.client.get('/api/cas/session')).status === 200) return;
  caller.client = await signIn(caller.username);
}

async function probe(caller: Caller, operation: Operation): Promise<void> {
  const path = fillPath(operation.path, (name) => otherSideParam(sides, operation.path, name)) + otherSideQuery(operation);
  const body = operation.multipart ? new FormData() : changesState(operation) ? otherSideBody(sides, operation, PROBE_PASSWORD) : undefined;
  const before = await snapshots(server.app, otherIds);
  const response = await caller.client.raw(operation.method, path, body);
  const text = await response.text();
  tally.calls += 1;
  const where = `${caller.name}: ${operation.method} ${operation.path} → ${response.status} ${text.slice(0, 300)}`;
  if (response.status >= 500) tally.serverErrors += 1;
  for (const marker of sides.markers) assert.ok(!text.includes(marker), `the other side's data (${marker}) in the answer: ${where}`);
  const after = await snapshots(server.app, otherIds);
  assert.equal(after.theirs, before.theirs, `the other side's records changed: ${where}`);

  if (!caller.permissions.includes(operation.permission)) {
    assert.equal(response.status, 403, `needs code ${operation.permission}: ${where}`);
    tally.refused403 += 1;
  } else if (operation.params.length && !SHARED_READS.has(`${operation.method} ${operation.path}`)) {
    assert.ok([403, 404].includes(response.status), `addresses the other side's record: ${where}`);
    tally[response.status === 403 ? 'refused403' : 'refused404'] += 1;
  } else if (response.status < 300) {
    if (changesState(operation)) assert.ok(SELF_SERVICE.has(`${operation.method} ${operation.path}`), `a write without a path id went through: ${where}`);
    tally.answeredClean += 1;
  } else {
    assert.ok(response.status >= 400 && response.status < 500, where);
    tally[response.status === 400 ? 'refused400' : response.status === 404 ? 'refused404' : 'refused403'] += 1;
  }
  if (response.status >= 300 && changesState(operation)) assert.deepEqual(after.whole, before.whole, `a refused call changed stored data: ${where}`);
  await keepSignedIn(caller);
}

describe('tenant isolation over every operation', () => {
  test('the document lists the calls, each addressable with a fixture of the other side', () => {
    assert.ok(operations.length >= 70, `only ${operations.length} operations`);
    for (const operation of operations) for (const name of operation.params) assert.ok(otherSideParam(sides, operation.path, name));
  });

  for (const [name, username] of [
    ['tenant administrator of A', 'tenantAdmin'],
    ['app administrator of X', 'appAdmin'],
    ['member of A', 'member'],
  ] as const) {
    test(`${name}: refused or scoped on every call with side B/Y's ids`, async () => {
      const caller = await callerNamed(name, sides[username]);
      for (const operation of operations) await probe(caller, operation);
    });
  }

  test('a plain member is refused every operation that needs more than self-service', async () => {
    const member = await callerNamed('member', sides.member);
    assert.deepEqual(member.permissions, [Permission.SelfService]);
    const adminOnly = operations.filter((operation) => operation.permission !== '0');
    assert.ok(adminOnly.length >= 50, `only ${adminOnly.length} administrative operations`);
    const before = await snapshot(server.app);
    for (const operation of adminOnly) {
      // Ids of the member's own side this time: refused for the permission, not for the scope.
      const path = fillPath(operation.path, (param) =>
        param === 'appId'
          ? sides.appX.id
          : param === 'id' && operation.path.startsWith('/api/tenants/')
            ? sides.tenantA.id
            : otherSideParam(sides, operation.path, param),
      );
      const answer = await member.client.request(operation.method, path, changesState(operation) ? {} : undefined);
      assert.equal(answer.status, 403, `${operation.method} ${operation.path} → ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
      assert.equal(answer.body.code, 403);
    }
    assert.deepEqual(await snapshot(server.app), before);
  });
});
