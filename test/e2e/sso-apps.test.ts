// Single sign-on for an app, as a person and a real relying party (openid-client) see it: discovery,
// the authorization code flow with PKCE, the console's sign-in and consent page in Chromium, the
// code exchange, userinfo and a refresh.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import * as oidc from 'openid-client';
import { ADMIN, ApiClient, openPage, startServerAndBrowser } from './harness';

const { server, browser } = await startServerAndBrowser();
let app: Server;
let callback: string;
/** The forms the browser posted to the app (response_mode=form_post). */
const posted: URLSearchParams[] = [];

before(async () => {
  // The app's own page: whatever the provider sends back lands here.
  app = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      if (request.method === 'POST') posted.push(new URLSearchParams(body));
      response.writeHead(200, { 'content-type': 'text/plain' }).end('the app');
    });
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  const address = app.address();
  callback = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/callback`;
});

after(async () => {
  app?.close();
});

test('an app signs a person in through the consent page and refreshes its tokens', async () => {
  const api = new ApiClient(server.url);
  await api.signIn(ADMIN.username, ADMIN.password);
  const created = await api.call<{ id: string }>('POST', '/apps', { name: 'Wiki', entrypoint: callback, callbackUrl: callback });
  const { clientSecret, issuer } = await api.call<{ clientSecret: string; issuer: string }>('POST', `/apps/${created.id}/oidc-client/secret`);
  const config = await oidc.discovery(new URL(issuer), created.id, clientSecret, undefined, { execute: [oidc.allowInsecureRequests] });
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  // A refresh token is asked with offline_access, which counts with prompt=consent only.
  const authorize = oidc.buildAuthorizationUrl(config, {
    redirect_uri: callback,
    scope: 'openid profile email offline_access',
    prompt: 'consent',
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });

  const { page, errors } = await openPage(browser);
  await page.goto(authorize.href);
  // Not signed in: the console's sign-in page first, then back to the consent page.
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();

  await page.getByText('Wiki asks to sign you in and to read:').waitFor();
  assert.equal(new URL(page.url()).pathname, '/oauth/authorize');
  const scopes = page.getByRole('list', { name: 'What the app may read' });
  assert.deepEqual(await scopes.getByRole('listitem').allTextContents(), [
    'Your account identifier',
    'Your name and username',
    'Your email address',
    'Stay signed in (refresh tokens)',
  ]);
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.waitForURL((url) => url.href.startsWith(callback));
  assert.deepEqual(errors, []);

  const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: verifier, expectedState: state });
  const sub = tokens.claims()!.sub;
  const info = await oidc.fetchUserInfo(config, tokens.access_token, sub);
  assert.equal(info.preferred_username, ADMIN.username);
  const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
  assert.equal((await oidc.fetchUserInfo(config, refreshed.access_token, sub)).sub, sub);
});

test("response_mode=form_post: the browser posts the code to the app under the page's own policy", async () => {
  const api = new ApiClient(server.url);
  await api.signIn(ADMIN.username, ADMIN.password);
  const created = await api.call<{ id: string }>('POST', '/apps', { name: 'Mail', entrypoint: callback, callbackUrl: callback });
  const { clientSecret, issuer } = await api.call<{ clientSecret: string; issuer: string }>('POST', `/apps/${created.id}/oidc-client/secret`);
  const config = await oidc.discovery(new URL(issuer), created.id, clientSecret, undefined, { execute: [oidc.allowInsecureRequests] });
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const authorize = oidc.buildAuthorizationUrl(config, {
    redirect_uri: callback,
    scope: 'openid profile',
    state,
    response_mode: 'form_post',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });

  const { page, errors } = await openPage(browser);
  await page.goto(authorize.href);
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.waitForURL((url) => url.href.startsWith(callback));
  await page.getByText('the app').waitFor();
  assert.deepEqual(errors, [], 'no Content-Security-Policy violation');
  const form = posted.at(-1);
  assert.ok(form?.get('code'), 'the app received the code by POST');

  const tokens = await oidc.authorizationCodeGrant(config, new URL(`${callback}?${form}`), { pkceCodeVerifier: verifier, expectedState: state });
  assert.equal((await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub)).preferred_username, ADMIN.username);
});

test('a trusted app: after signing in, the person lands in the app without the consent page', async () => {
  const api = new ApiClient(server.url);
  await api.signIn(ADMIN.username, ADMIN.password);
  const created = await api.call<{ id: string }>('POST', '/apps', { name: 'Portal', entrypoint: callback, callbackUrl: callback });
  const { clientSecret, issuer } = await api.call<{ clientSecret: string; issuer: string }>('POST', `/apps/${created.id}/oidc-client/secret`);
  await api.call('PUT', `/apps/${created.id}/oidc-client`, { trusted: true });
  const config = await oidc.discovery(new URL(issuer), created.id, clientSecret, undefined, { execute: [oidc.allowInsecureRequests] });
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const authorize = oidc.buildAuthorizationUrl(config, {
    redirect_uri: callback,
    scope: 'openid profile',
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });

  const { page, errors } = await openPage(browser);
  await page.goto(authorize.href);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.href.startsWith(callback));
  assert.equal(await page.getByRole('button', { name: 'Allow' }).count(), 0);
  assert.deepEqual(errors, []);
  const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: verifier, expectedState: state });
  assert.equal(tokens.claims()!.preferred_username, ADMIN.username);
});

test('an app asking for a fresh sign-in (prompt=login): "Sign in again", the sign-in page, then back to the app with the new sign-in time', async () => {
  const api = new ApiClient(server.url);
  await api.signIn(ADMIN.username, ADMIN.password);
  const created = await api.call<{ id: string }>('POST', '/apps', { name: 'Payments', entrypoint: callback, callbackUrl: callback });
  const { clientSecret, issuer } = await api.call<{ clientSecret: string; issuer: string }>('POST', `/apps/${created.id}/oidc-client/secret`);
  await api.call('PUT', `/apps/${created.id}/oidc-client`, { trusted: true });
  const config = await oidc.discovery(new URL(issuer), created.id, clientSecret, undefined, { execute: [oidc.allowInsecureRequests] });
  const authorize = async (extra: Record<string, string>) => {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: callback,
      scope: 'openid profile',
      state,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      ...extra,
    });
    return { url, verifier, state };
  };
  const signIn = async () => {
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };

  const { page } = await openPage(browser);
  // max_age makes the ID token carry auth_time.
  const first = await authorize({ max_age: '3600' });
  await page.goto(first.url.href);
  await signIn();
  await page.waitForURL((url) => url.href.startsWith(callback));
  const firstSignIn = (
    await oidc.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: first.verifier, expectedState: first.state })
  ).claims()!.auth_time!;

  // Later, before a payment, the app wants the person at the keyboard: the console session is not enough.
  // auth_time counts whole seconds: the second sign-in waits for the next one (server and test share the clock).
  const nextSecond = (firstSignIn + 1) * 1000 - Date.now();
  if (nextSecond > 0) await new Promise((resolve) => setTimeout(resolve, nextSecond));
  const fresh = await authorize({ prompt: 'login', max_age: '3600' });
  await page.goto(fresh.url.href);
  await page.getByText('Payments asks you to sign in again before it goes on.').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Allow' }).count(), 0);
  await page.getByRole('button', { name: 'Sign in again' }).click();
  const beforeSecond = Math.floor(Date.now() / 1000);
  await signIn();
  await page.waitForURL((url) => url.href.startsWith(callback));
  const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: fresh.verifier, expectedState: fresh.state });
  const authTime = tokens.claims()!.auth_time!;
  assert.ok(
    authTime > firstSignIn && authTime >= beforeSecond - 1,
    `auth_time ${authTime}: the second sign-in (after ${beforeSecond}), not the first (${firstSignIn})`,
  );
});
