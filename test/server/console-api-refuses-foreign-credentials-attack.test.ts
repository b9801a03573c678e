// An outside attacker's view of the console API's administration calls (audit log and its export,
// settings, menu plans, user import, people): every credential that is not an administrator's
// console session — a SCIM token, an app's access, refresh or machine token, as a bearer token or in
// the session token header, and an app administrator's or a member's own session — is refused (401 or 403), never answered.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer, ok } from './harness';
import { RelyingParty, type Tokens } from './oidc-rp';

let server: TestServer;
let admin: Client;
const credentials: [string, Record<string, string>][] = [];

before(async () => {
  server = await startServer();
  admin = await server.admin();
  const root = (await ok(admin.get<{ id: string; parentId: string | null }[]>('/api/tenants/tree'))).find((row) => row.parentId === null)!;
  const scim = await ok(admin.post<{ secret: string }>('/api/scim-tokens', { tenantId: root.id, name: 'Foreign', currentPassword: transform('Admin123!') }));
  await ok(admin.post('/api/user', { username: 'foreign-member', realName: 'Member', password: transform('Member123!') }));
  const member = server.client();
  assert.equal((await member.login('foreign-member', 'Member123!')).body.data?.loginSuccess, true);
  const app = await RelyingParty.register(server, admin, 'ForeignApp');
  // An app's own administrator (no console administration rights).
  const owner = await ok(admin.post<{ id: string }>('/api/user', { username: 'foreign-owner', realName: 'Owner', password: transform('Owner123!') }));
  await ok(admin.put(`/api/apps/${app.appId}/admins`, { userIds: [owner.id] }));
  const appAdmin = server.client();
  assert.equal((await appAdmin.login('foreign-owner', 'Owner123!')).body.data?.loginSuccess, true);
  assert.equal((await admin.put(`/api/apps/${app.appId}/oidc-client`, { clientCredentials: true })).status, 200);
  // The administrator's own app tokens: an app holding them must still not act as the administrator.
  const tokens = await app.signIn(admin, 'openid offline_access', { prompt: 'consent' });
  const machine = (await app.machineToken()) as Tokens;
  for (const [name, value] of [
    ['SCIM token', scim.secret],
    ["the administrator's app access token", tokens.access_token],
    ["the administrator's app refresh token", tokens.refresh_token!],
    ['a machine token', machine.access_token],
  ] as const) {
    credentials.push([`${name} as Bearer`, { authorization: `Bearer ${value}` }]);
    credentials.push([`${name} in the token header`, { token: value }]);
  }
  credentials.push(["an app administrator's session", { cookie: [...appAdmin.cookies].map(([key, value]) => `${key}=${value}`).join('; ') }]);
  credentials.push(["a member's session", { cookie: [...member.cookies].map(([key, value]) => `${key}=${value}`).join('; ') }]);
});
after(() => server.stop());

const calls: [string, string, unknown?][] = [
  ['GET', '/api/audit'],
  ['GET', '/api/audit/export'],
  ['PUT', '/api/config', { settings: { authConfig: { authType: 'token', tokenName: 'x-stolen' } }, version: 1 }],
  ['GET', '/api/menu-plans'],
  ['POST', '/api/menu-plans', { name: 'Global menu', items: [{ name: 'Evil', path: 'https://evil.example/' }] }],
  ['GET', '/api/user'],
  ['POST', '/api/user', { username: 'foreign-made', realName: 'Made', password: transform('Secret123') }],
  ['GET', '/api/scim-tokens'],
];

test('administration calls refuse every credential but an administrator’s console session (401 or 403)', async () => {
  const answered: string[] = [];
  for (const [who, headers] of credentials) {
    for (const [method, path, body] of calls) {
      const response = await server.client().raw(method, path, body, headers);
      if (![401, 403].includes(response.status)) answered.push(`${who}: ${method} ${path} → ${response.status}`);
    }
  }
  assert.deepEqual(answered, []);
  // The same request with the administrator's cookie is answered: the refusals above are about the credential.
  const adminCookie = [...admin.cookies].map(([key, value]) => `${key}=${value}`).join('; ');
  assert.equal((await server.client().raw('GET', '/api/audit', undefined, { cookie: adminCookie })).status, 200);
  assert.equal((await admin.get<{ pager: { total: number } }>('/api/menu-plans')).body.data.pager.total, 0, 'no plan was saved');
  assert.equal((await admin.get<{ pager: { total: number } }>('/api/user?keyword=foreign-made')).status, 200);
});
