// The outsider's suite, authorization part: a matrix generated from the server's own route list
// (GET /api/openapi.json) × six callers — anonymous, a member, the administrator of app X only,
// the tenant administrators of A and of B, the platform administrator.
//  - Every operation of the document must be classified in RULES (and every entry there must still
//    exist): a new route without an expectation fails the first test.
//  - Anonymous: 401 on every non-public operation.
//  - Each signed-in caller calls each operation with the ids (and body references) of records out
//    of its reach: refused (403 without the permission code or for a platform-only call, 403/404
//    for an out-of-reach record), never answered with the other side's data, nothing of theirs
//    changed. Reads with ids in its reach answer nothing of the other side either.
//  - Every assignment operation (GRANT_ATTEMPTS) is tried with rights the caller does not hold
//    (refused, nothing stored) and with rights it does hold (granted), so the rule
//    "a caller can never grant a right it does not hold" (server/auth/grants.ts) is checked both ways;
//    and no administrator takes over (password, e-mail, phone) an account holding more than it does.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PROOF, transform, startServer, type Client, type TestServer, ok } from './harness';
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

/** How an operation is reached:
 *  public   — no session needed;
 *  self     — a signed-in caller acts on their own records (no path id, or their own id);
 *  scoped   — addresses or lists records of the caller's scope (reads and writes);
 *  shared   — shared reads any holder of the code may make whatever the record (menu plans);
 *  platform — the platform administrator only, whatever the record;
 *  grant    — hands out power (roles, privileges, administrator rights, menu bindings): scoped,
 *             and also tried in GRANT_ATTEMPTS. */
type Rule = 'public' | 'self' | 'scoped' | 'shared' | 'platform' | 'grant';

const RULES: Record<string, Rule> = {
  'POST /api/authc/login': 'public',
  'POST /api/authc/login/code': 'public',
  'POST /api/authc/login/step': 'public',
  'PUT /api/authc/password/expired': 'public',
  'GET /api/cas/login': 'public',
  'GET /api/cas/session/probe': 'public',
  'GET /api/cas/logout': 'public',
  'GET /api/captcha/image/display': 'public',
  'PUT /api/user/password': 'public',
  'GET /api/settings/login/public': 'public',
  'GET /api/config': 'public',
  'GET /api/file/get/{name}': 'public',
  'GET /api/idps': 'public',
  'POST /api/user/password/reset-code': 'public',
  'PUT /api/user/password/reset': 'public',
  'POST /api/verified/{code}': 'public',
  'GET /api/health/live': 'public',
  'GET /api/health/ready': 'public',
  'POST /api/authc/passkey/options': 'public',
  'POST /api/authc/passkey/login': 'public',
  'GET /api/interaction/idp/{idpCode}/authorize': 'public',
  'GET /api/interaction/idp/{idpCode}/authorize/callback': 'public',
  'GET /api/interaction/idp/{idpCode}/authorize/user/access/info/{token}': 'public',
  'POST /api/interaction/idp/{idpCode}/authorize/after/user/complement': 'public',
  'POST /api/interaction/idp/{idpCode}/authorize/after/user/link': 'public',

  'GET /api/cas/session': 'self',
  'GET /api/cas/sessions': 'self',
  'DELETE /api/cas/sessions': 'self',
  'DELETE /api/cas/sessions/{id}': 'self',
  'GET /api/user/profile': 'self',
  'PUT /api/user/profile': 'self',
  'POST /api/user/profile/contact/confirm': 'self',
  'POST /api/file/upload': 'self',
  'GET /api/license/status': 'self',
  'GET /api/menu/app/assignment/public/multi_app_menu/list': 'self',
  'GET /api/messages': 'self',
  'GET /api/messages/unread/count': 'self',
  'GET /api/messages/history': 'self',
  'PUT /api/messages/{id}/read': 'self',
  'PUT /api/messages/read': 'self',
  'DELETE /api/messages/{id}': 'self',
  'GET /api/sso/interactions/{uid}': 'self',
  'POST /api/sso/interactions/{uid}': 'self',
  'GET /api/user/totp': 'self',
  'POST /api/user/totp': 'self',
  'POST /api/user/totp/confirm': 'self',
  'POST /api/user/totp/disable': 'self',
  'POST /api/user/email/verification': 'self',
  'GET /api/user/recovery-codes': 'self',
  'POST /api/user/recovery-codes': 'self',
  'POST /api/cas/logout/everywhere': 'self',
  'GET /api/user/passkeys': 'self',
  'POST /api/user/passkeys/options': 'self',
  'POST /api/user/passkeys': 'self',
  'PUT /api/user/passkeys/{id}': 'self',
  'DELETE /api/user/passkeys/{id}': 'self',

  'DELETE /api/authc/user/{id}/login/unlock': 'scoped',
  'GET /api/user': 'scoped',
  'GET /api/user/{id}': 'scoped',
  'DELETE /api/user/{id}': 'scoped',
  'GET /api/user/{id}/basic_info': 'scoped',
  'PUT /api/user/{id}/basic_info': 'scoped',
  'POST /api/user/{id}/password': 'scoped',
  'GET /api/user/{id}/roles': 'scoped',
  'GET /api/user/{id}/sessions': 'scoped',
  'DELETE /api/user/{id}/sessions': 'scoped',
  'DELETE /api/user/{id}/sessions/{sessionId}': 'scoped',
  'POST /api/user/bulk': 'scoped',
  'GET /api/tenants': 'scoped',
  'POST /api/tenants': 'scoped',
  'GET /api/tenants/tree': 'scoped',
  'GET /api/tenants/{id}': 'scoped',
  'PUT /api/tenants/{id}': 'scoped',
  'DELETE /api/tenants/{id}': 'scoped',
  'PUT /api/tenants/{id}/parent': 'scoped',
  'GET /api/tenants/{id}/admins': 'scoped',
  'GET /api/apps': 'scoped',
  'GET /api/apps/{id}': 'scoped',
  'PUT /api/apps/{id}': 'scoped',
  'GET /api/apps/{id}/admins': 'scoped',
  'GET /api/apps/{appId}/privileges': 'scoped',
  'POST /api/apps/{appId}/privileges': 'scoped',
  'PUT /api/apps/{appId}/privileges/{id}': 'scoped',
  'DELETE /api/apps/{appId}/privileges/{id}': 'scoped',
  'PUT /api/apps/{appId}/privileges/order': 'scoped',
  'GET /api/apps/{appId}/member-lookup': 'scoped',
  'GET /api/apps/{appId}/roles': 'scoped',
  'POST /api/apps/{appId}/roles': 'scoped',
  'PUT /api/apps/{appId}/roles/{id}': 'scoped',
  'DELETE /api/apps/{appId}/roles/{id}': 'scoped',
  'GET /api/apps/{appId}/roles/{id}/privileges': 'scoped',
  'GET /api/apps/{appId}/roles/{id}/members': 'scoped',
  'GET /api/menu-plans': 'scoped',
  'GET /api/audit': 'scoped',
  'GET /api/audit/export': 'scoped',
  'GET /api/channels/options': 'scoped',
  'POST /api/messages': 'scoped',
  'GET /api/apps/{appId}/oidc-client': 'scoped',
  'PUT /api/apps/{appId}/oidc-client': 'scoped',
  'POST /api/apps/{appId}/oidc-client/secret': 'scoped',
  'GET /api/apps/{appId}/saml-provider': 'scoped',
  'PUT /api/apps/{appId}/saml-provider': 'scoped',
  'DELETE /api/apps/{appId}/saml-provider': 'scoped',
  'GET /api/saml/metadata': 'public',
  'GET /api/saml/requests/{id}': 'self',
  'POST /api/saml/requests/{id}': 'self',
  'GET /api/saml/requests/{id}/answer': 'self',
  'POST /api/saml/apps/{appId}/launch': 'self',
  'GET /api/saml/keys': 'platform',
  'POST /api/saml/keys/rotate': 'platform',
  // The identity provider's protocol endpoints (bindings: other sites' pages send the browser there).
  'GET /api/saml/sso': 'public',
  'POST /api/saml/sso': 'public',
  'GET /api/saml/slo': 'public',
  'POST /api/saml/slo': 'public',
  'GET /api/saml/logout/{chain}': 'public',
  // Directory connections (server/routes/ldap.ts): of tenants in the caller's scope.
  'GET /api/tenants/{id}/ldap': 'scoped',
  'PUT /api/tenants/{id}/ldap': 'scoped',
  'DELETE /api/tenants/{id}/ldap': 'scoped',
  'POST /api/tenants/{id}/ldap/test': 'scoped',
  'POST /api/tenants/{id}/ldap/sync': 'scoped',
  'GET /api/tenants/{id}/ldap/reports': 'scoped',
  // SCIM provisioning tokens (server/routes/scim-tokens.ts): of tenants in the caller's scope.
  'GET /api/scim-tokens': 'scoped',
  'POST /api/scim-tokens': 'scoped',
  'DELETE /api/scim-tokens/{id}': 'scoped',

  // Webhooks and user CSV import/export (server/routes/webhooks.ts, server/routes/user-import.ts).
  'GET /api/webhooks': 'scoped',
  'POST /api/webhooks': 'scoped',
  'GET /api/webhooks/{id}': 'scoped',
  'PUT /api/webhooks/{id}': 'scoped',
  'DELETE /api/webhooks/{id}': 'scoped',
  'POST /api/webhooks/{id}/secret': 'scoped',
  'POST /api/webhooks/{id}/test': 'scoped',
  'GET /api/webhooks/{id}/deliveries': 'scoped',
  'POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver': 'scoped',
  'POST /api/user/import': 'scoped',
  'GET /api/user/import/{id}': 'scoped',
  'GET /api/user/export': 'scoped',

  'GET /api/menu-plans/for/{appId}': 'shared',
  'GET /api/menu-plans/{id}': 'shared',
  'GET /api/menu-plans/{id}/privileges': 'shared',

  'POST /api/apps': 'platform',
  'DELETE /api/apps/{id}': 'platform',
  'DELETE /api/menu-plans/{id}': 'platform',
  'GET /api/settings/login': 'platform',
  'PUT /api/settings/login': 'platform',
  'PUT /api/config': 'platform',
  'GET /api/license/auth': 'platform',
  'POST /api/license/auth': 'platform',
  'GET /api/channels': 'platform',
  'POST /api/channels': 'platform',
  'PUT /api/channels/{id}': 'platform',
  'DELETE /api/channels/{id}': 'platform',
  'POST /api/channels/{id}/test': 'platform',
  'GET /api/channels/deliveries': 'platform',
  'POST /api/idps': 'platform',
  'GET /api/idps/all': 'platform',
  'DELETE /api/idps/{idpCode}': 'platform',
  'PUT /api/idps/{idpCode}': 'platform',

  'PUT /api/user/{id}/roles/{appId}': 'grant',
  'PUT /api/apps/{appId}/roles/{id}/members': 'grant',
  'PUT /api/apps/{appId}/roles/{id}/privileges': 'grant',
  'PUT /api/apps/{id}/admins': 'grant',
  'PUT /api/tenants/{id}/admins': 'grant',
  'POST /api/user': 'grant',
  'PUT /api/user/{id}': 'grant',
  'POST /api/menu-plans': 'grant',
  'PUT /api/menu-plans/{id}': 'grant',
};

const key = (operation: Operation) => `${operation.method} ${operation.path}`;

type CallerName = 'member' | 'appAdminX' | 'tenantAdminA' | 'tenantAdminB' | 'platform';

interface Caller {
  name: CallerName;
  username: string;
  password: string;
  id: string;
  permissions: string[];
  client: Client;
  /** Records out of reach, by kind; and the texts of them that must never reach the caller. */
  outside: { user: string; tenant: string; scimToken: string; webhook: string; markers: string[] };
  /** Records in reach (for reads that must still not leak the other side). */
  inside: { user: string; tenant: string; app: string; role: string; privilege: string; plan: string; webhook: string };
}

let server: TestServer;
let admin: Client;
let sides: TwoSides;
let operations: Operation[] = [];
let rootId: string;
const callers = {} as Record<CallerName, Caller>;
/** App X's own role, privilege and menu plan; tenant B's administrator. */
const x = { role: '', privilege: '', plan: '', planVersion: 0 };
let tenantAdminBId = '';

async function signIn(username: string, password: string): Promise<Client> {
  const client = server.client();
  const answer = await client.login(username, password);
  assert.equal(answer.body.data?.loginSuccess, true, `${username}: ${JSON.stringify(answer.body)}`);
  return client;
}

async function userId(username: string): Promise<string> {
  const page = await ok(admin.get<{ list: { id: string }[] }>(`/api/user?searchProp=username&searchValue=${username}`), username);
  return page.list[0]!.id;
}

async function makeCaller(name: CallerName, username: string, password: string, outside: Caller['outside'], inside: Caller['inside']): Promise<Caller> {
  const client = await signIn(username, password);
  const session = await ok(client.get<{ user: { id: string; permissions: string[] } }>('/api/cas/session'), 'session');
  return { name, username, password, id: session.user.id, client, permissions: session.user.permissions.map((code) => code.split('|')[0]!), outside, inside };
}

before(async () => {
  server = await startServer();
  admin = await server.admin();
  sides = await seedTwoSides(server, admin);
  operations = await readOperations(server.base);
  rootId = (await ok(admin.get<{ id: string; parentId: string | null }[]>('/api/tenants/tree'), 'tree')).find((row) => row.parentId === null)!.id;
  x.role = (await ok(admin.post<{ id: string }>(`/api/apps/${sides.appX.id}/roles`, { name: 'Side_X_Role' }), 'role X')).id;
  x.privilege = (await ok(admin.post<{ id: string }>(`/api/apps/${sides.appX.id}/privileges`, { name: 'Side X privilege', key: 'sidex' }), 'privilege X')).id;
  const planX = await ok(
    admin.post<{ id: string; version: number }>('/api/menu-plans', { appId: sides.appX.id, name: 'Side X plan', items: [{ name: 'X', path: '/x' }] }),
    'plan X',
  );
  Object.assign(x, { plan: planX.id, planVersion: planX.version });
  tenantAdminBId = (
    await ok(
      admin.post<{ id: string }>('/api/user', {
        username: 'zeta-tenant-admin',
        realName: 'Zeta_Admin',
        password: transform(PROBE_PASSWORD),
        tenantId: sides.tenantB.id,
        isAdmin: true,
      }),
      'tenant admin B',
    )
  ).id;
  const memberA = await userId(sides.member);
  const scimTokenA = (
    await ok(admin.post<{ token: { id: string } }>('/api/scim-tokens', { tenantId: sides.tenantA.id, name: 'Side A token', ...ADMIN_PROOF }), 'SCIM token A')
  ).token.id;
  const sideB = { user: sides.userB.id, tenant: sides.tenantB.id, scimToken: sides.scimTokenB.id, webhook: sides.webhookB.id, markers: sides.markers };
  const sideA = {
    user: memberA,
    tenant: sides.tenantA.id,
    scimToken: scimTokenA,
    webhook: sides.webhookA.id,
    markers: [
      'side-a-hook',
      'Side_A_Tenant',
      'side-a-member',
      'side-a-admin',
      'side-x-admin',
      'Side_X_Role',
      'Side A token',
      sides.tenantA.id,
      memberA,
      x.role,
      scimTokenA,
    ],
  };
  const insideA = {
    user: memberA,
    tenant: sides.tenantA.id,
    app: sides.appX.id,
    role: x.role,
    privilege: x.privilege,
    plan: x.plan,
    webhook: sides.webhookA.id,
  };
  callers.member = await makeCaller('member', sides.member, PROBE_PASSWORD, sideB, insideA);
  callers.appAdminX = await makeCaller('appAdminX', sides.appAdmin, PROBE_PASSWORD, sideB, insideA);
  callers.tenantAdminA = await makeCaller('tenantAdminA', sides.tenantAdmin, PROBE_PASSWORD, sideB, insideA);
  callers.tenantAdminB = await makeCaller('tenantAdminB', 'zeta-tenant-admin', PROBE_PASSWORD, sideA, {
    user: sides.userB.id,
    tenant: sides.tenantB.id,
    app: sides.appY.id,
    role: sides.roleY.id,
    privilege: sides.privilegeY.id,
    plan: sides.planY.id,
    webhook: sides.webhookB.id,
  });
  callers.platform = await makeCaller('platform', 'admin', 'Admin123!', { user: '-', tenant: '-', scimToken: '-', webhook: '-', markers: [] }, insideA);
});
after(async () => {
  await server.stop();
});

/** A caller whose call ended their own session (a password change) signs in again. */
async function keepSignedIn(caller: Caller): Promise<void> {
  if ((await caller.client.get('/api/cas/session')).status === 200) return;
  caller.client = await signIn(caller.username, caller.password);
}

/** The out-of-reach record of the right kind for a path parameter. */
function outsideParam(caller: Caller, operation: Operation, name: string): string {
  const value = otherSideParam(sides, operation.path, name);
  if (value === sides.userB.id) return caller.outside.user;
  if (value === sides.tenantB.id) return caller.outside.tenant;
  if (value === sides.scimTokenB.id) return caller.outside.scimToken;
  if (value === sides.webhookB.id) return caller.outside.webhook;
  return value;
}

function insideParam(caller: Caller, operation: Operation, name: string): string {
  const value = otherSideParam(sides, operation.path, name);
  const swap: Record<string, string> = {
    [sides.userB.id]: caller.inside.user,
    [sides.tenantB.id]: caller.inside.tenant,
    [sides.appY.id]: caller.inside.app,
    [sides.roleY.id]: caller.inside.role,
    [sides.privilegeY.id]: caller.inside.privilege,
    [sides.planY.id]: caller.inside.plan,
    [sides.webhookB.id]: caller.inside.webhook,
  };
  return swap[value] ?? value;
}

/** otherSideBody with its user and tenant references aimed at the caller's other side. */
function outsideBody(caller: Caller, operation: Operation): unknown {
  if (operation.multipart) return new FormData();
  if (!changesState(operation)) return undefined;
  const body = otherSideBody(sides, operation, caller.password);
  const swapped = JSON.stringify(body).replaceAll(sides.userB.id, caller.outside.user).replaceAll(sides.tenantB.id, caller.outside.tenant);
  return JSON.parse(swapped) as unknown;
}

const outsideIds = (caller: Caller) => [
  caller.outside.user,
  caller.outside.tenant,
  caller.outside.scimToken,
  caller.outside.webhook,
  sides.appY.id,
  sides.roleY.id,
  sides.privilegeY.id,
  sides.planY.id,
];

async function probeOutside(caller: Caller, operation: Operation): Promise<void> {
  const rule = RULES[key(operation)]!;
  const path = fillPath(operation.path, (name) => outsideParam(caller, operation, name)) + otherSideQuery(operation);
  const before = await snapshots(server.app, outsideIds(caller));
  const response = await caller.client.raw(operation.method, path, outsideBody(caller, operation));
  const text = await response.text();
  const where = `${caller.name}: ${operation.method} ${operation.path} → ${response.status} ${text.slice(0, 300)}`;
  assert.ok(response.status < 500, where);
  for (const marker of caller.outside.markers) assert.ok(!text.includes(marker), `out-of-reach data (${marker}) in the answer: ${where}`);
  const after = await snapshots(server.app, outsideIds(caller));
  assert.equal(after.theirs, before.theirs, `out-of-reach records changed: ${where}`);
  if (!caller.permissions.includes(operation.permission) || rule === 'platform') {
    assert.equal(response.status, 403, `needs code ${operation.permission}${rule === 'platform' ? ' and the platform administrator' : ''}: ${where}`);
  } else if (operation.params.length && rule !== 'shared') {
    assert.ok([403, 404].includes(response.status), `addresses an out-of-reach record: ${where}`);
  } else if (changesState(operation) && rule !== 'self') {
    assert.ok(response.status >= 400, `a write aimed out of reach went through: ${where}`);
  }
  if (changesState(operation) && response.status >= 300) assert.deepEqual(after.whole, before.whole, `a refused call changed stored data: ${where}`);
  await keepSignedIn(caller);
}

/** A read of records in the caller's reach still answers nothing of the other side. */
async function probeInsideRead(caller: Caller, operation: Operation): Promise<void> {
  const path = fillPath(operation.path, (name) => insideParam(caller, operation, name)) + otherSideQuery(operation);
  const response = await caller.client.raw('GET', path);
  const text = await response.text();
  const where = `${caller.name}: GET ${operation.path} (in reach) → ${response.status} ${text.slice(0, 300)}`;
  assert.ok(response.status < 500, where);
  // The member lookup searches people of every tenant for an app's administrator (a documented limit).
  if (caller.name === 'appAdminX' && operation.path.endsWith('/member-lookup')) return;
  for (const marker of caller.outside.markers) assert.ok(!text.includes(marker), `out-of-reach data (${marker}) in the answer: ${where}`);
}

interface Attempt {
  as: CallerName;
  method: 'PUT' | 'POST';
  path: string;
  body: () => Promise<unknown> | unknown;
  granted: boolean;
  why: string;
}

const version = async (path: string) => (await ok(admin.get<{ version: number }>(path), path)).version;

/** For each assignment operation: attempts beyond what the caller holds (refused) and within it (granted). */
const GRANT_ATTEMPTS = (): Record<string, Attempt[]> => {
  const a = callers.tenantAdminA;
  const memberA = callers.tenantAdminA.inside.user;
  return {
    'PUT /api/user/{id}/roles/{appId}': [
      {
        as: 'tenantAdminA',
        method: 'PUT',
        path: `/api/user/${a.id}/roles/${sides.appX.id}`,
        body: () => ({ roleIds: [x.role] }),
        granted: false,
        why: 'a tenant administrator gives itself an app role',
      },
      {
        as: 'tenantAdminA',
        method: 'PUT',
        path: `/api/user/${memberA}/roles/${sides.appY.id}`,
        body: () => ({ roleIds: [sides.roleY.id] }),
        granted: false,
        why: 'a tenant administrator gives its member a role of an app it does not administer',
      },
      {
        as: 'tenantAdminA',
        method: 'PUT',
        path: `/api/user/${memberA}/roles/${sides.appY.id}`,
        body: () => ({ roleIds: [] }),
        granted: false,
        why: 'a tenant administrator withdraws roles of an app it does not administer',
      },
      {
        as: 'tenantAdminB',
        method: 'PUT',
        path: `/api/user/${tenantAdminBId}/roles/${sides.appY.id}`,
        body: () => ({ roleIds: [sides.roleY.id] }),
        granted: false,
        why: 'tenant administrator B gives itself an app role',
      },
      {
        as: 'appAdminX',
        method: 'PUT',
        path: `/api/user/${callers.appAdminX.id}/roles/${sides.appY.id}`,
        body: () => ({ roleIds: [sides.roleY.id] }),
        granted: false,
        why: 'the administrator of app X gives itself a role of app Y',
      },
      {
        as: 'member',
        method: 'PUT',
        path: `/api/user/${callers.member.id}/roles/${sides.appX.id}`,
        body: () => ({ roleIds: [x.role] }),
        granted: false,
        why: 'a member gives itself a role',
      },
      {
        as: 'platform',
        method: 'PUT',
        path: `/api/user/${memberA}/roles/${sides.appX.id}`,
        body: () => ({ roleIds: [x.role] }),
        granted: true,
        why: 'the platform administrator grants any app role',
      },
    ],
    'PUT /api/apps/{appId}/roles/{id}/members': [
      {
        as: 'appAdminX',
        method: 'PUT',
        path: `/api/apps/${sides.appY.id}/roles/${sides.roleY.id}/members`,
        body: () => ({ userIds: [callers.appAdminX.id] }),
        granted: false,
        why: 'the administrator of app X gives itself a role of app Y',
      },
      {
        as: 'tenantAdminA',
        method: 'PUT',
        path: `/api/apps/${sides.appX.id}/roles/${x.role}/members`,
        body: () => ({ userIds: [a.id] }),
        granted: false,
        why: 'a tenant administrator gives itself an app role',
      },
      {
        as: 'member',
        method: 'PUT',
        path: `/api/apps/${sides.appX.id}/roles/${x.role}/members`,
        body: () => ({ userIds: [callers.member.id] }),
        granted: false,
        why: 'a member gives itself a role',
      },
      {
        as: 'appAdminX',
        method: 'PUT',
        path: `/api/apps/${sides.appX.id}/roles/${x.role}/members`,
        body: () => ({ userIds: [callers.appAdminX.id, memberA] }),
        granted: true,
        why: 'the administrator of app X grants roles of app X',
      },
    ],
    'PUT /api/apps/{appId}/roles/{id}/privileges': [
      {
        as: 'appAdminX',
        method: 'PUT',
        path: `/api/apps/${sides.appX.id}/roles/${x.role}/privileges`,
        body: () => ({ privilegeIds: [sides.privilegeY.id] }),
        granted: false,
        why: "app X's role given a privilege of app Y",
      },
      {
        as: 'appAdminX',
        method: 'PUT',
        path: `/api/apps/${sides.appY.id}/roles/${sides.roleY.id}/privileges`,
        body: () => ({ privilegeIds: [sides.privilegeY.id] }),
        granted: false,
        why: "app Y's role changed by the administrator of app X",
      },
      {
        as: 'tenantAdminA',
        method: 'PUT',
        path: `/api/apps/${sides.appX.id}/roles/${x.role}/privileges`,
        body: () => ({ privilegeIds: [x.privilege] }),
        granted: false,
        why: 'a tenant administrator sets role privileges',
      },
      {
        as: 'appAdminX',
        method: 'PUT',
        path: `/api/apps/${sides.appX.id}/roles/${x.role}/privileges`,
        body: () => ({ privilegeIds: [x.privilege] }),
        granted: true,
        why: 'the administrator of app X sets its privileges',
      },
    ],
    'PUT /api/apps/{id}/admins': [
      {
        as: 'appAdminX',
        method: 'PUT',
        path: `/api/apps/${sides.appX.id}/admins`,
        body: () => ({ userIds: [callers.appAdminX.id, memberA] }),
        granted: false,
        why: 'an app administrator appoints administrators',
      },
      {
        as: 'appAdminX',
        method: 'PUT',
        path: `/api/apps/${sides.appY.id}/admins`,
        body: () => ({ userIds: [callers.appAdminX.id] }),
        granted: false,
        why: 'the administrator of app X makes itself administrator of app Y',
      },
      {
        as: 'tenantAdminA',
        method: 'PUT',
        path: `/api/apps/${sides.appX.id}/admins`,
        body: () => ({ userIds: [a.id] }),
        granted: false,
        why: 'a tenant administrator makes itself app administrator',
      },
      {
        as: 'platform',
        method: 'PUT',
        path: `/api/apps/${sides.appX.id}/admins`,
        body: () => ({ userIds: [callers.appAdminX.id] }),
        granted: true,
        why: 'the platform administrator appoints app administrators',
      },
    ],
    'PUT /api/tenants/{id}/admins': [
      {
        as: 'tenantAdminA',
        method: 'PUT',
        path: `/api/tenants/${sides.tenantB.id}/admins`,
        body: () => ({ userIds: [tenantAdminBId, sides.userB.id] }),
        granted: false,
        why: 'tenant administrator A makes someone administrator of tenant B',
      },
      {
        as: 'tenantAdminA',
        method: 'PUT',
        path: `/api/tenants/${rootId}/admins`,
        body: () => ({ userIds: [] }),
        granted: false,
        why: 'tenant administrator A changes the administrators of the root',
      },
      {
        as: 'tenantAdminB',
        method: 'PUT',
        path: `/api/tenants/${sides.tenantA.id}/admins`,
        body: () => ({ userIds: [a.id, memberA] }),
        granted: false,
        why: 'tenant administrator B makes someone administrator of tenant A',
      },
      {
        as: 'member',
        method: 'PUT',
        path: `/api/tenants/${sides.tenantA.id}/admins`,
        body: () => ({ userIds: [callers.member.id, a.id] }),
        granted: false,
        why: 'a member makes itself tenant administrator',
      },
      {
        as: 'appAdminX',
        method: 'PUT',
        path: `/api/tenants/${sides.tenantA.id}/admins`,
        body: () => ({ userIds: [callers.appAdminX.id, a.id] }),
        granted: false,
        why: 'an app administrator makes itself tenant administrator',
      },
      {
        as: 'tenantAdminA',
        method: 'PUT',
        path: `/api/tenants/${sides.tenantA.id}/admins`,
        body: () => ({ userIds: [a.id] }),
        granted: true,
        why: 'tenant administrator A sets the administrators of its own tenant',
      },
    ],
    'POST /api/user': [
      {
        as: 'tenantAdminA',
        method: 'POST',
        path: '/api/user',
        body: () => ({ username: 'grant-b-admin', realName: 'Grant_User', password: transform(PROBE_PASSWORD), tenantId: sides.tenantB.id, isAdmin: true }),
        granted: false,
        why: 'tenant administrator A creates an administrator of tenant B',
      },
      {
        as: 'tenantAdminA',
        method: 'POST',
        path: '/api/user',
        body: () => ({ username: 'grant-root-admin', realName: 'Grant_User', password: transform(PROBE_PASSWORD), tenantId: rootId, isAdmin: true }),
        granted: false,
        why: 'tenant administrator A creates an administrator of the root',
      },
      {
        as: 'tenantAdminA',
        method: 'POST',
        path: '/api/user',
        body: () => ({
          username: 'grant-platform',
          realName: 'Grant_User',
          password: transform(PROBE_PASSWORD),
          tenantId: sides.tenantA.id,
          isAdmin: true,
          isMaster: true,
          extraProp: { intProperty1: 2 },
        }),
        granted: false,
        why: 'tenant administrator A creates a platform administrator',
      },
      {
        as: 'tenantAdminA',
        method: 'POST',
        path: '/api/user',
        body: () => ({ username: 'grant-a-admin', realName: 'Grant_User', password: transform(PROBE_PASSWORD), tenantId: sides.tenantA.id, isAdmin: true }),
        granted: true,
        why: 'tenant administrator A creates a co-administrator of its own tenant',
      },
    ],
    'PUT /api/user/{id}': [
      {
        as: 'tenantAdminA',
        method: 'PUT',
        path: `/api/user/${a.id}`,
        body: async () => ({ tenantId: rootId, version: await version(`/api/user/${a.id}`) }),
        granted: false,
        why: 'tenant administrator A moves itself up to the root',
      },
      {
        as: 'tenantAdminA',
        method: 'PUT',
        path: `/api/user/${a.id}`,
        body: async () => ({ isMaster: true, extraProp: { intProperty1: 2 }, version: await version(`/api/user/${a.id}`) }),
        granted: false,
        why: 'tenant administrator A makes itself platform administrator',
      },
      {
        as: 'tenantAdminA',
        method: 'PUT',
        path: `/api/user/${memberA}`,
        body: async () => ({ tenantId: sides.tenantB.id, isAdmin: true, version: await version(`/api/user/${memberA}`) }),
        granted: false,
        why: 'tenant administrator A makes its member administrator of tenant B',
      },
      {
        as: 'tenantAdminB',
        method: 'PUT',
        path: `/api/user/${memberA}`,
        body: async () => ({ isAdmin: true, version: await version(`/api/user/${memberA}`) }),
        granted: false,
        why: 'tenant administrator B makes a member of A administrator',
      },
    ],
    'POST /api/menu-plans': [
      {
        as: 'tenantAdminA',
        method: 'POST',
        path: '/api/menu-plans',
        body: () => ({ name: 'Grant global', items: [{ name: 'Bound', path: '/bound', privilegeId: x.privilege }] }),
        granted: false,
        why: 'a tenant administrator binds menu items',
      },
    ],
    'PUT /api/menu-plans/{id}': [
      {
        as: 'tenantAdminA',
        method: 'PUT',
        path: `/api/menu-plans/${x.plan}`,
        body: async () => ({ items: [{ name: 'Bound', path: '/bound', privilegeId: x.privilege }], version: await version(`/api/menu-plans/${x.plan}`) }),
        granted: false,
        why: 'a tenant administrator rebinds a menu plan',
      },
      {
        as: 'platform',
        method: 'PUT',
        path: `/api/menu-plans/${x.plan}`,
        body: async () => ({ items: [{ name: 'Bound', path: '/bound', privilegeId: x.privilege }], version: await version(`/api/menu-plans/${x.plan}`) }),
        granted: true,
        why: 'the platform administrator binds menu items',
      },
    ],
  };
};

describe("the outsider's authorization matrix", () => {
  test('every operation of the document has an expectation, and every expectation an operation', () => {
    assert.ok(operations.length >= 100, `only ${operations.length} operations`);
    const listed = operations.map(key);
    assert.deepEqual(
      listed.filter((name) => !(name in RULES)),
      [],
      'operations without an expectation in RULES',
    );
    assert.deepEqual(
      Object.keys(RULES).filter((name) => !listed.includes(name)),
      [],
      'expectations of operations that no longer exist',
    );
    for (const operation of operations) {
      assert.equal(RULES[key(operation)] === 'public', operation.permission === 'public', `${key(operation)}: the document and RULES disagree on public`);
    }
    const attempts = GRANT_ATTEMPTS();
    const grants = Object.keys(RULES).filter((name) => RULES[name] === 'grant');
    assert.deepEqual(
      grants.filter((name) => !attempts[name]?.length),
      [],
      'assignment operations without attempts',
    );
  });

  test('anonymous: 401 on every operation that needs a session', async () => {
    const anonymous = server.client();
    for (const operation of operations.filter((candidate) => candidate.permission !== 'public')) {
      const path = fillPath(operation.path, (name) => otherSideParam(sides, operation.path, name));
      const answer = await anonymous.raw(operation.method, path, operation.multipart ? new FormData() : changesState(operation) ? {} : undefined);
      assert.equal(answer.status, 401, `${key(operation)} → ${answer.status} ${(await answer.text()).slice(0, 200)}`);
    }
  });

  for (const name of ['member', 'appAdminX', 'tenantAdminA', 'tenantAdminB'] as const) {
    test(`${name}: refused on every operation aimed out of reach; reads in reach leak nothing`, async () => {
      const caller = callers[name];
      for (const operation of operations.filter((candidate) => RULES[key(candidate)] !== 'public')) {
        await probeOutside(caller, operation);
        if (!changesState(operation) && caller.permissions.includes(operation.permission)) await probeInsideRead(caller, operation);
      }
    });
  }

  test('platform administrator: every read answers', async () => {
    const caller = callers.platform;
    for (const operation of operations.filter((candidate) => RULES[key(candidate)] !== 'public' && !changesState(candidate))) {
      const path = fillPath(operation.path, (param) => insideParam(caller, operation, param)) + otherSideQuery(operation);
      const answer = await caller.client.raw('GET', path);
      assert.ok(answer.status < 500, `${key(operation)} → ${answer.status}`);
    }
  });

  test('no caller grants a right it does not hold; each grants what it holds', async () => {
    const failures: string[] = [];
    for (const [operation, attempts] of Object.entries(GRANT_ATTEMPTS())) {
      for (const attempt of attempts) {
        const caller = callers[attempt.as];
        const body = await attempt.body();
        const before = await snapshot(server.app);
        const answer = await caller.client.request(attempt.method, attempt.path, body);
        const where = `${operation} — ${attempt.why}: ${attempt.as} → ${answer.status} ${JSON.stringify(answer.body).slice(0, 160)}`;
        if (attempt.granted) {
          if (answer.status !== 200) failures.push(`not granted: ${where}`);
        } else if (![403, 404].includes(answer.status) || answer.body.code !== answer.status) {
          failures.push(`granted beyond its rights: ${where}`);
        } else if (JSON.stringify(await snapshot(server.app)) !== JSON.stringify(before)) {
          failures.push(`a refused grant changed stored data: ${where}`);
        }
      }
    }
    assert.deepEqual(failures, []);
  });

  test('no administrator takes over an account that administers apps it does not', async () => {
    const target = callers.appAdminX.id;
    const tenantAdmin = callers.tenantAdminA.client;
    const current = async () => ({ version: await version(`/api/user/${target}`) });
    const before = await snapshot(server.app);
    const refused = [
      await tenantAdmin.post(`/api/user/${target}/password`, { id: target, password: transform('Taken0ver1'), opUserPassword: transform(PROBE_PASSWORD) }),
      await tenantAdmin.put(`/api/user/${target}/basic_info`, { realName: 'Probe_User', email: 'taken@over.example', ...(await current()) }),
      await tenantAdmin.put(`/api/user/${target}`, { mobilePhone: '13800000000', ...(await current()) }),
    ];
    assert.deepEqual(
      refused.map((answer) => answer.status),
      [403, 403, 403],
      JSON.stringify(refused.map((answer) => answer.body)),
    );
    assert.match(refused[0]!.body.message, /administers apps you do not/);
    assert.deepEqual(await snapshot(server.app), before);
    // Nor changes anything else about them (server/auth/grants.ts, assertMayActOn); the platform does.
    assert.equal((await tenantAdmin.put(`/api/user/${target}`, { realName: 'Renamed_Admin', ...(await current()) })).status, 403, 'rename');
    await ok(
      callers.platform.client.put(`/api/user/${target}/basic_info`, {
        realName: 'Renamed_Admin',
        email: 'x-admin@example.com',
        currentPassword: transform(callers.platform.password),
        ...(await current()),
      }),
      'platform',
    );
  });

  test("an app's client type (public: no secret) is switched only by who manages the app", async () => {
    const clientType = async (appId: string) => (await ok(admin.get<{ clientType: string }>(`/api/apps/${appId}/oidc-client`), 'client')).clientType;
    const path = (appId: string) => `/api/apps/${appId}/oidc-client`;
    const before = await snapshot(server.app);
    assert.equal((await server.client().raw('PUT', path(sides.appX.id), { clientType: 'public' })).status, 401, 'anonymous');
    const refused: [CallerName, string][] = [
      ['member', sides.appX.id],
      ['tenantAdminA', sides.appX.id],
      ['tenantAdminB', sides.appY.id],
      ['appAdminX', sides.appY.id],
    ];
    for (const [name, appId] of refused) {
      const answer = await callers[name].client.put(path(appId), { clientType: 'public' });
      assert.ok([403, 404].includes(answer.status), `${name} → ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    assert.deepEqual(await snapshot(server.app), before, 'a refused switch changed stored data');
    assert.deepEqual([await clientType(sides.appX.id), await clientType(sides.appY.id)], ['confidential', 'confidential']);
    for (const [name, appId] of [
      ['appAdminX', sides.appX.id],
      ['platform', sides.appY.id],
    ] as const) {
      for (const type of ['public', 'confidential']) {
        await ok(callers[name].client.put(path(appId), { clientType: type }), `${name} switches ${appId} to ${type}`);
        assert.equal(await clientType(appId), type);
      }
    }
  });

  test('the roles of a person list only the apps the caller administers', async () => {
    const memberA = callers.tenantAdminA.inside.user;
    const appsSeen = async (client: Client) => (await ok(client.get<{ appId: string }[]>(`/api/user/${memberA}/roles`), 'roles')).map((entry) => entry.appId);
    assert.deepEqual(await appsSeen(callers.tenantAdminA.client), [], 'a tenant administrator administers no app');
    assert.deepEqual((await appsSeen(callers.platform.client)).sort(), [sides.appX.id, sides.appY.id].sort());
  });
});
