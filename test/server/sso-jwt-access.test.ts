// JWT access tokens for an app's own API: an app that switches them on gets, for its resource
// (urn:iam-console:app:<app id>), access tokens signed by the provider that its servers verify
// locally against the JWKS (here with jose, not a dependency of the server): machine tokens, and a
// person's tokens carrying, of the privilege keys the app asked, only those the person holds. An app
// that did not switch them on keeps opaque tokens and cannot ask a person's token for its resource.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { startServer, transform, type Client, type TestServer } from './harness';
import { RelyingParty } from './oidc-rp';
import type { User } from '../../src/core/types';

let server: TestServer;
let admin: Client;
let reports: RelyingParty;
let plain: RelyingParty;
let person: { user: User; browser: Client };

const resourceOf = (app: RelyingParty) => `urn:iam-console:app:${app.appId}`;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  reports = await RelyingParty.register(server, admin, 'Reports');
  plain = await RelyingParty.register(server, admin, 'Plain', 'http://127.0.0.1:9/plain-callback');
  const privileges: Record<string, string> = {};
  for (const key of ['reports_read', 'reports_export']) {
    const made = await admin.post<{ id: string }>(`/api/apps/${reports.appId}/privileges`, { name: `Privilege ${key}`, key });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    privileges[key] = made.body.data.id;
  }
  for (const app of [reports, plain]) assert.equal((await admin.put(`/api/apps/${app.appId}/oidc-client`, { clientCredentials: true })).status, 200);
  const switched = await admin.put<{ jwtAccessTokens: boolean }>(`/api/apps/${reports.appId}/oidc-client`, { jwtAccessTokens: true });
  assert.equal(switched.body.data.jwtAccessTokens, true);
  const role = await admin.post<{ id: string }>(`/api/apps/${reports.appId}/roles`, { name: 'Reader', description: 'Reads reports' });
  assert.equal(role.status, 200, JSON.stringify(role.body));
  assert.equal(
    (await admin.put(`/api/apps/${reports.appId}/roles/${role.body.data.id}/privileges`, { privilegeIds: [privileges['reports_read']] })).status,
    200,
  );
  const created = await admin.post<User>('/api/user', { username: 'jwt-reader', realName: 'Jwt_Reader', password: transform('Secret123') });
  assert.equal((await admin.put(`/api/user/${created.body.data.id}/roles/${reports.appId}`, { roleIds: [role.body.data.id] })).status, 200);
  const browser = server.client();
  assert.equal((await browser.login('jwt-reader', 'Secret123')).body.data?.loginSuccess, true);
  person = { user: created.body.data, browser };
});
after(async () => {
  await server.stop();
});

/** Verifies an access token as the app's API would: RFC 9068 type, signature, issuer, audience. */
async function verify(token: string, app: RelyingParty) {
  const { payload, protectedHeader } = await jwtVerify(token, createRemoteJWKSet(new URL(app.as.jwks_uri!)), {
    issuer: app.as.issuer,
    audience: app.appId,
    typ: 'at+jwt',
  });
  assert.equal(protectedHeader.alg, 'RS256');
  assert.equal(payload.client_id, app.appId);
  assert.ok(payload.exp! - payload.iat! <= 300, 'short-lived');
  return payload;
}

test("a machine token of an app with JWT access tokens verifies with the JWKS; another app's stays opaque", async () => {
  const machine = await reports.machineToken({ scope: 'reports_read reports_export' });
  assert.ok('access_token' in machine, JSON.stringify(machine));
  const claims = await verify(machine.access_token, reports);
  assert.equal(claims.scope, 'reports_read reports_export');
  assert.equal(claims.sub, reports.appId, 'a machine token is about the app itself');
  await assert.rejects(verify(machine.access_token, plain), 'not for another app');
  const opaque = await plain.machineToken();
  assert.ok('access_token' in opaque && opaque.access_token.split('.').length !== 3, 'opaque');
});

test("a person's token for the app's resource is a JWT with only the asked privileges they hold; without resource it stays opaque for userinfo", async () => {
  const resource = resourceOf(reports);
  const tokens = await reports.signIn(person.browser, 'openid reports_read reports_export', { resource }, { resource });
  const claims = await verify(tokens.access_token, reports);
  assert.equal(claims.sub, person.user.id);
  assert.equal(claims.scope, 'reports_read', 'reports_export is not held');
  const forUserinfo = await reports.signIn(person.browser, 'openid profile');
  assert.equal(forUserinfo.access_token.split('.').length, 1);
  assert.equal((await reports.userinfo(forUserinfo.access_token)).status, 200);
});

test('a forged or tampered token does not verify', async () => {
  const machine = await reports.machineToken({ scope: 'reports_read' });
  assert.ok('access_token' in machine);
  const [header, payload, signature] = machine.access_token.split('.');
  const widened = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), scope: 'reports_read reports_export' })).toString(
    'base64url',
  );
  await assert.rejects(verify(`${header}.${widened}.${signature}`, reports));
});

test("an app without JWT access tokens cannot ask a person's token for its resource (invalid_target)", async () => {
  const request = await plain.authorization('openid', { resource: resourceOf(plain) });
  const { url } = await plain.follow(person.browser, request.url);
  assert.equal(url.searchParams.get('error'), 'invalid_target', url.href);
});
