// Public clients (single-page and native apps): switched per app by its administrators, no secret
// (token_endpoint_auth_method none, the old secret revoked), PKCE always, refresh tokens that rotate
// within a shorter life, no client_credentials, introspection or trust; CORS at the provider only for
// the origins of an app's registered redirect URIs (server/oidc/cors.ts, public-clients.ts).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import { startServer, type Client, type TestServer, signedInPerson } from './harness';
import { RelyingParty } from './oidc-rp';
import { oidcDb } from '../../server/oidc/tables';
import { PUBLIC_REFRESH_TOKEN_TTL } from '../../server/oidc/public-clients';

const SPA = 'https://spa.example';
const FORGED = 'https://spa.example.evil';
const offline = { prompt: 'consent' };

let server: TestServer;
let admin: Client;
/** A public client (its redirect URI on SPA), and a confidential one. */
let spa: RelyingParty;
let wiki: RelyingParty;
let serial = 0;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  spa = await RelyingParty.registerPublic(server, admin, 'Spa', `${SPA}/callback`);
  wiki = await RelyingParty.register(server, admin, 'Wiki', 'https://wiki.example/callback');
});
after(async () => {
  await server.stop();
});

/** A person signed in to the console in a browser of their own. */
async function person(): Promise<Client> {
  return (await signedInPerson(server, admin, { username: `spa-person-${++serial}`, realName: 'Spa_Person' })).browser;
}

interface ClientStatus {
  clientType: string;
  hasSecret: boolean;
  rotatedAt: number | null;
  clientCredentials: boolean;
  trusted: boolean;
}

const fieldsOf = (data: unknown) => (data as { fields: { field: string; rule: string }[] }).fields;

const put = (appId: string, body: Record<string, unknown>) => admin.put<ClientStatus>(`/api/apps/${appId}/oidc-client`, body);

/** The token endpoint's answer to a form, with optional headers (an Origin, Basic credentials). */
async function tokenCall(form: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(spa.as.token_endpoint!, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

/** A code for the public client (the browser allows it on the consent page), with its verifier. */
async function spaCode(browser: Client, scope = 'openid'): Promise<{ code: string; verifier: string }> {
  const request = await spa.authorization(scope);
  let { url } = await spa.follow(browser, request.url);
  if (url.pathname === '/oauth/authorize') {
    const allowed = await browser.post<{ redirectURL: string }>(`/api/sso/interactions/${url.searchParams.get('uid')}`, { allow: true });
    ({ url } = await spa.follow(browser, allowed.body.data.redirectURL));
  }
  const code = url.searchParams.get('code');
  assert.ok(code, `no code: ${url.href}`);
  return { code, verifier: request.verifier };
}

const codeForm = (code: string, extra: Record<string, string> = {}) => ({
  grant_type: 'authorization_code',
  code,
  redirect_uri: spa.callback,
  client_id: spa.appId,
  ...extra,
});

describe('switching the client type', () => {
  test('discovery lists none among the token endpoint auth methods; the public client has no secret', async () => {
    assert.ok(spa.as.token_endpoint_auth_methods_supported?.includes('none'));
    assert.ok(spa.as.token_endpoint_auth_methods_supported?.includes('client_secret_basic'));
    const status = (await admin.get<ClientStatus>(`/api/apps/${spa.appId}/oidc-client`)).body.data;
    assert.deepEqual([status.clientType, status.hasSecret, status.rotatedAt], ['public', false, null]);
    const secret = await admin.post(`/api/apps/${spa.appId}/oidc-client/secret`);
    assert.equal(secret.status, 409, JSON.stringify(secret.body));
    assert.match(secret.body.message, /public client has no secret/);
  });

  test('to public revokes the secret, machine access and trust and ends its grants, audited; back to confidential needs a new secret', async () => {
    const app = await RelyingParty.register(server, admin, `Switched`, 'https://switched.example/callback');
    assert.equal((await put(app.appId, { clientCredentials: true, trusted: true })).status, 200);
    assert.ok('access_token' in (await app.machineToken()), 'machine access while confidential');

    const switched = await put(app.appId, { clientType: 'public' });
    assert.equal(switched.status, 200, JSON.stringify(switched.body));
    assert.deepEqual(
      [switched.body.data.clientType, switched.body.data.hasSecret, switched.body.data.clientCredentials, switched.body.data.trusted],
      ['public', false, false, false],
    );
    // The old secret proves nothing any more.
    const basic = `Basic ${Buffer.from(`${encodeURIComponent(app.appId)}:${encodeURIComponent(app.secret!)}`).toString('base64')}`;
    const machine = await tokenCall({ grant_type: 'client_credentials' }, { authorization: basic });
    assert.equal(machine.status, 401, JSON.stringify(machine.body));
    assert.equal(machine.body.error, 'invalid_client');
    const audit = await server.app.ctx.db
      .selectFrom('auditLog')
      .select(['detail', 'actorName'])
      .where('action', '=', 'app.update')
      .where('targetId', '=', app.appId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    assert.equal(audit.actorName, 'admin');
    assert.deepEqual(JSON.parse(audit.detail), { clientType: 'public', clientSecret: 'revoked', clientCredentials: false, trusted: false, grantsEnded: 0 });

    const back = await put(app.appId, { clientType: 'confidential' });
    assert.deepEqual([back.body.data.clientType, back.body.data.hasSecret], ['confidential', false]);
    // No client until a secret is generated: the provider does not know it.
    const refused = await app.follow(await person(), (await app.authorization()).url);
    assert.equal(refused.response.status, 400, await refused.response.clone().text());
    const secret = await admin.post<{ clientSecret: string }>(`/api/apps/${app.appId}/oidc-client/secret`);
    assert.equal(secret.status, 200);
    assert.equal((await admin.get<ClientStatus>(`/api/apps/${app.appId}/oidc-client`)).body.data.hasSecret, true);
  });

  test('machine access and trust are refused for a public client with a clear 400, nothing changed', async () => {
    for (const body of [{ clientCredentials: true }, { trusted: true }, { clientCredentials: true, trusted: true }]) {
      const answer = await put(spa.appId, body);
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.match(answer.body.message, /public client .* cannot use client_credentials nor be trusted/);
      assert.deepEqual(
        fieldsOf(answer.body.data),
        Object.keys(body).map((field) => ({ field, rule: 'rule.publicClient' })),
      );
    }
    // Switching a confidential client and asking for machine access in the same call: refused whole.
    const mixed = await put(wiki.appId, { clientType: 'public', clientCredentials: true });
    assert.equal(mixed.status, 400);
    const wikiStatus = (await admin.get<ClientStatus>(`/api/apps/${wiki.appId}/oidc-client`)).body.data;
    assert.deepEqual([wikiStatus.clientType, wikiStatus.hasSecret], ['confidential', true]);
    const spaStatus = (await admin.get<ClientStatus>(`/api/apps/${spa.appId}/oidc-client`)).body.data;
    assert.deepEqual([spaStatus.clientCredentials, spaStatus.trusted], [false, false]);
    // Switching it off is not refused.
    assert.equal((await put(spa.appId, { clientCredentials: false })).status, 200);
    const chinese = await admin.put(`/api/apps/${spa.appId}/oidc-client`, { trusted: true }, { 'accept-language': 'zh-CN' });
    assert.equal(chinese.status, 400);
    assert.match(chinese.body.message, /公开客户端/);
  });

  test('an unknown client type is a 400 naming the field', async () => {
    const answer = await put(spa.appId, { clientType: 'spa' });
    assert.equal(answer.status, 400);
    assert.deepEqual(fieldsOf(answer.body.data), [{ field: 'clientType', rule: 'rule.clientType' }]);
  });
});

describe('a public client at the provider', () => {
  test('signs in with PKCE and no secret, reads userinfo, refreshes (rotated, within the shorter life), revokes', async () => {
    const browser = await person();
    const tokens = await spa.signIn(browser, 'openid profile offline_access', offline);
    assert.ok(tokens.refresh_token);
    assert.equal((await spa.userinfo(tokens.access_token)).body.name, 'Spa_Person');

    const payloads = oidcDb(server.app.ctx.db);
    const stored = async (token: string) =>
      payloads
        .selectFrom('oidcPayloads')
        .select(['expiresAt', 'payload'])
        .where('model', '=', 'RefreshToken')
        .where('id', '=', token)
        .executeTakeFirstOrThrow();
    const first = await stored(tokens.refresh_token);
    const life = (first.expiresAt! - Date.now()) / 1000;
    assert.ok(life <= PUBLIC_REFRESH_TOKEN_TTL && life > PUBLIC_REFRESH_TOKEN_TTL - 60, `refresh token lives ${life} s`);
    // An hour of its life goes by (its end moved an hour closer): the rotated token ends with it.
    const payload = JSON.parse(first.payload) as { exp: number };
    const hourCloser = { exp: payload.exp - 3600, expiresAt: first.expiresAt! - 3600_000 };
    await payloads
      .updateTable('oidcPayloads')
      .set({ payload: JSON.stringify({ ...payload, exp: hourCloser.exp }), expiresAt: hourCloser.expiresAt })
      .where('model', '=', 'RefreshToken')
      .where('id', '=', tokens.refresh_token)
      .execute();

    const refreshed = await spa.refresh(tokens.refresh_token);
    assert.ok('refresh_token' in refreshed && refreshed.refresh_token, JSON.stringify(refreshed));
    assert.notEqual(refreshed.refresh_token, tokens.refresh_token, 'rotated');
    const rotatedEnd = (await stored(refreshed.refresh_token)).expiresAt!;
    assert.ok(
      Math.abs(rotatedEnd - hourCloser.expiresAt) < 2000,
      `rotation does not extend the life: ends ${(rotatedEnd - hourCloser.expiresAt) / 1000} s later`,
    );
    // The replaced one coming back revokes the grant.
    assert.deepEqual(await spa.refresh(tokens.refresh_token), { error: 'invalid_grant' });
    assert.deepEqual(await spa.refresh(refreshed.refresh_token), { error: 'invalid_grant' });

    const again = await spa.signIn(browser, 'openid offline_access', offline);
    const revoked = await oauth.revocationRequest(spa.as, spa.client, oauth.None(), again.refresh_token!, { [oauth.allowInsecureRequests]: true });
    await oauth.processRevocationResponse(revoked);
    assert.deepEqual(await spa.refresh(again.refresh_token!), { error: 'invalid_grant' });
  });

  test('a confidential client keeps its 14-day refresh tokens', async () => {
    const tokens = await wiki.signIn(await person(), 'openid offline_access', offline);
    const row = await oidcDb(server.app.ctx.db)
      .selectFrom('oidcPayloads')
      .select('expiresAt')
      .where('id', '=', tokens.refresh_token!)
      .executeTakeFirstOrThrow();
    assert.ok(row.expiresAt! - Date.now() > 13 * 24 * 3600 * 1000);
  });

  test('no client_credentials and no introspection for a public client', async () => {
    assert.deepEqual(await spa.machineToken(), { error: 'unauthorized_client' });
    const tokens = await spa.signIn(await person(), 'openid offline_access', offline);
    for (const token of [tokens.access_token, tokens.refresh_token!]) {
      const answer = await fetch(spa.as.introspection_endpoint!, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, client_id: spa.appId }),
      });
      const body = (await answer.json()) as Record<string, unknown>;
      assert.equal(answer.status, 401, JSON.stringify(body));
      assert.equal(body.error, 'invalid_client');
      assert.equal(body.active, undefined, 'nothing about the token');
      assert.equal(body.sub, undefined, 'nothing about the token');
    }
  });

  test('an authorization request without PKCE is refused; a code without its verifier is not exchanged', async () => {
    const browser = await person();
    const request = await spa.authorization('openid');
    request.url.searchParams.delete('code_challenge');
    request.url.searchParams.delete('code_challenge_method');
    const { url } = await spa.follow(browser, request.url);
    assert.equal(url.origin + url.pathname, spa.callback);
    assert.equal(url.searchParams.get('error'), 'invalid_request');
    assert.equal(url.searchParams.get('code'), null);

    const { code } = await spaCode(browser);
    const answer = await tokenCall(codeForm(code));
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error, 'invalid_grant', JSON.stringify(answer.body));
    assert.equal(answer.body.access_token, undefined);
  });

  test("a public client's code is not exchanged with a secret, its own id beside another client's secret or another client's credentials", async () => {
    const browser = await person();
    const withOtherSecret = await spaCode(browser);
    const posted = await tokenCall(codeForm(withOtherSecret.code, { code_verifier: withOtherSecret.verifier, client_secret: wiki.secret! }));
    assert.equal(posted.status, 401, JSON.stringify(posted.body));
    assert.equal(posted.body.error, 'invalid_client');

    const asOther = await spaCode(browser);
    const basic = `Basic ${Buffer.from(`${encodeURIComponent(wiki.appId)}:${encodeURIComponent(wiki.secret!)}`).toString('base64')}`;
    const { client_id: _ownId, ...form } = codeForm(asOther.code, { code_verifier: asOther.verifier });
    const other = await tokenCall(form, { authorization: basic });
    assert.equal(other.status, 400, JSON.stringify(other.body));
    assert.equal(other.body.error, 'invalid_grant');
    assert.equal(other.body.access_token, undefined);
    // The refused attempts got nothing; the app itself still exchanges its codes.
    for (const { code, verifier } of [withOtherSecret, asOther]) {
      const own = await tokenCall(codeForm(code, { code_verifier: verifier }));
      assert.equal(own.status, 200, JSON.stringify(own.body));
    }
  });
});

describe('CORS at the provider', () => {
  const allowOrigin = (headers: Headers) => headers.get('access-control-allow-origin');
  const preflight = (url: string, origin: string) =>
    fetch(url, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });

  test("the token, userinfo and revocation endpoints answer the public client's redirect origin", async () => {
    const tokens = await spa.signIn(await person(), 'openid offline_access', offline);
    for (const url of [spa.as.token_endpoint!, spa.as.revocation_endpoint!, spa.as.userinfo_endpoint!]) {
      const answer = await preflight(url, SPA);
      assert.equal(answer.status, 204, url);
      assert.equal(allowOrigin(answer.headers), SPA, url);
    }
    const refreshed = await tokenCall({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: spa.appId }, { origin: SPA });
    assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
    assert.equal(allowOrigin(refreshed.headers), SPA);
    const userinfo = await fetch(spa.as.userinfo_endpoint!, { headers: { origin: SPA, authorization: `Bearer ${refreshed.body.access_token as string}` } });
    assert.equal(userinfo.status, 200);
    assert.equal(allowOrigin(userinfo.headers), SPA);
    const revoked = await fetch(spa.as.revocation_endpoint!, {
      method: 'POST',
      headers: { origin: SPA, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: refreshed.body.refresh_token as string, client_id: spa.appId }),
    });
    assert.equal(revoked.status, 200);
    assert.equal(allowOrigin(revoked.headers), SPA);
  });

  test('a forged Origin gets no CORS headers, and the client endpoints refuse the call', async () => {
    const tokens = await spa.signIn(await person(), 'openid offline_access', offline);
    const refresh = await tokenCall({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: spa.appId }, { origin: FORGED });
    assert.equal(refresh.status, 400, JSON.stringify(refresh.body));
    assert.equal(allowOrigin(refresh.headers), null);
    // The token was not used up by the refused call.
    assert.ok('access_token' in (await spa.refresh(tokens.refresh_token!)));
    for (const origin of [FORGED, 'null', 'http://spa.example', `${SPA}:8443`]) {
      const userinfo = await fetch(spa.as.userinfo_endpoint!, { headers: { origin, authorization: `Bearer ${tokens.access_token}` } });
      assert.equal(allowOrigin(userinfo.headers), null, origin);
      const revoked = await fetch(spa.as.revocation_endpoint!, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: tokens.access_token, client_id: spa.appId }),
      });
      assert.equal(allowOrigin(revoked.headers), null, origin);
      for (const url of [spa.as.jwks_uri!, `${spa.as.issuer}/.well-known/openid-configuration`]) {
        const open = await fetch(url, { headers: { origin } });
        assert.equal(open.status, 200);
        assert.equal(allowOrigin(open.headers), null, `${url} ${origin}`);
        const flight = await fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'GET' } });
        assert.equal(allowOrigin(flight.headers), null, `${url} ${origin} preflight`);
      }
    }
    // The access token still works: the refused revocations did nothing.
    assert.equal((await spa.userinfo(tokens.access_token)).status, 200);
  });

  test('discovery and the JWKS answer registered origins only', async () => {
    for (const url of [spa.as.jwks_uri!, `${spa.as.issuer}/.well-known/openid-configuration`]) {
      const answer = await fetch(url, { headers: { origin: SPA } });
      assert.equal(allowOrigin(answer.headers), SPA, url);
    }
  });

  test("a confidential client's origin is not let in at the token endpoint; the console's API keeps its own CORS list", async () => {
    const tokens = await wiki.signIn(await person(), 'openid offline_access', offline);
    const basic = `Basic ${Buffer.from(`${encodeURIComponent(wiki.appId)}:${encodeURIComponent(wiki.secret!)}`).toString('base64')}`;
    const refreshed = await tokenCall(
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! },
      { origin: 'https://wiki.example', authorization: basic },
    );
    assert.equal(allowOrigin(refreshed.headers), null);
    assert.equal(refreshed.status, 400);
    const api = await fetch(`${server.base}/api/config`, { headers: { origin: SPA } });
    assert.equal(api.status, 200);
    assert.equal(allowOrigin(api.headers), null);
  });
});
