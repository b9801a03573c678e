// Session fixation and credential confusion (server/auth/sessions.ts, gate.ts, login.ts): the
// session secret after sign-in is always a new one the server drew — never a value the browser
// held before (an attacker-chosen cookie, a planted valid session, the captcha client cookie) —
// and the secret held before stops working. Cookie-mode and token-mode secrets are not
// interchangeable, and the public session handle (GET /cas/session's id) is not a credential.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, startServer, transform, type Client, type TestServer } from './harness';

const SESSION = 'iam_session';
const PORTAL = 'http://portal.example';

let server: TestServer;

before(async () => {
  server = await startServer({ corsOrigins: [PORTAL] });
  const admin = await server.admin();
  const created = await admin.post('/api/user', { username: 'victim', realName: 'Victim_User', password: transform('Victim123') });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const attacker = await admin.post('/api/user', { username: 'attacker', realName: 'Attacker_User', password: transform('Attack123') });
  assert.equal(attacker.status, 200, JSON.stringify(attacker.body));
});
after(async () => {
  await server.stop();
});

/** A bare client presenting exactly this cookie (or this token header). */
async function statusWith(credential: { cookie?: string; token?: string }): Promise<number> {
  const client = server.client();
  if (credential.cookie !== undefined) client.cookies.set(SESSION, credential.cookie);
  return (await client.get('/api/cas/session', credential.token === undefined ? {} : { token: credential.token })).status;
}

async function signInWith(client: Client, username: string, password: string): Promise<string> {
  const answer = await client.login(username, password);
  assert.equal(answer.body.data?.loginSuccess, true, JSON.stringify(answer.body));
  const secret = client.cookies.get(SESSION);
  assert.ok(secret, 'a session cookie after sign-in');
  return secret;
}

describe('session fixation', () => {
  test('a session id the attacker chose before sign-in is not the one after it, and never works', async () => {
    const chosen = 'a'.repeat(43);
    const victim = server.client();
    victim.cookies.set(SESSION, chosen);
    const after = await signInWith(victim, 'victim', 'Victim123');
    assert.notEqual(after, chosen);
    assert.equal(await statusWith({ cookie: chosen }), 401, 'the chosen value is no session');
    assert.equal(await statusWith({ cookie: after }), 200);
  });

  test('a planted valid session (the attacker’s own) is replaced at sign-in and ended', async () => {
    const attacker = server.client();
    const planted = await signInWith(attacker, 'attacker', 'Attack123');
    const victim = server.client();
    victim.cookies.set(SESSION, planted);
    const after = await signInWith(victim, 'victim', 'Victim123');
    assert.notEqual(after, planted);
    assert.equal(await statusWith({ cookie: planted }), 401, 'the planted session ended at the victim’s sign-in');
    const me = await victim.get<{ user: { username: string } }>('/api/cas/session');
    assert.equal(me.body.data.user.username, 'victim');
  });

  test('signing in again rotates the secret; the earlier one is dead', async () => {
    const client = server.client();
    const first = await signInWith(client, 'victim', 'Victim123');
    const second = await signInWith(client, 'victim', 'Victim123');
    assert.notEqual(second, first);
    assert.equal(await statusWith({ cookie: first }), 401);
    assert.equal(await statusWith({ cookie: second }), 200);
  });

  test('the captcha client cookie from before sign-in is not the session and not a credential', async () => {
    const client = server.client();
    const image = await client.raw('GET', '/api/captcha/image/display');
    assert.equal(image.status, 200);
    const captchaCookie = client.cookies.get('iam_cid');
    assert.ok(captchaCookie, 'the captcha binds the client with a cookie');
    const after = await signInWith(client, 'victim', 'Victim123');
    assert.notEqual(after, captchaCookie);
    assert.equal(await statusWith({ cookie: captchaCookie }), 401);
    assert.equal(await statusWith({ token: captchaCookie }), 401);
  });

  test('after sign-out the secret is dead, even presented again', async () => {
    const client = server.client();
    const secret = await signInWith(client, 'victim', 'Victim123');
    assert.equal((await client.get('/api/cas/logout')).status, 200);
    assert.equal(await statusWith({ cookie: secret }), 401);
  });
});

describe('cookie and token are not interchangeable', () => {
  test('a token-mode secret is no cookie, a cookie secret is no token, the public handle is neither', async () => {
    const portal = server.client({ origin: PORTAL });
    const answer = await portal.login(ADMIN.username, ADMIN.password, {}, { 'x-iam-auth-mode': 'token' });
    const token = answer.body.data.token as string;
    assert.equal(typeof token, 'string');
    assert.equal(await statusWith({ token }), 200);
    assert.equal(await statusWith({ cookie: token }), 401, 'a token is not a cookie');

    const browser = server.client();
    const cookie = await signInWith(browser, ADMIN.username, ADMIN.password);
    assert.equal(await statusWith({ token: cookie }), 401, 'a cookie is not a token');

    const handle = (await browser.get<{ id: string }>('/api/cas/session')).body.data.id;
    assert.ok(handle && handle !== cookie);
    assert.equal(await statusWith({ cookie: handle }), 401, 'the public session handle is not a cookie');
    assert.equal(await statusWith({ token: handle }), 401, 'the public session handle is not a token');
    assert.ok(!JSON.stringify((await browser.get('/api/cas/sessions')).body).includes(cookie), 'the sessions list never carries a secret');
  });
});
