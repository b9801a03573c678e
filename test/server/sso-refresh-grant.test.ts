// The refresh grant of a confidential app with its secret in the Authorization header is answered by
// the server itself (server/oidc/refresh-grant.ts), the same grant with the secret in the body by
// oidc-provider: both answers, the ID tokens' claims and the tokens stored are held equal here, for
// a person with every claim scope, an app with back-channel logout (`sid`) and a nonce. Every
// request of another shape goes to the provider, which reads the body the server read to tell.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import { startServer, transform, type Client, type TestServer } from './harness';
import { RelyingParty } from './oidc-rp';
import { oidcDb } from '../../server/oidc/tables';
import { OidcProvider } from '../../server/oidc/provider';
import type { User } from '../../src/core/types';

let server: TestServer;
let admin: Client;
let ledger: RelyingParty;
let other: RelyingParty;
let browser: Client;
let person: User;
/** Whether the server answered each refresh grant request itself (true) or left it to the provider (false). */
const answeredByServer: boolean[] = [];

const scope = 'openid offline_access profile email phone roles tenant';
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
const headerOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString()) as Record<string, unknown>;

async function ok<T>(answer: Promise<{ status: number; body: { data: T } }>): Promise<T> {
  const { status, body } = await answer;
  assert.equal(status, 200, JSON.stringify(body));
  return body.data;
}

before(async () => {
  // The back-channel logout URI is on 127.0.0.1: the operator allows loopback targets.
  server = await startServer({ outboundAllowPrivate: true });
  admin = await server.admin();
  ledger = await RelyingParty.register(server, admin, 'Ledger');
  other = await RelyingParty.register(server, admin, 'Other', 'http://127.0.0.1:9/other-callback');
  await ok(admin.put(`/api/apps/${ledger.appId}/oidc-client`, { backchannelLogoutUri: 'http://127.0.0.1:9/backchannel' }));
  const privilege = await ok(admin.post<{ id: string }>(`/api/apps/${ledger.appId}/privileges`, { name: 'Books', key: 'books' }));
  const role = await ok(admin.post<{ id: string }>(`/api/apps/${ledger.appId}/roles`, { name: 'Bookkeeper', description: 'Keeps the books' }));
  await ok(admin.put(`/api/apps/${ledger.appId}/roles/${role.id}/privileges`, { privilegeIds: [privilege.id] }));
  person = await ok(
    admin.post<User>('/api/user', {
      username: 'refreshed-person',
      realName: 'Refreshed_Person',
      password: transform('Secret123'),
      email: 'refreshed@example.com',
      mobilePhone: '13800000001',
    }),
  );
  await ok(admin.put(`/api/user/${person.id}/roles/${ledger.appId}`, { roleIds: [role.id] }));
  browser = server.client();
  assert.equal((await browser.login('refreshed-person', 'Secret123')).body.data?.loginSuccess, true);
  const grants = await OidcProvider.of(server.app.ctx).refreshGrants();
  const answer = grants.answer.bind(grants);
  grants.answer = async (...args) => {
    const answered = await answer(...args);
    answeredByServer.push(answered !== undefined);
    return answered;
  };
});
after(async () => {
  await server.stop();
});

/** The refresh grant's answer: status, the headers an app reads, the body. */
async function refreshed(app: RelyingParty, token: string, options: Parameters<RelyingParty['refreshResponse']>[1] = {}) {
  answeredByServer.length = 0;
  const response = await app.refreshResponse(token, options);
  const headers = Object.fromEntries(
    ['content-type', 'cache-control', 'vary', 'access-control-allow-origin', 'access-control-expose-headers'].map((name) => [name, response.headers.get(name)]),
  );
  return { status: response.status, headers, body: (await response.json()) as Record<string, unknown>, byServer: answeredByServer[0] ?? false };
}

/** A stored token's payload without what differs between two tokens issued a moment apart. */
async function stored(model: string, id: string): Promise<Record<string, unknown>> {
  const row = await oidcDb(server.app.ctx.db)
    .selectFrom('oidcPayloads')
    .select('payload')
    .where('model', '=', model)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const { jti, iat, exp, iiat, ...rest } = JSON.parse(row.payload) as Record<string, unknown>;
  assert.equal(jti, id);
  assert.ok(typeof iat === 'number' && typeof exp === 'number');
  return { ...rest, lifetime: exp - iat, iiat: iiat === undefined ? undefined : 'set' };
}

/** An ID token's header and claims without the times, and its lifetime. */
function idToken(jwt: string): { header: Record<string, unknown>; claims: Record<string, unknown> } {
  const { iat, exp, ...rest } = claimsOf(jwt);
  return { header: headerOf(jwt), claims: { ...rest, lifetime: (exp as number) - (iat as number) } };
}

test("the server's refresh grant answers what oidc-provider answers: the body, the ID token's claims, the tokens stored", async () => {
  const extra = { prompt: 'consent', nonce: 'nonce-of-the-app' };
  // Two chains of the same person, app, grant and session, refreshed one each way.
  const first = await ledger.signIn(browser, scope, extra);
  const second = await ledger.signIn(browser, scope, extra);
  const ours = await refreshed(ledger, first.refresh_token!);
  const theirs = await refreshed(ledger, second.refresh_token!, { secretInBody: true });
  assert.equal(ours.byServer, true, 'the secret in the Authorization header: answered by the server');
  assert.equal(theirs.byServer, false, 'the secret in the body: answered by oidc-provider');
  assert.equal(ours.status, 200, JSON.stringify(ours.body));
  assert.equal(theirs.status, 200, JSON.stringify(theirs.body));
  assert.deepEqual(ours.headers, theirs.headers);
  const tokens = ['access_token', 'id_token', 'refresh_token'] as const;
  const rest = (body: Record<string, unknown>) => Object.fromEntries(Object.entries(body).filter(([name]) => !(tokens as readonly string[]).includes(name)));
  assert.deepEqual(Object.keys(ours.body), Object.keys(theirs.body));
  assert.deepEqual(rest(ours.body), rest(theirs.body));
  assert.deepEqual(ours.body.scope, scope);

  const [ourId, theirId] = [idToken(ours.body.id_token as string), idToken(theirs.body.id_token as string)];
  assert.deepEqual(ourId, theirId);
  // What the comparison stands on: every claim scope's claims, the session's sid, the nonce.
  assert.equal(ourId.claims.sub, person.id);
  assert.equal(ourId.claims.email, 'refreshed@example.com');
  assert.equal(ourId.claims.phone_number, '13800000001');
  assert.equal(ourId.claims.name, 'Refreshed_Person');
  assert.deepEqual(ourId.claims.roles, ['Bookkeeper']);
  assert.ok(ourId.claims.tenant && ourId.claims.sid && ourId.claims.nonce === 'nonce-of-the-app', JSON.stringify(ourId.claims));

  for (const [model, name] of [
    ['RefreshToken', 'refresh_token'],
    ['AccessToken', 'access_token'],
  ] as const) {
    const [mine, provider] = await Promise.all([stored(model, ours.body[name] as string), stored(model, theirs.body[name] as string)]);
    assert.deepEqual(mine, provider, model);
  }
  assert.equal((await stored('RefreshToken', ours.body.refresh_token as string)).rotations, 1);

  // Both new chains go on: the server's tokens work at the provider's endpoints and the other way round.
  assert.equal((await ledger.userinfo(ours.body.access_token as string)).status, 200);
  const again = await refreshed(ledger, ours.body.refresh_token as string, { secretInBody: true });
  const andAgain = await refreshed(ledger, theirs.body.refresh_token as string);
  assert.deepEqual([again.status, andAgain.status, andAgain.byServer], [200, 200, true]);
});

test('a request of another shape goes to the provider, which reads the body the server read to tell', async () => {
  const tokens = await ledger.signIn(browser, 'openid offline_access profile', { prompt: 'consent' });
  // Another parameter (a narrower scope): the provider's answer.
  const narrower = await refreshed(ledger, tokens.refresh_token!, { parameters: { scope: 'openid' } });
  assert.deepEqual([narrower.status, narrower.body.scope, narrower.byServer], [200, 'openid', false]);
  assert.equal(claimsOf(narrower.body.id_token as string).name, undefined, 'the narrower scope, as the provider issues it');
  // Another app presenting the token (its own valid secret): the provider's refusal.
  const foreign = await refreshed(other, narrower.body.refresh_token as string);
  assert.deepEqual([foreign.status, foreign.body.error, foreign.byServer], [400, 'invalid_grant', false]);
  // A wrong secret: the provider's refusal, before any body is read.
  const wrong = await oauth.refreshTokenGrantRequest(
    ledger.as,
    ledger.client,
    oauth.ClientSecretBasic('not-the-secret'),
    narrower.body.refresh_token as string,
    {
      [oauth.allowInsecureRequests]: true,
    },
  );
  assert.equal(wrong.status, 401);
  assert.equal(((await wrong.json()) as { error: string }).error, 'invalid_client');
  // A used token: the provider refuses it and ends the grant, so its successor is refused too.
  const next = await refreshed(ledger, narrower.body.refresh_token as string);
  assert.deepEqual([next.status, next.byServer], [200, true]);
  const reused = await refreshed(ledger, narrower.body.refresh_token as string);
  assert.deepEqual([reused.status, reused.body.error, reused.byServer], [400, 'invalid_grant', false]);
  const successor = await refreshed(ledger, next.body.refresh_token as string);
  assert.deepEqual([successor.status, successor.body.error, successor.byServer], [400, 'invalid_grant', false]);
});

test('a person who may no longer sign in: the refresh goes to the provider, which refuses it', async () => {
  const created = await ok(admin.post<User>('/api/user', { username: 'soon-disabled', realName: 'Soon_Disabled', password: transform('Secret123') }));
  const theirBrowser = server.client();
  assert.equal((await theirBrowser.login('soon-disabled', 'Secret123')).body.data?.loginSuccess, true);
  const tokens = await ledger.signIn(theirBrowser, 'openid offline_access', { prompt: 'consent' });
  const before = await refreshed(ledger, tokens.refresh_token!);
  assert.deepEqual([before.status, before.byServer], [200, true]);
  // Disabled without their grants ending (as an import or a directory sync may): the person's state decides.
  await server.app.ctx.db.updateTable('users').set({ availabilityStatus: 0 }).where('id', '=', created.id).execute();
  const after = await refreshed(ledger, before.body.refresh_token as string);
  assert.deepEqual([after.status, after.body.error, after.byServer], [400, 'invalid_grant', false]);
});
