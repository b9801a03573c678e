// A relying party for the provider tests, built on oauth4webapi (not a dependency of the server):
// an app registered through the console's calls, a browser-like client that follows the
// provider's redirects and answers the consent page, the code exchange, refresh, userinfo,
// introspection and the client_credentials grant.
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import type { Client, TestServer } from './harness';

const insecure = { [oauth.allowInsecureRequests]: true };

export interface Tokens {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  scope?: string;
}

export class RelyingParty {
  private constructor(
    private readonly server: TestServer,
    readonly appId: string,
    readonly callback: string,
    readonly as: oauth.AuthorizationServer,
    /** None for a public client (a single-page or native app). */
    readonly secret: string | undefined,
  ) {}

  /** Creates an app with `callback` as its redirect URI, generates its secret and discovers the provider. */
  static async register(
    server: TestServer,
    admin: Client,
    name: string,
    callback = 'http://127.0.0.1:9/callback',
    fields: Record<string, unknown> = {},
  ): Promise<RelyingParty> {
    const created = await admin.post<{ id: string }>('/api/apps', { name, entrypoint: 'http://127.0.0.1:9/', callbackUrl: callback, ...fields });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const secret = await admin.post<{ clientSecret: string; issuer: string }>(`/api/apps/${created.body.data.id}/oidc-client/secret`);
    assert.equal(secret.status, 200, JSON.stringify(secret.body));
    const issuer = new URL(secret.body.data.issuer);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
    return new RelyingParty(server, created.body.data.id, callback, as, secret.body.data.clientSecret);
  }

  /** Creates an app with `callback` as its redirect URI as a public client (no secret). */
  static async registerPublic(server: TestServer, admin: Client, name: string, callback = 'http://127.0.0.1:9/callback'): Promise<RelyingParty> {
    const created = await admin.post<{ id: string }>('/api/apps', { name, entrypoint: 'http://127.0.0.1:9/', callbackUrl: callback });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const client = await admin.put<{ issuer: string }>(`/api/apps/${created.body.data.id}/oidc-client`, { clientType: 'public' });
    assert.equal(client.status, 200, JSON.stringify(client.body));
    const issuer = new URL(client.body.data.issuer);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
    return new RelyingParty(server, created.body.data.id, callback, as, undefined);
  }

  get client(): oauth.Client {
    return { client_id: this.appId };
  }
  private get auth() {
    return this.secret === undefined ? oauth.None() : oauth.ClientSecretBasic(this.secret);
  }

  /** An authorization request; its verifier and state for the exchange. */
  async authorization(scope = 'openid', extra: Record<string, string> = {}) {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(this.as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: this.appId,
      redirect_uri: this.callback,
      response_type: 'code',
      scope,
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      ...extra,
    }).toString();
    return { url, verifier, state };
  }

  /** Follows redirects inside the server, and submits the provider's self-posting forms to it as a
   *  browser would; answers the last response (a page, an error or a redirect out). */
  async follow(browser: Client, location: string | URL): Promise<{ response: Response; url: URL }> {
    let url = new URL(location, this.server.base);
    let form: URLSearchParams | undefined;
    for (let hop = 0; hop < 10; hop++) {
      const response = await browser.raw(form ? 'POST' : 'GET', url.pathname + url.search, form);
      const posted = form ? undefined : await selfPostingForm(response.clone(), this.server.base);
      if (posted) {
        ({ url, form } = posted);
        continue;
      }
      form = undefined;
      const target = response.headers.get('location');
      if (!target) return { response, url };
      url = new URL(target, url);
      if (url.origin !== this.server.base || url.pathname === '/oauth/authorize') return { response, url };
    }
    throw new Error('too many redirects');
  }

  /** The browser (signed in to the console) asks, allows on the consent page, and the app exchanges the code. */
  async signIn(
    browser: Client,
    scope = 'openid',
    extra: Record<string, string> = {},
    tokenParameters: Record<string, string> = {},
    dpop?: oauth.DPoPHandle,
  ): Promise<Tokens> {
    const request = await this.authorization(scope, extra);
    let { url } = await this.follow(browser, request.url);
    if (url.pathname === '/oauth/authorize') {
      const allowed = await browser.post<{ redirectURL: string }>(`/api/sso/interactions/${url.searchParams.get('uid')}`, { allow: true });
      assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
      ({ url } = await this.follow(browser, allowed.body.data.redirectURL).then(async (last) => {
        if (!last.response.headers.get('location')) assert.fail(`${last.url.href}: ${last.response.status} ${await last.response.text()}`);
        return last;
      }));
    }
    assert.equal(url.origin + url.pathname, this.callback, `landed on ${url.href}`);
    return this.exchange(url, request.verifier, request.state, tokenParameters, dpop, extra.nonce);
  }

  /** The code exchange; with `dpop`, the tokens are bound to its key (RFC 9449); `nonce`: the one the
   *  authorization request sent, which the ID token must carry. */
  async exchange(
    callbackUrl: URL,
    verifier: string,
    state: string,
    tokenParameters: Record<string, string> = {},
    dpop?: oauth.DPoPHandle,
    nonce?: string,
  ): Promise<Tokens> {
    const params = oauth.validateAuthResponse(this.as, this.client, callbackUrl, state);
    const response = await oauth.authorizationCodeGrantRequest(this.as, this.client, this.auth, params, this.callback, verifier, {
      ...insecure,
      additionalParameters: tokenParameters,
      ...(dpop ? { DPoP: dpop } : {}),
    });
    return oauth.processAuthorizationCodeResponse(this.as, this.client, response, nonce === undefined ? undefined : { expectedNonce: nonce });
  }

  /** The refresh grant: the new tokens, or the provider's error code. */
  async refresh(refreshToken: string): Promise<Tokens | { error: string }> {
    const response = await this.refreshResponse(refreshToken);
    try {
      return await oauth.processRefreshTokenResponse(this.as, this.client, response);
    } catch (error) {
      if (error instanceof oauth.ResponseBodyError) return { error: error.error };
      throw error;
    }
  }

  /** The refresh grant's HTTP answer; with `secretInBody`, the client authenticates with
   *  client_secret_post (answered by oidc-provider itself) instead of the Authorization header
   *  (answered by the server, server/oidc/refresh-grant.ts). */
  refreshResponse(
    refreshToken: string,
    { secretInBody = false, parameters = {} }: { secretInBody?: boolean; parameters?: Record<string, string> } = {},
  ): Promise<Response> {
    const auth = secretInBody && this.secret !== undefined ? oauth.ClientSecretPost(this.secret) : this.auth;
    return oauth.refreshTokenGrantRequest(this.as, this.client, auth, refreshToken, { ...insecure, additionalParameters: parameters });
  }

  /** The client_credentials grant (the app's machine, no person): the token, or the provider's error code. */
  async machineToken(parameters: Record<string, string> = {}): Promise<Tokens | { error: string }> {
    const response = await oauth.clientCredentialsGrantRequest(this.as, this.client, this.auth, parameters, insecure);
    try {
      return await oauth.processClientCredentialsResponse(this.as, this.client, response);
    } catch (error) {
      if (error instanceof oauth.ResponseBodyError) return { error: error.error };
      throw error;
    }
  }

  /** Token introspection with this app's credentials (and the app's hint of the token's type, if
   *  given): the provider's answer. */
  async introspect(token: string, tokenTypeHint?: 'access_token' | 'refresh_token'): Promise<oauth.IntrospectionResponse> {
    return oauth.processIntrospectionResponse(this.as, this.client, await this.introspectionResponse(token, tokenTypeHint));
  }

  /** The introspection's answer, asserted the same whether the server answers it itself (the
   *  secret in the Authorization header, server/oidc/introspection.ts) or oidc-provider does (the
   *  secret in the body). */
  async introspectBothWays(token: string, tokenTypeHint?: 'access_token' | 'refresh_token'): Promise<oauth.IntrospectionResponse> {
    const [direct, provider] = await Promise.all(
      [false, true].map(async (secretInBody) => {
        const response = await this.introspectionResponse(token, tokenTypeHint, { secretInBody });
        return { status: response.status, body: (await response.json()) as oauth.IntrospectionResponse };
      }),
    );
    assert.deepEqual(direct, provider, 'the same answer from the server and from oidc-provider');
    return direct!.body;
  }

  /** The introspection's HTTP answer; with `secretInBody`, the client authenticates with
   *  client_secret_post (answered by oidc-provider itself) instead of the Authorization header. */
  introspectionResponse(token: string, tokenTypeHint?: string, { secretInBody = false } = {}): Promise<Response> {
    const additionalParameters = tokenTypeHint ? { token_type_hint: tokenTypeHint } : undefined;
    const auth = secretInBody && this.secret !== undefined ? oauth.ClientSecretPost(this.secret) : this.auth;
    return oauth.introspectionRequest(this.as, this.client, auth, token, { ...insecure, additionalParameters });
  }

  /** Userinfo's HTTP status and body for an access token. */
  async userinfo(accessToken: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await oauth.userInfoRequest(this.as, this.client, accessToken, insecure);
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }
}

/** The provider's auto-submitted form (a form_post page with a script that submits it) when it posts to the server itself. */
async function selfPostingForm(response: Response, base: string): Promise<{ url: URL; form: URLSearchParams } | undefined> {
  if (response.status !== 200 || !response.headers.get('content-type')?.includes('html')) return undefined;
  const html = await response.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action || !html.includes('document.forms[0].submit()') || !action.startsWith(base)) return undefined;
  const form = new URLSearchParams([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)].map((match) => [match[1]!, match[2]!]));
  return { url: new URL(action), form };
}
