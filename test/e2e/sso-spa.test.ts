// A single-page app as a public client: the administrator makes the app public in its detail
// screen (its secret revoked), then, as a browser library sees it, a plain page on another
// origin (localhost, the console being on 127.0.0.1) signs a person in with oidc-client-ts (the code
// flow with PKCE, no secret, its token and userinfo calls cross-origin under the provider's CORS),
// calls userinfo, refreshes (the refresh token replaced) and signs out through the console, which
// revokes the refresh token. The same page on an origin the app did not register cannot read the
// provider's answers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ADMIN, ApiClient, openPage, startServerAndBrowser } from './harness';
import { signIn } from './admin-support';

const { server, browser } = await startServerAndBrowser();
const library = readFileSync(join(dirname(createRequire(import.meta.url).resolve('oidc-client-ts/package.json')), 'dist/browser/oidc-client-ts.min.js'));
let spa: Server;
let origin: string;
let clientId = '';
/** The secret the app had while confidential. */
let secret = '';

/** The app: one page with four buttons over oidc-client-ts's UserManager (its global `oidc`). */
const appScript = (authority: string) => `
const users = new oidc.UserManager({
  authority: ${JSON.stringify(authority)},
  client_id: ${JSON.stringify(clientId)},
  redirect_uri: location.origin + '/callback',
  post_logout_redirect_uri: location.origin + '/',
  scope: 'openid profile offline_access',
  prompt: 'consent',
  userStore: new oidc.WebStorageStateStore({ store: sessionStorage }),
});
const status = document.getElementById('status');
const show = (text) => { status.textContent = text; };
const on = (name, action) => document.getElementById(name).addEventListener('click', () => action().catch((error) => show('Failed: ' + error.message)));
on('sign-in', () => users.signinRedirect());
on('userinfo', async () => {
  const user = await users.getUser();
  const answer = await fetch(await users.metadataService.getUserInfoEndpoint(), { headers: { authorization: 'Bearer ' + user.access_token } });
  show('Userinfo: ' + (await answer.json()).preferred_username);
});
on('refresh', async () => {
  const before = (await users.getUser()).refresh_token;
  const after = (await users.signinSilent()).refresh_token;
  show(after && after !== before ? 'Refreshed: a new refresh token' : 'Refresh kept the old token');
});
on('sign-out', () => users.signoutRedirect());
(async () => {
  if (location.pathname === '/callback') {
    await users.signinRedirectCallback();
    history.replaceState(null, '', '/');
  }
  const user = await users.getUser();
  show(user ? 'Signed in as ' + user.profile.preferred_username : 'Signed out');
})().catch((error) => show('Failed: ' + error.message));
`;

const page = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Notes (single-page app)</title></head><body>
<main><h1>Notes</h1><p id="status" role="status">Loading</p>
<button id="sign-in">Sign in</button> <button id="userinfo">Who am I</button> <button id="refresh">Refresh tokens</button> <button id="sign-out">Sign out</button></main>
<script src="/oidc-client-ts.js"></script><script src="/app.js"></script></body></html>`;

before(async () => {
  spa = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://spa').pathname;
    if (path === '/oidc-client-ts.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(library);
    if (path === '/app.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(appScript(`${server.url}/api/oidc`));
    response.writeHead(200, { 'content-type': 'text/html' }).end(page);
  });
  await new Promise<void>((resolve) => spa.listen(0, '127.0.0.1', resolve));
  const address = spa.address();
  origin = `http://localhost:${typeof address === 'object' && address ? address.port : 0}`;
  const api = new ApiClient(server.url);
  await api.signIn(ADMIN.username, ADMIN.password);
  clientId = (await api.call<{ id: string }>('POST', '/apps', { name: 'Notes', entrypoint: `${origin}/`, callbackUrl: `${origin}/callback` })).id;
  secret = (await api.call<{ clientSecret: string }>('POST', `/apps/${clientId}/oidc-client/secret`)).clientSecret;
  await api.call('PUT', `/apps/${clientId}/oidc-client`, { postLogoutRedirectUris: [`${origin}/`] });
});

/** What the token endpoint says to the app authenticated with this secret (a right secret gets as
 *  far as the unknown refresh token: invalid_grant; a wrong one stops at invalid_client). */
async function withSecret(secret: string): Promise<string | undefined> {
  const answer = await fetch(`${server.url}/api/oidc/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=refresh_token&refresh_token=unknown',
  });
  return ((await answer.json()) as { error?: string }).error;
}

after(() => {
  spa?.close();
});

test('a single-page app on another origin signs in with oidc-client-ts, calls userinfo, refreshes and signs out', async () => {
  // The provider's sign-out page (a plain page of the server) has no icon: Chromium asks for /favicon.ico.
  const { page: tab, errors } = await openPage(browser, { expectedFailures: [/\/favicon\.ico$/] });
  // Signed in through the API (the subject is the app's sign-in, not the console's form).
  await signIn(tab, server.url, ADMIN.username, ADMIN.password, `/app/detail/${clientId}`);
  const sso = tab.getByRole('region', { name: 'Single sign-on (OpenID Connect)' });
  assert.equal(await withSecret(secret), 'invalid_grant', 'the secret works while confidential');
  await sso.getByLabel('Client type').selectOption({ label: 'Public (single-page or native app)' });
  const confirm = tab.getByRole('dialog', { name: 'Make this a public client?' });
  await confirm.getByRole('button', { name: 'Make public' }).click();
  await sso.getByText('None: a public client has no secret.').waitFor();
  assert.equal(await sso.getByRole('button', { name: 'Rotate secret' }).count(), 0);
  assert.equal(await sso.getByLabel('Allow machine access (client_credentials grant)').count(), 0);
  assert.equal(await withSecret(secret), 'invalid_client', 'the secret was revoked');

  // The administrator, signed in to the console, uses the app: straight to the consent page.
  const status = tab.getByRole('status');
  await tab.goto(`${origin}/`);
  await status.getByText('Signed out').waitFor();
  await tab.getByRole('button', { name: 'Sign in' }).click();
  await tab.getByText('Notes asks to sign you in and to read:').waitFor();
  await tab.getByRole('button', { name: 'Allow' }).click();
  await status.getByText(`Signed in as ${ADMIN.username}`).waitFor();
  assert.equal(tab.url(), `${origin}/`);

  await tab.getByRole('button', { name: 'Who am I' }).click();
  await status.getByText(`Userinfo: ${ADMIN.username}`).waitFor();
  await tab.getByRole('button', { name: 'Refresh tokens' }).click();
  await status.getByText('Refreshed: a new refresh token').waitFor();

  const stored = await tab.evaluate(() => Object.keys(sessionStorage).map((key) => sessionStorage.getItem(key) ?? ''));
  const refreshToken = stored.map((value) => (JSON.parse(value) as { refresh_token?: string }).refresh_token).find(Boolean);
  assert.ok(refreshToken, 'the app keeps its refresh token');
  await tab.getByRole('button', { name: 'Sign out' }).click();
  await tab.getByRole('heading', { name: 'Sign out of the console and its apps?' }).waitFor();
  await tab.getByRole('button', { name: 'Yes, sign me out' }).click();
  await status.getByText('Signed out').waitFor();
  assert.equal(new URL(tab.url()).origin, origin);
  assert.deepEqual(errors, []);

  // Signing out revoked the app's grant: its last refresh token is refused.
  const refused = await fetch(`${server.url}/api/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId }),
  });
  assert.equal(((await refused.json()) as { error?: string }).error, 'invalid_grant');

  // The same page on an origin the app did not register cannot read the provider's answers.
  const other = await openPage(browser);
  await other.page.goto(`${origin.replace('localhost', '127.0.0.1')}/`);
  const read = await other.page.evaluate(async (url) => {
    try {
      return `read ${(await fetch(url)).status}`;
    } catch {
      return 'blocked';
    }
  }, `${server.url}/api/oidc/.well-known/openid-configuration`);
  assert.equal(read, 'blocked');
});
