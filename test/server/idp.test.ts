// Third-party sign-in: access info and complement (§7 /interaction/idp/… calls).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type Client, type TestServer } from './harness';
import { createIdpTicket } from '../../server/auth/third-party';

let server: TestServer;
let admin: Client;
before(async () => {
  server = await startServer();
  admin = await server.admin();
  const created = await admin.post('/api/idps', { code: 'corp', name: 'Corp SSO', type: 'OIDC', config: { issuer: 'https://sso.example.com', clientSecret: 'hidden' } });
  assert.equal(created.status, 200, JSON.stringify(created.body));
});
after(async () => { await server.stop(); });

const infoPath = (token: string, ticket: string, code = 'corp') => `/api/interaction/idp/${code}/authorize/user/access/info/${token}?access_ticket=${ticket}`;
const complementPath = (ticket: string, code = 'corp') => `/api/interaction/idp/${code}/authorize/after/user/complement?access_ticket=${ticket}`;

test('the sign-in page lists enabled providers without their secrets', async () => {
  const list = await server.client().get<{ code: string }[]>('/api/idps');
  assert.deepEqual(list.body.data.map((idp) => idp.code), ['corp']);
  assert.ok(!JSON.stringify(list.body).includes('hidden'));
  assert.equal((await admin.post('/api/idps', { code: 'corp', name: 'Again', type: 'OIDC', config: {} })).status, 400);
});

test('a first-time user completes their data once, then signs in straight away', async () => {
  const first = await createIdpTicket(server.app.ctx, { idpCode: 'corp', subject: 'sub-1', profile: { email: 'jo@example.com', name: 'Jo' } });
  const client = server.client();
  const info = await client.get<{ needComplement: boolean; complement: { email: string } }>(infoPath(first.token, first.accessTicket));
  assert.equal(info.status, 200);
  assert.equal(info.body.data.needComplement, true);
  assert.equal(info.body.data.complement.email, 'jo@example.com');
  assert.equal((await client.get(infoPath('wrong-token-xyz', first.accessTicket))).status, 404);
  assert.equal((await client.get(infoPath(first.token, first.accessTicket, 'other'))).status, 404);

  const missing = await client.post<{ fields: { field: string }[] }>(complementPath(first.accessTicket), {});
  assert.deepEqual(missing.body.data.fields.map((entry) => entry.field), ['username', 'realName']);
  const done = await client.post<{ loginSuccess: boolean }>(complementPath(first.accessTicket), { username: 'jo-sso', realName: 'Jo_Sso', email: 'jo@example.com' });
  assert.equal(done.body.data.loginSuccess, true, JSON.stringify(done.body));
  const session = await client.get<{ user: { username: string; permissions: string[] } }>('/api/cas/session');
  assert.equal(session.body.data.user.username, 'jo-sso');
  assert.deepEqual(session.body.data.user.permissions, ['0']);
  assert.equal((await client.post(complementPath(first.accessTicket), { username: 'jo-sso2', realName: 'Jo_Sso' })).status, 404, 'a ticket works once');

  const second = await createIdpTicket(server.app.ctx, { idpCode: 'corp', subject: 'sub-1', profile: {} });
  const again = server.client();
  const linked = await again.get<{ needComplement: boolean }>(infoPath(second.token, second.accessTicket));
  assert.equal(linked.body.data.needComplement, false);
  const signedIn = await again.post<{ loginSuccess: boolean }>(complementPath(second.accessTicket), {});
  assert.equal(signedIn.body.data.loginSuccess, true);
  assert.equal((await again.get<{ user: { username: string } }>('/api/cas/session')).body.data.user.username, 'jo-sso');
});

test('expired tickets and removed providers answer 404', async () => {
  const ticket = await createIdpTicket(server.app.ctx, { idpCode: 'corp', subject: 'sub-2', profile: {} });
  server.clock.advance(11 * 60_000);
  assert.equal((await server.client().get(infoPath(ticket.token, ticket.accessTicket))).status, 404);
  admin = await server.admin();
  const fresh = await createIdpTicket(server.app.ctx, { idpCode: 'corp', subject: 'sub-3', profile: {} });
  assert.equal((await admin.delete('/api/idps/corp')).status, 200);
  assert.equal((await server.client().get(infoPath(fresh.token, fresh.accessTicket))).status, 404);
});
