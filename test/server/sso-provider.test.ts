// The provider as app developers meet it: discovery advertises only what works, response_mode=
// form_post gets through the Content-Security-Policy, post-logout redirect URIs are registered per
// app and RP-initiated logout (confirmed by the person) ends the console session too, and expired
// records are swept in bounded batches.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, startServer, type Client, type TestServer, signedInPerson } from './harness';
import { RelyingParty } from './oidc-rp';
import { oidcDb } from '../../server/oidc/tables';
import { SWEEP_BATCH, sweepExpired } from '../../server/oidc/sweep';

let server: TestServer;
let admin: Client;
let wiki: RelyingParty;
let serial = 0;
const afterLogout = 'http://127.0.0.1:9/signed-out';

before(async () => {
  server = await startServer();
  admin = await server.admin();
  wiki = await RelyingParty.register(server, admin, 'Wiki');
});
after(async () => {
  await server.stop();
});

async function person() {
  return (await signedInPerson(server, admin, { username: `provider-person-${++serial}`, realName: 'Provider_Person' })).browser;
}

const directives = (response: Response) => (response.headers.get('content-security-policy') ?? '').split(';').map((part) => part.trim());

test('discovery advertises only the code flow, refresh, client credentials, client secrets and none (public clients)', async () => {
  const document = (await (await fetch(`${server.base}/api/oidc/.well-known/openid-configuration`)).json()) as Record<string, string[]>;
  assert.deepEqual(document.response_types_supported, ['code']);
  assert.deepEqual([...document.grant_types_supported!].sort(), ['authorization_code', 'client_credentials', 'refresh_token']);
  assert.deepEqual(document.token_endpoint_auth_methods_supported, ['client_secret_basic', 'client_secret_post', 'none']);
  assert.ok(document.response_modes_supported!.includes('form_post'));
});

describe('response_mode=form_post', () => {
  test('the auto-submitted page may post to the registered redirect URI, and the app gets its code', async () => {
    const browser = await person();
    const request = await wiki.authorization('openid', { response_mode: 'form_post' });
    const { url } = await wiki.follow(browser, request.url);
    const allowed = await browser.post<{ redirectURL: string }>(`/api/sso/interactions/${url.searchParams.get('uid')}`, { allow: true });
    const { response } = await wiki.follow(browser, allowed.body.data.redirectURL);
    assert.equal(response.status, 200);
    const html = await response.text();
    assert.match(html, new RegExp(`<form method="post" action="${wiki.callback}"`));
    const policy = directives(response);
    assert.ok(policy.includes('form-action http://127.0.0.1:9'), policy.join('; '));
    assert.ok(!policy.includes("form-action 'self'"), 'one form-action directive');
    assert.ok(
      policy.some((directive) => /^script-src 'self' 'sha256-/.test(directive)),
      "only the page's own script runs",
    );
    const fields = new URLSearchParams([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)].map((match) => [match[1]!, match[2]!]));
    const tokens = await wiki.exchange(new URL(`${wiki.callback}?${fields}`), request.verifier, request.state);
    assert.equal((await wiki.userinfo(tokens.access_token)).status, 200);
  });

  test('every other answer keeps the strict policy, an unregistered redirect URI too', async () => {
    const browser = await person();
    const hostile = await wiki.authorization('openid', { response_mode: 'form_post', redirect_uri: 'https://evil.example/steal' });
    const refused = await wiki.follow(browser, hostile.url);
    assert.equal(refused.response.status, 400);
    assert.ok(directives(refused.response).includes("form-action 'self'"));
    for (const path of ['/api/oidc/.well-known/openid-configuration', '/api/cas/session', '/']) {
      assert.ok(directives(await browser.raw('GET', path)).includes("form-action 'self'"), path);
    }
  });
});

describe('post-logout redirect URIs and RP-initiated logout', () => {
  type Status = { postLogoutRedirectUris: string[] };
  const setUris = (appId: string, postLogoutRedirectUris: unknown, as = admin) => as.put<Status>(`/api/apps/${appId}/oidc-client`, { postLogoutRedirectUris });

  test('registered per app like redirect URIs: http(s), no fragment, bounded; only by those who manage the app', async () => {
    const noClient = await admin.post<{ id: string }>('/api/apps', { name: 'NoClient', entrypoint: 'http://127.0.0.1:9/' });
    assert.equal((await setUris(noClient.body.data.id, [afterLogout])).status, 409, 'the app needs a client (a secret) first');
    for (const bad of [
      ['javascript:alert(1)'],
      ['http://127.0.0.1:9/x#frag'],
      ['not a url'],
      'http://127.0.0.1:9/',
      Array.from({ length: 11 }, (_, i) => `http://127.0.0.1:9/${i}`),
    ]) {
      const refused = await setUris(wiki.appId, bad);
      assert.equal(refused.status, 400, `${JSON.stringify(bad)}: ${JSON.stringify(refused.body)}`);
    }
    assert.equal((await setUris(wiki.appId, [afterLogout], server.client())).status, 401);
    const saved = await setUris(wiki.appId, [afterLogout, afterLogout]);
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.deepEqual(saved.body.data.postLogoutRedirectUris, [afterLogout]);
    assert.deepEqual((await admin.get<Status>(`/api/apps/${wiki.appId}/oidc-client`)).body.data.postLogoutRedirectUris, [afterLogout]);
  });

  /** Starts RP-initiated logout; answers the confirmation page's form (action and xsrf). */
  async function startLogout(browser: Client, query: Record<string, string>) {
    const response = await browser.raw('GET', `/api/oidc/session/end?${new URLSearchParams(query)}`);
    assert.equal(response.status, 200);
    // Its form posts to us; the answer redirects to the registered post-logout URI, if one was given.
    const afterLogout = query.post_logout_redirect_uri ? ` ${new URL(query.post_logout_redirect_uri).origin}` : '';
    assert.ok(directives(response).includes(`form-action 'self'${afterLogout}`), directives(response).join('; '));
    const html = await response.text();
    const action = new URL(/<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(html)![1]!);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1]!;
    assert.match(html, /name="logout"/);
    return { action, xsrf };
  }

  test('a confirmed logout sends the browser to the registered URI and ends the console session and the app grants', async () => {
    assert.equal((await setUris(wiki.appId, [afterLogout])).status, 200);
    const browser = await person();
    const tokens = await wiki.signIn(browser, 'openid offline_access', { prompt: 'consent' });
    const { action, xsrf } = await startLogout(browser, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: afterLogout, state: 'bye' });
    const confirmed = await browser.raw('POST', action.pathname, new URLSearchParams({ xsrf, logout: 'yes' }));
    assert.equal(confirmed.status, 303);
    assert.equal(confirmed.headers.get('location'), `${afterLogout}?state=bye`);
    const cleared = confirmed.headers.getSetCookie().find((line) => line.startsWith('iam_session='));
    assert.match(
      cleared ?? '',
      /^iam_session=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$/,
      'the browser drops its session cookie',
    );
    assert.equal((await browser.get('/api/cas/session')).status, 401, 'the console session ended');
    assert.deepEqual(await wiki.refresh(tokens.refresh_token!), { error: 'invalid_grant' });
    assert.equal((await wiki.userinfo(tokens.access_token)).status, 401);
  });

  test('declining keeps the console session; an unregistered URI is refused', async () => {
    const browser = await person();
    const tokens = await wiki.signIn(browser);
    const refused = await browser.raw(
      'GET',
      `/api/oidc/session/end?${new URLSearchParams({ id_token_hint: tokens.id_token!, post_logout_redirect_uri: 'http://127.0.0.1:9/elsewhere' })}`,
    );
    assert.equal(refused.status, 400);
    const { action, xsrf } = await startLogout(browser, { id_token_hint: tokens.id_token! });
    const declined = await browser.raw('POST', action.pathname, new URLSearchParams({ xsrf }));
    assert.equal(declined.status, 303);
    assert.equal((await browser.get('/api/cas/session')).status, 200, 'still signed in to the console');
  });

  test('a logout nobody confirmed (another site sends the browser there) leaves the console session alone', async () => {
    const browser = server.client();
    assert.equal((await browser.login(ADMIN.username, ADMIN.password)).body.data?.loginSuccess, true);
    const { url, response } = await wiki.follow(
      browser,
      `/api/oidc/session/end?${new URLSearchParams({ client_id: wiki.appId, post_logout_redirect_uri: afterLogout })}`,
    );
    assert.equal(response.status, 303, 'the provider posted its own form');
    assert.equal(url.href, afterLogout);
    assert.equal((await browser.get('/api/cas/session')).status, 200, 'still signed in to the console');
  });
});

describe('expired records', () => {
  const db = () => oidcDb(server.app.ctx.db);
  const count = async (model: string) =>
    Number(
      (
        await db()
          .selectFrom('oidcPayloads')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('model', '=', model)
          .executeTakeFirstOrThrow()
      ).n,
    );

  test('are deleted by the sweep once expired, and only then', async () => {
    const browser = await person();
    await wiki.signIn(browser, 'openid offline_access', { prompt: 'consent' });
    assert.ok((await count('AuthorizationCode')) > 0 && (await count('AccessToken')) > 0);
    const refreshTokens = await count('RefreshToken');
    await sweepExpired(db(), server.clock.now());
    assert.ok((await count('AuthorizationCode')) > 0, 'nothing live is swept');

    server.clock.advance(11 * 60_000);
    while ((await sweepExpired(db(), server.clock.now())) > 0);
    assert.equal(await count('AuthorizationCode'), 0, 'codes 11 minutes past expiry are gone');
    assert.ok((await count('AccessToken')) > 0, 'access tokens live for an hour');

    server.clock.advance(2 * 3600_000);
    while ((await sweepExpired(db(), server.clock.now())) > 0);
    assert.equal(await count('AccessToken'), 0);
    assert.equal(await count('RefreshToken'), refreshTokens, 'refresh tokens live for 14 days');
  });

  test('a backlog goes in bounded batches', async () => {
    const expiredAt = server.clock.now() - 1;
    const rows = Array.from({ length: SWEEP_BATCH + 20 }, (_, i) => ({
      model: 'AccessToken',
      id: `backlog-${i}`,
      payload: '{}',
      grantId: null,
      accountId: null,
      uid: null,
      userCode: null,
      expiresAt: expiredAt,
      consumedAt: null,
    }));
    for (let at = 0; at < rows.length; at += 100)
      await db()
        .insertInto('oidcPayloads')
        .values(rows.slice(at, at + 100))
        .execute();
    assert.equal(await sweepExpired(db(), server.clock.now()), SWEEP_BATCH);
    assert.equal(await sweepExpired(db(), server.clock.now()), 20);
    assert.equal(await sweepExpired(db(), server.clock.now()), 0);
  });
});
