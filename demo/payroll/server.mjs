// "Payroll": a small app built on the console's single sign-on as any other app would be, with
// oauth4webapi (a standard OpenID Connect client library) and jose, neither a dependency of the
// console's server. It signs people in (code flow with PKCE), shows their roles, privileges and its
// menu (the console's menu route with the person's access token), has an API of its own protected
// by token introspection, logs out through the console (RP-initiated logout), and drops its own
// sessions when the console posts a logout token (back-channel logout: sign-out elsewhere,
// disabling, a password reset). Everything is kept in memory: it is a demo.
// Started by scripts/start.mjs (registered in the console's database by server/seed/payroll.ts).
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { createRemoteJWKSet, jwtVerify } from 'jose';

const SESSION_COOKIE = 'payroll_session';
const FLOW_COOKIE = 'payroll_flow';
const LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
const MENU_PATH = '/api/menu/app/assignment/public/multi_app_menu/list';

const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const cookiesOf = (request) =>
  Object.fromEntries(
    (request.headers.cookie ?? '')
      .split(/;\s*/)
      .filter(Boolean)
      .map((pair) => {
        const at = pair.indexOf('=');
        return [pair.slice(0, at), decodeURIComponent(pair.slice(at + 1))];
      }),
  );
const cookie = (name, value, maxAge) => `${name}=${encodeURIComponent(value)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}`;

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1d2330}
header{background:#21409a;color:#fff;padding:12px 24px;display:flex;justify-content:space-between;align-items:center}
header a,header button{color:#fff}main{max-width:760px;margin:24px auto;padding:0 24px}
section{background:#fff;border:1px solid #dde1e8;border-radius:8px;padding:16px 20px;margin-bottom:16px}
h1{font-size:20px;margin:0}h2{font-size:16px;margin:0 0 8px}code{background:#eef1f6;padding:1px 4px;border-radius:4px}
.chips span{display:inline-block;background:#e8eefc;border-radius:12px;padding:2px 10px;margin:2px}
.button{display:inline-block;background:#21409a;color:#fff;border:0;border-radius:6px;padding:8px 16px;text-decoration:none;font:inherit;cursor:pointer}
.error{color:#a40e26}`;

function page(title, body, user) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Payroll</title><link rel="stylesheet" href="/payroll.css"></head>
<body><header><h1>Payroll</h1>${user ? `<span>Signed in as <strong data-testid="person">${escapeHtml(user)}</strong> · <a href="/logout">Sign out</a></span>` : ''}</header>
<main>${body}</main></body></html>`;
}

const chips = (values, testId) =>
  values.length
    ? `<p class="chips" data-testid="${testId}">${values.map((value) => `<span>${escapeHtml(value)}</span>`).join('')}</p>`
    : `<p data-testid="${testId}">None</p>`;
const menuList = (items) =>
  `<ul>${items.map((item) => `<li>${escapeHtml(item.name)} <code>${escapeHtml(item.path)}</code>${item.children?.length ? menuList(item.children) : ''}</li>`).join('')}</ul>`;

/**
 * Starts Payroll on 127.0.0.1 (or `host`) at `port` (0: any free port). `issuer` is the console's
 * OpenID Connect issuer, `origin` Payroll's own public origin (its callback and logout URIs are
 * below it), `client` its client id and secret. Resolves to { url, stop }.
 */
export async function startPayroll({ issuer, client: { clientId, clientSecret }, port = 0, host = '127.0.0.1', origin }) {
  const insecure = issuer.startsWith('http://') ? { [oauth.allowInsecureRequests]: true } : {};
  const issuerUrl = new URL(issuer);
  const as = await oauth.processDiscoveryResponse(issuerUrl, await oauth.discoveryRequest(issuerUrl, insecure));
  const client = { client_id: clientId };
  const auth = oauth.ClientSecretBasic(clientSecret);
  const jwks = createRemoteJWKSet(new URL(as.jwks_uri));
  const consoleOrigin = new URL(as.issuer).origin;
  /** Payroll's sessions by cookie: the person, what the console said about them, their tokens. */
  const sessions = new Map();
  /** Sign-ins under way, by their cookie: PKCE verifier, state and nonce. */
  const flows = new Map();
  let self = origin;

  const signedIn = (request) => sessions.get(cookiesOf(request)[SESSION_COOKIE]);

  /** The resource server: an access token issued to Payroll, live by the console's introspection. */
  async function payslipsApi(request) {
    const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!token) return { status: 401, body: { error: 'invalid_token', error_description: 'a bearer token is required' } };
    const answer = await oauth.processIntrospectionResponse(as, client, await oauth.introspectionRequest(as, client, auth, token, insecure));
    if (!answer.active || answer.client_id !== clientId || !answer.sub)
      return { status: 401, body: { error: 'invalid_token', error_description: 'the token is not active' } };
    const month = new Date().toISOString().slice(0, 7);
    return { status: 200, body: { person: answer.sub, payslips: [{ month, net: 4210.5, currency: 'EUR' }] } };
  }

  async function callback(request, url) {
    const flowId = cookiesOf(request)[FLOW_COOKIE];
    const flow = flows.get(flowId);
    flows.delete(flowId);
    if (!flow) return { status: 400, html: page('Sign-in', '<p class="error">This sign-in expired; <a href="/login">start again</a>.</p>') };
    const params = oauth.validateAuthResponse(as, client, url, flow.state);
    const response = await oauth.authorizationCodeGrantRequest(as, client, auth, params, `${self}/callback`, flow.verifier, insecure);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: flow.nonce, requireIdToken: true });
    const claims = oauth.getValidatedIdTokenClaims(tokens);
    const menuAnswer = await fetch(new URL(MENU_PATH, consoleOrigin), { headers: { authorization: `Bearer ${tokens.access_token}` } });
    const menus = menuAnswer.ok ? (await menuAnswer.json()).data.flatMap((plan) => plan.menus) : [];
    const id = randomBytes(24).toString('base64url');
    sessions.set(id, {
      sub: claims.sub,
      sid: claims.sid,
      name: claims.name ?? claims.preferred_username ?? claims.sub,
      roles: claims.roles ?? [],
      privileges: claims.privileges ?? [],
      tenant: claims.tenant,
      menus,
      accessToken: tokens.access_token,
      idToken: tokens.id_token,
    });
    return { status: 303, location: '/', cookies: [cookie(SESSION_COOKIE, id, 8 * 3600), cookie(FLOW_COOKIE, '', 0)] };
  }

  /** The console's logout token: verified against its JWKS, then the person's sessions here end. */
  async function backchannelLogout(request) {
    const body = new URLSearchParams(await text(request));
    try {
      const { payload } = await jwtVerify(body.get('logout_token') ?? '', jwks, {
        issuer: as.issuer,
        audience: clientId,
        typ: 'logout+jwt',
        maxTokenAge: '5 minutes',
      });
      if (!payload.events || !(LOGOUT_EVENT in payload.events) || 'nonce' in payload || (!payload.sid && !payload.sub)) throw new Error('not a logout token');
      for (const [id, session] of sessions) {
        if ((payload.sid && session.sid === payload.sid) || (payload.sub && session.sub === payload.sub)) sessions.delete(id);
      }
      return { status: 200, text: '' };
    } catch {
      return { status: 400, body: { error: 'invalid_request' } };
    }
  }

  function home(request) {
    const session = signedIn(request);
    if (!session)
      return {
        status: 200,
        html: page(
          'Welcome',
          '<section><h2>Welcome</h2><p data-testid="signed-out">You are not signed in.</p><p><a class="button" href="/login">Sign in with the console</a></p></section>',
        ),
      };
    const tenant = session.tenant ? `<p>Tenant: ${escapeHtml(session.tenant.name)}</p>` : '';
    return {
      status: 200,
      html: page(
        'Home',
        `<section><h2>Your roles in Payroll</h2>${chips(session.roles, 'roles')}${tenant}</section>
<section><h2>Your privileges</h2>${chips(session.privileges, 'privileges')}</section>
<section><h2>Menu</h2><nav data-testid="menu" aria-label="Payroll menu">${menuList(session.menus)}</nav></section>
<section><h2>Payroll API</h2><p>Calls Payroll's own API with your access token; the API asks the console whether the token is still good (introspection).</p>
<p><a class="button" href="/payslips">Load my payslips</a></p></section>`,
        session.name,
      ),
    };
  }

  async function payslips(request) {
    const session = signedIn(request);
    if (!session) return { status: 303, location: '/' };
    const answer = await fetch(`http://127.0.0.1:${server.address().port}/api/payslips`, { headers: { authorization: `Bearer ${session.accessToken}` } });
    const result = await answer.json();
    const body = answer.ok
      ? `<section><h2>Payslips</h2><ul data-testid="payslips">${result.payslips.map((slip) => `<li>${escapeHtml(slip.month)}: ${escapeHtml(slip.net)} ${escapeHtml(slip.currency)}</li>`).join('')}</ul><p><a href="/">Back</a></p></section>`
      : `<section><h2>Payslips</h2><p class="error" data-testid="api-refused">The API refused the access token (${escapeHtml(answer.status)}): ${escapeHtml(result.error_description)}</p><p><a href="/">Back</a></p></section>`;
    return { status: answer.status === 200 ? 200 : 403, html: page('Payslips', body, session.name) };
  }

  async function login() {
    const flow = { verifier: oauth.generateRandomCodeVerifier(), state: oauth.generateRandomState(), nonce: oauth.generateRandomNonce() };
    const flowId = randomBytes(24).toString('base64url');
    flows.set(flowId, flow);
    const url = new URL(as.authorization_endpoint);
    url.search = new URLSearchParams({
      client_id: clientId,
      redirect_uri: `${self}/callback`,
      response_type: 'code',
      scope: 'openid profile roles tenant',
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: await oauth.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
    }).toString();
    return { status: 303, location: url.href, cookies: [cookie(FLOW_COOKIE, flowId, 600)] };
  }

  /** RP-initiated logout: Payroll's session ends here, the console asks the person and ends its own. */
  function logout(request) {
    const id = cookiesOf(request)[SESSION_COOKIE];
    const session = sessions.get(id);
    sessions.delete(id);
    if (!session) return { status: 303, location: '/' };
    const url = new URL(as.end_session_endpoint);
    url.search = new URLSearchParams({ id_token_hint: session.idToken, post_logout_redirect_uri: `${self}/`, client_id: clientId }).toString();
    return { status: 303, location: url.href, cookies: [cookie(SESSION_COOKIE, '', 0)] };
  }

  const routes = {
    'GET /': home,
    'GET /login': login,
    'GET /callback': callback,
    'GET /payslips': payslips,
    'GET /logout': logout,
    'GET /api/payslips': payslipsApi,
    'POST /backchannel-logout': backchannelLogout,
    'GET /payroll.css': () => ({ status: 200, css: STYLE }),
  };

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', self ?? 'http://payroll');
    const route = routes[`${request.method} ${url.pathname}`];
    const answer = route ? Promise.resolve().then(() => route(request, url)) : Promise.resolve({ status: 404, text: 'Not found' });
    answer
      .catch((error) => ({
        status: 502,
        html: page('Error', `<p class="error">${escapeHtml(error instanceof Error ? error.message : String(error))}</p><p><a href="/">Back</a></p>`),
      }))
      .then((out) => {
        const headers = {
          'cache-control': 'no-store',
          'content-security-policy': "default-src 'self'; style-src 'self'; form-action 'self'",
          'x-content-type-options': 'nosniff',
        };
        if (out.cookies) headers['set-cookie'] = out.cookies;
        if (out.location) return response.writeHead(out.status, { ...headers, location: out.location }).end();
        if (out.html) return response.writeHead(out.status, { ...headers, 'content-type': 'text/html; charset=utf-8' }).end(out.html);
        if (out.css) return response.writeHead(out.status, { ...headers, 'content-type': 'text/css; charset=utf-8' }).end(out.css);
        if (out.body) return response.writeHead(out.status, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify(out.body));
        return response.writeHead(out.status, { ...headers, 'content-type': 'text/plain' }).end(out.text ?? '');
      });
  });
  await new Promise((resolve) => server.listen(port, host, resolve));
  self ??= `http://${host}:${server.address().port}`;
  return {
    url: self,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function text(request) {
  return new Promise((resolve, reject) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
      if (body.length > 64 * 1024) request.destroy();
    });
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}
