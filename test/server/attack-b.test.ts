// An outside attacker against the browser-facing protocols: the OpenID Connect consent page, the
// SAML sign-in page, sign-in steps and redirects, driven over HTTP as a hostile page or a second
// browser would. Every test asserts the secure behaviour, so a test that fails shows a fault.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import { startServer, signedInPerson, transform, type Client, type TestServer } from './harness';
import { RelyingParty } from './oidc-rp';
import { setLogin } from './sign-in-support';
import { captchaReader, plainCaptcha } from './captcha-reader';
import { captchaCharacters } from '../../server/auth/captcha';
import { oidcDb } from '../../server/oidc/tables';

let server: TestServer;
let admin: Client;
let wiki: RelyingParty;
let serial = 0;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  wiki = await RelyingParty.register(server, admin, 'AttackWiki');
});
after(async () => {
  await server.stop();
});

function person(label = 'victim') {
  return signedInPerson(server, admin, { username: `${label}-${++serial}`, realName: `${label}_${serial}` });
}

/** The attacker's browser begins an authorization request at `app` (signed in nowhere): the
 *  consent page's uid, and what the exchange needs. */
async function attackerStarts(app: RelyingParty, scope = 'openid profile') {
  const attacker = server.client();
  const request = await app.authorization(scope);
  const { url } = await app.follow(attacker, request.url);
  assert.equal(url.pathname, '/oauth/authorize', `landed on ${url.href}`);
  return { attacker, request, uid: url.searchParams.get('uid')! };
}

/** After someone answered the consent page of `uid`, the attacker's browser goes back to the
 *  provider (the interaction's returnTo, which its resume cookie opens): the ID token's subject, if
 *  the provider issued a code to it. */
async function attackerResumes(app: RelyingParty, started: Awaited<ReturnType<typeof attackerStarts>>): Promise<string | undefined> {
  const resume = new URL(`${app.as.issuer}/auth/${started.uid}`);
  const { url } = await app.follow(started.attacker, resume);
  if (url.origin + url.pathname !== app.callback || !url.searchParams.get('code')) return undefined;
  const tokens = await app.exchange(url, started.request.verifier, started.request.state);
  return oauth.getValidatedIdTokenClaims(tokens as oauth.TokenEndpointResponse)?.sub;
}

test('holds: the consent page answers only the browser that began the request: a victim allowing an attacker’s uid gives the attacker no code for the victim', async () => {
  const victim = await person();
  const started = await attackerStarts(wiki);
  // The attacker sends the victim the consent page's link; the victim, signed in, allows the app.
  const allowed = await victim.browser.post<{ redirectURL: string }>(`/api/sso/interactions/${started.uid}`, { allow: true });
  const subject = allowed.status === 200 ? await attackerResumes(wiki, started) : undefined;
  assert.notEqual(subject, victim.user.id, 'the attacker’s browser was handed a code for the victim’s account');
});

test('holds: a trusted app: the victim merely opening the attacker’s consent link gives the attacker no code for the victim', async () => {
  const trusted = await RelyingParty.register(server, admin, 'AttackTrusted', 'http://127.0.0.1:9/trusted');
  const marked = await admin.put(`/api/apps/${trusted.appId}/oidc-client`, { trusted: true });
  assert.equal(marked.status, 200, JSON.stringify(marked.body));
  const victim = await person();
  const started = await attackerStarts(trusted);
  // The page allows a trusted app at once (src/react/screens/oauthAuthorize): what it reads, then answers.
  const details = await victim.browser.get<{ trusted: boolean }>(`/api/sso/interactions/${started.uid}`);
  if (details.status === 200 && details.body.data.trusted) await victim.browser.post(`/api/sso/interactions/${started.uid}`, { allow: true });
  assert.notEqual(await attackerResumes(trusted, started), victim.user.id, 'the attacker’s browser was handed a code for the victim’s account');
});

test('the sign-in captcha is not read by a program: glyph templates of its public font, correlated slot by slot with the PNG’s pixels, do not pass it', async () => {
  await setLogin(admin, { captchaEnabled: true, captchaKind: 'NUMBER_LETTER', captchaLength: 6 });
  try {
    const read = captchaReader(captchaCharacters.NUMBER_LETTER);
    // The reader is good enough to matter: the same text, undistorted, it reads.
    for (const text of ['a7Kp3x', 'Hb4nZw']) assert.equal(read(plainCaptcha(text), 6), text);
    const username = `captcha-${++serial}`;
    const created = await admin.post('/api/user', { username, realName: `captcha_${serial}`, password: transform('Secret123') });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    let passed = 0;
    for (let round = 0; round < 5; round += 1) {
      const bot = server.client();
      const image = await bot.raw('GET', '/api/captcha/image/display');
      assert.equal(image.status, 200);
      assert.equal(image.headers.get('content-type'), 'image/png');
      const answer = await bot.login(username, 'Secret123', { captcha: read(Buffer.from(await image.arrayBuffer()), 6) });
      if (answer.body.data?.loginSuccess === true) passed += 1;
    }
    assert.ok(passed <= 1, `a program passed ${passed} of 5 captchas`);
  } finally {
    await setLogin(admin, { captchaEnabled: false });
  }
});

describe('prompt=none from a browser signed in to the console (silent sign-in, as oidc-client-ts signinSilent asks)', () => {
  test('a trusted app gets a code, not login_required, on the first request of that browser', async () => {
    const trusted = await RelyingParty.register(server, admin, 'AttackSilent', 'http://127.0.0.1:9/silent');
    assert.equal((await admin.put(`/api/apps/${trusted.appId}/oidc-client`, { trusted: true })).status, 200);
    const { browser } = await person();
    const { url } = await trusted.follow(browser, (await trusted.authorization('openid', { prompt: 'none' })).url);
    assert.equal(url.searchParams.get('error'), null, `the app was told ${url.searchParams.get('error')}: ${url.searchParams.get('error_description')}`);
    assert.ok(url.searchParams.get('code'));
  });

  test('an app the person never allowed is told consent_required (the person is signed in), not login_required', async () => {
    const { browser } = await person();
    const { url } = await wiki.follow(browser, (await wiki.authorization('openid', { prompt: 'none' })).url);
    assert.equal(url.searchParams.get('error'), 'consent_required', url.href);
  });
});

test('a hostile page sending the browser to /api/cas/logout (a cross-site link or redirect) ends neither the console session nor the person’s app grants', async () => {
  const { browser } = await person();
  const tokens = await wiki.signIn(browser, 'openid offline_access', { prompt: 'consent' });
  // What a browser sends on a top-level navigation from another site: the Lax session cookie, no Origin.
  await browser.raw('GET', '/api/cas/logout', undefined, { referer: 'https://evil.example/', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' });
  const session = await browser.get<{ user?: { id: string } } | null>('/api/cas/session');
  assert.equal(session.status, 200, 'the console session was ended by another site');
  assert.ok(session.body.data?.user, 'the console session was ended by another site');
  assert.ok('access_token' in (await wiki.refresh(tokens.refresh_token!)), 'the app’s refresh token was revoked by another site');
});

test('an e-mail address nobody verified reaches the apps marked so: email_verified false in the ID token and at userinfo (apps that link accounts by e-mail can tell)', async () => {
  // A tenant administrator, a SCIM client or an import sets addresses without any proof; an app that
  // links accounts by e-mail would take this one for the real owner's (the "nOAuth" class of fault).
  // This server itself matches a provider's e-mail only when the provider says email_verified: true.
  const username = `unverified-${++serial}`;
  const created = await admin.post('/api/user', {
    username,
    realName: `unverified_${serial}`,
    email: `ceo-${serial}@corp.example`,
    password: transform('Secret123'),
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const browser = server.client();
  assert.equal((await browser.login(username, 'Secret123')).body.data?.loginSuccess, true);
  const tokens = await wiki.signIn(browser, 'openid email');
  const claims = oauth.getValidatedIdTokenClaims(tokens as oauth.TokenEndpointResponse)!;
  assert.equal(claims.email, `ceo-${serial}@corp.example`);
  assert.equal(claims.email_verified, false, 'the ID token carries the address without saying it was never verified');
  assert.equal((await wiki.userinfo(tokens.access_token)).body.email_verified, false, 'userinfo carries the address without saying it was never verified');
});

test('one consent answered twice and then in a burst of 8 (a double click, a retrying client): one grant and one app.consent record', async () => {
  const { browser, user } = await person();
  const { url } = await wiki.follow(browser, (await wiki.authorization('openid profile')).url);
  const uid = url.searchParams.get('uid')!;
  const allow = () => browser.post(`/api/sso/interactions/${uid}`, { allow: true });
  await allow();
  await allow();
  await Promise.all(Array.from({ length: 8 }, allow));
  const db = server.app.ctx.db;
  const consents = await db.selectFrom('auditLog').select('id').where('action', '=', 'app.consent').where('actorId', '=', user.id).execute();
  const grants = await oidcDb(db).selectFrom('oidcPayloads').select('id').where('model', '=', 'Grant').where('accountId', '=', user.id).execute();
  assert.deepEqual({ consents: consents.length, grants: grants.length }, { consents: 1, grants: 1 });
});
