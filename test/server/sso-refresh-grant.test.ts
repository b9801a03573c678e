// The refresh grant of a confidential app with its secret in the Authorization header is answered by
// the server itself (server/oidc/refresh-grant.ts), the same grant with the secret in the body by
// oidc-provider: both answers, the ID tokens' claims and the tokens stored are held equal here, for
// a person with every claim scope, an app with back-channel logout (`sid`) and a nonce. Every
// request of another shape goes to the provider, which reads the body the server read to tell.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import { ok, signedInPerson, startServer, transform, type Client, type TestServer } from './harness';
import { RelyingParty } from './oidc-rp';
import { oidcDb } from '../../server/oidc/tables';
import { OidcProvider } from '../../server/oidc/provider';
import { withReadAhead } from '../../server/oidc/read-ahead';
import type { User } from '../../src/core/types';

let server: TestServer;
let admin: Client;
let ledger: RelyingParty;
let other: RelyingParty;
let browser: Client;
let person: User;
/** Whether the server answered each refresh grant request itself (true) or left it to the provider (false). */
const answeredByServer: boolean[] = [];
/** Off: the server's own refresh grant takes no request, every one goes through oidc-provider's pipeline. */
let fastPath = true;

const scope = 'openid offline_access profile email phone roles tenant';
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
const headerOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString()) as Record<string, unknown>;

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
  const accepts = grants.accepts.bind(grants);
  grants.accepts = (headers) => (fastPath ? accepts(headers) : undefined);
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

// A/B: every case below is sent twice, over two chains set up alike, once with the server's own
// refresh grant on and once with it off (every request then goes through oidc-provider's pipeline,
// as before server/oidc/refresh-grant.ts): the status, every header but the per-answer ones, the
// body (a success's tokens by their shape and the ID token's claims) and what the request left
// behind must be the same.

/** Headers that differ between any two answers. */
const PER_ANSWER = new Set(['date', 'content-length', 'x-request-id', 'keep-alive', 'connection']);

type Sent = { status: number; headers: Record<string, string>; body: unknown; byServer: boolean; read: boolean };

/** A token request as an app sends it: a form, the headers given (client_secret_basic unless said otherwise). */
function tokenRequest(form: string | URLSearchParams, headers: Record<string, string>): Promise<Response> {
  return fetch(ledger.as.token_endpoint!, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: String(form),
  });
}
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
const ledgerBasic = () => ({ authorization: basic(ledger.appId, ledger.secret!) });
const refreshForm = (token: string, extra: Record<string, string> = {}) => new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token, ...extra });

/** A token answer's body with each token by its shape, an ID token by its header and claims. */
function comparable(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(body).map(([name, value]) => [
      name,
      name === 'id_token' ? idToken(value as string) : name.endsWith('_token') ? `${typeof value}:${String(value).length}` : value,
    ]),
  );
}

/** The answer to `request` with the server's own refresh grant on (`fast`) or off. */
async function sent(request: () => Promise<Response>, fast: boolean): Promise<Sent & { raw: Record<string, unknown> }> {
  fastPath = fast;
  answeredByServer.length = 0;
  try {
    const response = await request();
    const headers = Object.fromEntries([...response.headers].filter(([name]) => !PER_ANSWER.has(name)));
    const raw = (await response.json()) as Record<string, unknown>;
    return { status: response.status, headers, body: comparable(raw), raw, byServer: answeredByServer[0] ?? false, read: answeredByServer.length > 0 };
  } finally {
    fastPath = true;
  }
}

/**
 * Sends the case's request over `prepare`'s setup with the server's grant on, then over a second
 * setup with it off, and requires the same answer and the same `aftermath` (what the request left:
 * whether the chain still refreshes …). Answers the server's side for the case's own assertions.
 */
async function ab<T>(
  prepare: () => Promise<T>,
  request: (setup: T) => Promise<Response>,
  aftermath: (setup: T, answer: Sent & { raw: Record<string, unknown> }) => Promise<unknown> = async () => undefined,
) {
  const [mine, theirs] = [await prepare(), await prepare()];
  const on = await sent(() => request(mine), true);
  const onAfter = await aftermath(mine, on);
  const off = await sent(() => request(theirs), false);
  const offAfter = await aftermath(theirs, off);
  assert.equal(off.byServer, false);
  const { raw: _on, byServer: _byServer, read: _read, ...onAnswer } = on;
  const { raw: _off, byServer: _offByServer, read: _offRead, ...offAnswer } = off;
  assert.deepEqual(onAnswer, offAnswer, 'the answer with the server grant on (actual) and off (expected)');
  assert.deepEqual(onAfter, offAfter, 'what the request left behind, on (actual) and off (expected)');
  return on;
}

/** A chain of the test's person: every one of them shares the person's grant with the app. */
const chain = () => ledger.signIn(browser, scope, { prompt: 'consent', nonce: 'n-0S' });
let people = 0;
/** A person of their own, signed in, with a chain of their own (a grant of their own: a case that ends it ends no other). */
async function personWithChain() {
  const { user, browser: theirs } = await signedInPerson(server, admin, { username: `ab-person-${++people}`, realName: `AB_Person_${people}` });
  return { user, browser: theirs, tokens: await ledger.signIn(theirs, scope, { prompt: 'consent' }) };
}
const ownChain = async () => (await personWithChain()).tokens;
/** Whether `token` still refreshes (its grant stands), by the provider's pipeline. */
async function refreshes(token: string | undefined): Promise<number | string> {
  if (!token) return 'none';
  const answer = await sent(() => tokenRequest(refreshForm(token), ledgerBasic()), false);
  return answer.status === 200 ? 200 : `${answer.status} ${String((answer.raw as { error?: string }).error)}`;
}
/** Sets a stored record's payload `exp` (seconds) to a past time. */
async function expire(model: string, id: string): Promise<void> {
  const db = oidcDb(server.app.ctx.db);
  const row = await db.selectFrom('oidcPayloads').select('payload').where('model', '=', model).where('id', '=', id).executeTakeFirstOrThrow();
  const payload = { ...(JSON.parse(row.payload) as Record<string, unknown>), exp: Math.floor(Date.now() / 1000) - 5 };
  await db
    .updateTable('oidcPayloads')
    .set({ payload: JSON.stringify(payload) })
    .where('model', '=', model)
    .where('id', '=', id)
    .execute();
}
const grantOf = async (refreshToken: string) =>
  (
    await oidcDb(server.app.ctx.db)
      .selectFrom('oidcPayloads')
      .select('grantId')
      .where('model', '=', 'RefreshToken')
      .where('id', '=', refreshToken)
      .executeTakeFirstOrThrow()
  ).grantId!;

test('A/B: a refresh answered by the server and by the pipeline: the same status, headers, body and ID token', async () => {
  const on = await ab(
    chain,
    (tokens) => tokenRequest(refreshForm(tokens.refresh_token!), ledgerBasic()),
    async (_tokens, answer) => [await refreshes(answer.raw.refresh_token as string)],
  );
  assert.deepEqual([on.status, on.byServer], [200, true]);
  assert.equal(on.headers['cache-control'], 'no-store');
  // client_id repeated in the body, as some apps send it.
  const again = await ab(chain, (tokens) => tokenRequest(refreshForm(tokens.refresh_token!, { client_id: ledger.appId }), ledgerBasic()));
  assert.deepEqual([again.status, again.byServer], [200, true]);
});

test('A/B: client authentication refused the same way (401 invalid_client with WWW-Authenticate, 400 for a malformed header)', async () => {
  const wrong = await ab(chain, (tokens) => tokenRequest(refreshForm(tokens.refresh_token!), { authorization: basic(ledger.appId, 'not-the-secret') }));
  assert.deepEqual([wrong.status, (wrong.raw as { error: string }).error, wrong.read], [401, 'invalid_client', true]);
  assert.match(wrong.headers['www-authenticate'] ?? '', /^Basic realm=.*error="invalid_client"/);
  const unknown = await ab(chain, (tokens) => tokenRequest(refreshForm(tokens.refresh_token!), { authorization: basic('no-such-app', 'secret') }));
  assert.deepEqual([unknown.status, (unknown.raw as { error: string }).error], [401, 'invalid_client']);
  // A public client presenting a secret it does not have.
  const publicApp = await RelyingParty.registerPublic(server, admin, 'Public_Refresh', 'http://127.0.0.1:9/public-callback');
  const asPublic = await ab(chain, (tokens) => tokenRequest(refreshForm(tokens.refresh_token!), { authorization: basic(publicApp.appId, 'any-secret') }));
  assert.deepEqual([asPublic.status, (asPublic.raw as { error: string }).error], [401, 'invalid_client']);
  for (const authorization of ['Basic !!!', `Basic ${Buffer.from('no-colon').toString('base64')}`, `Bearer ${ledger.secret!}`]) {
    const malformed = await ab(chain, (tokens) => tokenRequest(refreshForm(tokens.refresh_token!), { authorization }));
    assert.deepEqual([malformed.status, (malformed.raw as { error: string }).error], [400, 'invalid_request'], authorization);
  }
  // The secret in the header and in the body: one mechanism only.
  const twice = await ab(chain, (tokens) => tokenRequest(refreshForm(tokens.refresh_token!, { client_secret: ledger.secret! }), ledgerBasic()));
  assert.deepEqual([twice.status, (twice.raw as { error: string }).error, twice.read], [400, 'invalid_request', true]);
  // Another client_id in the body than in the header.
  const mismatch = await ab(chain, (tokens) => tokenRequest(refreshForm(tokens.refresh_token!, { client_id: 'another' }), ledgerBasic()));
  assert.deepEqual([mismatch.status, (mismatch.raw as { error: string }).error], [400, 'invalid_request']);
  // A disabled app, and an app whose secret was replaced (the old one).
  const disabledApp = async () => {
    const app = await RelyingParty.register(server, admin, `Soon_Off_${Math.random().toString(36).slice(2, 8)}`);
    const tokens = await app.signIn(browser, scope, { prompt: 'consent' });
    return { app, tokens };
  };
  const disabled = await ab(
    async () => {
      const setup = await disabledApp();
      await server.app.ctx.db.updateTable('apps').set({ status: 0 }).where('id', '=', setup.app.appId).execute();
      return setup;
    },
    ({ app, tokens }) => tokenRequest(refreshForm(tokens.refresh_token!), { authorization: basic(app.appId, app.secret!) }),
  );
  assert.deepEqual([disabled.status, (disabled.raw as { error: string }).error], [401, 'invalid_client']);
  const rotated = await ab(
    async () => {
      const setup = await disabledApp();
      await ok(admin.post(`/api/apps/${setup.app.appId}/oidc-client/secret`));
      return setup;
    },
    ({ app, tokens }) => tokenRequest(refreshForm(tokens.refresh_token!), { authorization: basic(app.appId, app.secret!) }),
  );
  assert.deepEqual([rotated.status, (rotated.raw as { error: string }).error], [401, 'invalid_client']);
});

test("A/B: a refresh token the grant refuses (unknown, expired, another app's, used, grant expired or withdrawn): the same 400 invalid_grant, the same revocation", async () => {
  const unknown = await ab(chain, () => tokenRequest(refreshForm('no-such-token'), ledgerBasic()));
  assert.deepEqual([unknown.status, (unknown.raw as { error: string }).error, unknown.read], [400, 'invalid_grant', true]);
  const expired = await ab(
    async () => {
      const tokens = await chain();
      await expire('RefreshToken', tokens.refresh_token!);
      return tokens;
    },
    (tokens) => tokenRequest(refreshForm(tokens.refresh_token!), ledgerBasic()),
  );
  assert.deepEqual([expired.status, (expired.raw as { error_description: string }).error_description], [400, 'grant request is invalid']);
  const foreign = await ab(
    () => other.signIn(browser, scope, { prompt: 'consent' }),
    (tokens) => tokenRequest(refreshForm(tokens.refresh_token!), ledgerBasic()),
  );
  assert.deepEqual([foreign.status, (foreign.raw as { error: string }).error], [400, 'invalid_grant']);
  // A replayed (already rotated) token: refused, and its grant revoked with every token of it.
  const replayed = await ab(
    async () => {
      const first = await ownChain();
      const next = await sent(() => tokenRequest(refreshForm(first.refresh_token!), ledgerBasic()), true);
      assert.equal(next.status, 200);
      return { first, next: next.raw.refresh_token as string, access: next.raw.access_token as string };
    },
    ({ first }) => tokenRequest(refreshForm(first.refresh_token!), ledgerBasic()),
    async ({ next, access }) => [await refreshes(next), (await ledger.userinfo(access)).status],
  );
  assert.deepEqual([replayed.status, (replayed.raw as { error: string }).error], [400, 'invalid_grant']);
  const grantExpired = await ab(
    async () => {
      const tokens = await ownChain();
      await expire('Grant', await grantOf(tokens.refresh_token!));
      return tokens;
    },
    (tokens) => tokenRequest(refreshForm(tokens.refresh_token!), ledgerBasic()),
  );
  assert.deepEqual([grantExpired.status, (grantExpired.raw as { error: string }).error], [400, 'invalid_grant']);
  // Consent withdrawn: the grant is gone (its tokens stay until swept).
  const withdrawn = await ab(
    async () => {
      const tokens = await ownChain();
      await oidcDb(server.app.ctx.db)
        .deleteFrom('oidcPayloads')
        .where('model', '=', 'Grant')
        .where('id', '=', await grantOf(tokens.refresh_token!))
        .execute();
      return tokens;
    },
    (tokens) => tokenRequest(refreshForm(tokens.refresh_token!), ledgerBasic()),
  );
  assert.deepEqual([withdrawn.status, (withdrawn.raw as { error: string }).error], [400, 'invalid_grant']);
  // Revoked by the app (RFC 7009).
  const revoked = await ab(
    async () => {
      const tokens = await ownChain();
      const revocation = await fetch(ledger.as.revocation_endpoint!, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...ledgerBasic() },
        body: String(new URLSearchParams({ token: tokens.refresh_token! })),
      });
      assert.equal(revocation.status, 200);
      return tokens;
    },
    (tokens) => tokenRequest(refreshForm(tokens.refresh_token!), ledgerBasic()),
  );
  assert.deepEqual([revoked.status, (revoked.raw as { error: string }).error], [400, 'invalid_grant']);
});

test('A/B: the person disabled, deleted or signed out of the console: the same refusal', async () => {
  const refresh = ({ tokens }: { tokens: { refresh_token?: string } }) => tokenRequest(refreshForm(tokens.refresh_token!), ledgerBasic());
  const disabled = await ab(async () => {
    const setup = await personWithChain();
    await server.app.ctx.db.updateTable('users').set({ availabilityStatus: 0 }).where('id', '=', setup.user.id).execute();
    return setup;
  }, refresh);
  assert.deepEqual([disabled.status, (disabled.raw as { error: string }).error, disabled.read], [400, 'invalid_grant', true]);
  const deleted = await ab(async () => {
    const setup = await personWithChain();
    await ok(admin.delete(`/api/user/${setup.user.id}`));
    return setup;
  }, refresh);
  assert.deepEqual([deleted.status, (deleted.raw as { error: string }).error], [400, 'invalid_grant']);
  const signedOut = await ab(async () => {
    const setup = await personWithChain();
    assert.equal((await setup.browser.get('/api/cas/logout')).status, 200);
    return setup;
  }, refresh);
  assert.deepEqual([signedOut.status, (signedOut.raw as { error: string }).error], [400, 'invalid_grant']);
});

test("A/B: other shapes of request (scope narrowed or widened, parameters twice or missing, another grant type, DPoP, a browser, not a form): the pipeline's answer", async () => {
  const refresh =
    (extra: Record<string, string>, headers: Record<string, string> = {}) =>
    (tokens: { refresh_token?: string }) =>
      tokenRequest(refreshForm(tokens.refresh_token!, extra), { ...ledgerBasic(), ...headers });
  const narrowed = await ab(chain, refresh({ scope: 'openid email' }));
  assert.deepEqual([narrowed.status, (narrowed.raw as { scope: string }).scope, narrowed.byServer], [200, 'openid email', false]);
  const widened = await ab(() => ledger.signIn(browser, 'openid offline_access', { prompt: 'consent' }), refresh({ scope: 'openid email' }));
  assert.deepEqual([widened.status, (widened.raw as { error: string }).error], [400, 'invalid_scope']);
  const twice = await ab(chain, (tokens) => tokenRequest(`${refreshForm(tokens.refresh_token!)}&refresh_token=${tokens.refresh_token!}`, ledgerBasic()));
  assert.deepEqual([twice.status, (twice.raw as { error: string }).error, twice.read], [400, 'invalid_request', true]);
  const missing = await ab(chain, () => tokenRequest('grant_type=refresh_token', ledgerBasic()));
  assert.deepEqual([missing.status, (missing.raw as { error: string }).error], [400, 'invalid_request']);
  const otherGrant = await ab(chain, () => tokenRequest('grant_type=password&username=a&password=b', ledgerBasic()));
  assert.deepEqual([otherGrant.status, (otherGrant.raw as { error: string }).error], [400, 'unsupported_grant_type']);
  const dpop = await ab(chain, refresh({}, { dpop: 'not.a.proof' }));
  assert.deepEqual([dpop.status, (dpop.raw as { error: string }).error, dpop.read], [400, 'invalid_dpop_proof', false]);
  const fromBrowser = await ab(chain, refresh({}, { origin: 'https://elsewhere.example' }));
  assert.deepEqual([fromBrowser.status, fromBrowser.read], [400, false], JSON.stringify(fromBrowser.raw));
  // A chain begun with DPoP (the code exchange's access token bound to a key): a confidential app's
  // refresh token is not bound, so a refresh without a proof is answered, with an unbound access token.
  const key = await oauth.generateKeyPair('ES256');
  const unproved = await ab(() => ledger.signIn(browser, scope, { prompt: 'consent' }, {}, oauth.DPoP(ledger.client, key)), refresh({}));
  assert.deepEqual([unproved.status, (unproved.raw as { token_type: string }).token_type, unproved.byServer], [200, 'Bearer', true]);
  // With a proof: the provider's (a DPoP-bound access token).
  const proved = await ab(chain, async (tokens) =>
    oauth.refreshTokenGrantRequest(ledger.as, ledger.client, oauth.ClientSecretBasic(ledger.secret!), tokens.refresh_token!, {
      [oauth.allowInsecureRequests]: true,
      DPoP: oauth.DPoP(ledger.client, key),
    }),
  );
  assert.deepEqual([proved.status, (proved.raw as { token_type: string }).token_type, proved.read], [200, 'DPoP', false]);
  const json = await ab(chain, (tokens) =>
    fetch(ledger.as.token_endpoint!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...ledgerBasic() },
      body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }),
    }),
  );
  assert.deepEqual([json.status, json.read], [400, false]);
});

test('one refresh token in two grants at once: both pass their reads, one rotates, the other finds the reuse and the grant is revoked', async () => {
  // In process, so that both requests read the token before either consumes it (the consume comes
  // after the ID token's signature, on libuv's pool): the loser is refused at the consume itself.
  // The winner's new tokens are committed with its consume, so the loser's revocation deletes them
  // (they used to be written after it, leaving the access token's row behind).
  const tokens = await ledger.signIn(browser, scope, { prompt: 'consent' });
  const body = Buffer.from(refreshForm(tokens.refresh_token!).toString());
  const headers = { ...ledgerBasic(), 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(body.length) };
  const grants = await OidcProvider.of(server.app.ctx).refreshGrants();
  const credentials = grants.accepts(headers);
  assert.ok(credentials, 'a request of the shape the server answers');
  const answers = await Promise.all([0, 1].map(() => withReadAhead(() => grants.answer(credentials, body, '127.0.0.1'))));
  const rotated = answers.filter((answer) => answer !== undefined);
  assert.deepEqual(
    rotated.map((answer) => answer.status),
    [200],
    'one rotates; the other is left to the provider (which finds the token gone with its grant)',
  );
  const winner = rotated[0]!.body as { refresh_token: string; access_token: string };
  // Under load the other request may read the token only after the winner's commit: it then finds
  // it consumed and, as in the server, leaves the request to the provider, whose reuse detection
  // revokes the grant. That request goes on to the provider here (over HTTP). When both passed their
  // reads, the loser revoked the grant at its consume, and the replay finds it gone.
  const presentedStillStored = await oidcDb(server.app.ctx.db)
    .selectFrom('oidcPayloads')
    .select('id')
    .where('model', '=', 'RefreshToken')
    .where('id', '=', tokens.refresh_token!)
    .executeTakeFirst();
  if (presentedStillStored) assert.equal((await refreshed(ledger, tokens.refresh_token!)).body.error, 'invalid_grant', 'the replay is refused');
  const again = await refreshed(ledger, winner.refresh_token);
  assert.deepEqual([again.status, again.body.error], [400, 'invalid_grant'], "the winner's refresh token died with the grant");
  const access = await oidcDb(server.app.ctx.db)
    .selectFrom('oidcPayloads')
    .select('id')
    .where('model', '=', 'AccessToken')
    .where('id', '=', winner.access_token)
    .executeTakeFirst();
  assert.equal(access, undefined, "the winner's access token too");
});
