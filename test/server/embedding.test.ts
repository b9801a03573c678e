// What a page embedding the elements meets: the token header the server names in its sign-in
// answer (and no other), the profile read the documented host snippet makes, cross-site forms
// against token sessions, the refused-Origin answer that says how to allow the origin, the
// anonymous session probe that answers 200, and a token header name that is one of our own (never
// a standard, hop-by-hop, forwarding or tracing header: src/core/validation/token-header.ts).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, startServer, transform, type Client, type TestServer, ok } from './harness';

let server: TestServer;
let admin: Client;
const PORTAL = 'http://portal.example.test';

before(async () => {
  server = await startServer({ corsOrigins: [PORTAL] });
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

async function setTokenName(tokenName: string) {
  const { version } = await server.app.ctx.settings.get('config');
  await server.app.ctx.settings.update('config', version, (value) => ({
    ...value,
    settings: { ...value.settings, authConfig: { ...value.settings.authConfig, tokenName } },
  }));
}

async function tokenSignIn(): Promise<{ token: string; tokenName: string }> {
  const answer = await server.client({ origin: PORTAL }).login(ADMIN.username, ADMIN.password, {}, { 'x-iam-auth-mode': 'token' });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const data = answer.body.data as { token: string; tokenName: string };
  return data;
}

describe('token mode: the header the server reads', () => {
  test('the sign-in answer names the header the server reads the token from, and that header works', async () => {
    await setTokenName('X-Shop-Token');
    try {
      const { token, tokenName } = await tokenSignIn();
      assert.equal(tokenName, 'x-shop-token');
      const session = await server.client({ origin: PORTAL }).get<{ user: { username: string } }>('/api/cas/session', { [tokenName]: token });
      assert.equal(session.status, 200, JSON.stringify(session.body));
      assert.equal(session.body.data.user.username, ADMIN.username);
    } finally {
      await setTokenName('token');
    }
  });

  test("the host page's documented read, GET /user/profile, answers the signed-in person's profile; without the token 401", async () => {
    const { token, tokenName } = await tokenSignIn();
    const portal = server.client({ origin: PORTAL });
    const profile = await portal.get<Record<string, unknown>>('/api/user/profile', { [tokenName]: token });
    assert.equal(profile.status, 200, JSON.stringify(profile.body));
    assert.equal(profile.body.data.username, ADMIN.username);
    assert.equal(typeof profile.body.data.id, 'string');
    assert.equal(typeof profile.body.data.version, 'number');
    assert.ok(!JSON.stringify(profile.body).includes('password'), 'no password field in the profile');
    const anonymous = await portal.get('/api/user/profile');
    assert.equal(anonymous.status, 401);
  });

  test('a token in a header the server does not read is no session', async () => {
    const { token, tokenName } = await tokenSignIn();
    assert.equal(tokenName, 'token');
    for (const header of ['x-shop-token', 'x-token', 'authorization', 'cookie']) {
      const value = header === 'authorization' ? `Bearer ${token}` : header === 'cookie' ? `token=${token}` : token;
      const answer = await server.client({ origin: PORTAL }).get('/api/cas/session', { [header]: value });
      assert.equal(answer.status, 401, `${header}: ${JSON.stringify(answer.body)}`);
    }
    const inQuery = await server.client({ origin: PORTAL }).get(`/api/cas/session?token=${token}`);
    assert.equal(inQuery.status, 401, 'a token in the URL is no session');
  });

  test('a cookie-less cross-site form cannot use a token session', async () => {
    const { token } = await tokenSignIn();
    const realName = async () => (await admin.get<{ user: { realName?: string } }>('/api/cas/session')).body.data.user.realName;
    const before = await realName();
    // A form can send neither a custom header nor JSON: its body and URL are all it controls.
    const form = new URLSearchParams({ token, realName: 'Forged_Name', password: transform('Forged-2024!') });
    for (const origin of ['http://evil.test', PORTAL]) {
      const response = await fetch(`${server.base}/api/user/profile?token=${token}`, {
        method: 'PUT',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
      });
      assert.ok([401, 403, 415].includes(response.status), `${origin}: ${response.status}`);
      const created = await fetch(`${server.base}/api/user?token=${token}`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, username: 'forged_user', realName: 'Forged_User' }),
      });
      assert.ok([401, 403, 415].includes(created.status), `${origin}: ${created.status}`);
    }
    assert.equal(await realName(), before);
    const users = await admin.get<{ list: { username: string }[] }>('/api/user?size=100');
    assert.ok(users.body.data.list.length > 0 && !users.body.data.list.some((user) => user.username === 'forged_user'));
  });
});

describe('a refused Origin', () => {
  test('says which setting allows it, in English and Chinese, and names the origin', async () => {
    const evil = server.client({ origin: 'http://localhost:5173' });
    const english = await evil.post('/api/authc/login', { username: ADMIN.username, password: transform(ADMIN.password) });
    assert.equal(english.status, 403);
    assert.match(english.body.message, /IAM_CORS_ORIGINS/);
    assert.deepEqual(english.body.data, { origin: 'http://localhost:5173', setting: 'IAM_CORS_ORIGINS' });
    const chinese = await evil.post('/api/authc/login', { username: ADMIN.username, password: transform(ADMIN.password) }, { 'accept-language': 'zh-CN' });
    assert.equal(chinese.status, 403);
    assert.match(chinese.body.message, /IAM_CORS_ORIGINS/);
    assert.match(chinese.body.message, /跨站/);
  });
});

describe('the anonymous session probe', () => {
  test('GET /cas/session/probe answers 200 and null without a session, and the session when there is one', async () => {
    const anonymous = await server.client().get('/api/cas/session/probe');
    assert.equal(anonymous.status, 200, JSON.stringify(anonymous.body));
    assert.equal(anonymous.body.code, 0);
    assert.equal(anonymous.body.data, null);
    const signedIn = await admin.get<{ user: { username: string } }>('/api/cas/session/probe');
    assert.equal(signedIn.body.data.user.username, ADMIN.username);
    const { token } = await tokenSignIn();
    const viaToken = await server.client({ origin: PORTAL }).get<{ user: { username: string } }>('/api/cas/session/probe', { token });
    assert.equal(viaToken.body.data.user.username, ADMIN.username);
  });

  test('a forged session is no session either; GET /cas/session still answers 401 (older clients rely on it)', async () => {
    const forged = await server.client().get('/api/cas/session/probe', { token: 'not-a-session', cookie: 'iam_session=not-a-session' });
    assert.equal(forged.status, 200);
    assert.equal(forged.body.data, null);
    assert.equal((await server.client().get('/api/cas/session')).status, 401);
  });
});

/** The answer's data, once it is 200. */
describe('the token header name is one of our own', () => {
  const save = async (tokenName: string, headers?: Record<string, string>) => {
    const { version } = await ok(admin.get<{ version: number }>('/api/config'), 'config');
    return admin.put('/api/config', { settings: { authConfig: { authType: 'token', tokenName } }, version }, headers);
  };

  test('standard, hop-by-hop, forwarding, tracing and request-id headers are refused with a field error', async () => {
    const bad = [
      'x-request-id',
      'User-Agent',
      'cookie',
      'host',
      'x-forwarded-for',
      'X-Forwarded-Host',
      'forwarded',
      'traceparent',
      'content-type',
      'origin',
      'referer',
      'accept',
      'accept-language',
      'connection',
      'content-length',
      'sec-fetch-site',
      'proxy-authorization',
      'transfer-encoding',
      'x-real-ip',
    ];
    for (const name of bad) {
      const answer = await save(name);
      assert.equal(answer.status, 400, name);
      assert.deepEqual(
        (answer.body.data as { fields: { field: string; rule: string }[] }).fields.map((field) => field.rule),
        ['rule.tokenNameReserved'],
        name,
      );
    }
    for (const name of ['x token', 'x:token', '', 'x-tök']) assert.equal((await save(name)).status, 400, JSON.stringify(name));
  });

  test('custom names and authorization are allowed', async () => {
    for (const name of ['x-iam-token', 'X-Shop-Token', 'authorization', 'token']) {
      assert.equal((await save(name)).status, 200, name);
    }
    await ok(save('token'), 'back to the default');
    const { version } = await ok(admin.get<{ version: number }>('/api/config'), 'config');
    await ok(admin.put('/api/config', { settings: { authConfig: { authType: 'default', tokenName: 'token' } }, version }), 'cookie mode again');
  });

  test('a reserved name stored before the check is not used: the default header is', async () => {
    await server.app.ctx.settings.update('config', (await server.app.ctx.settings.get('config')).version, (value) => ({
      ...value,
      settings: { ...value.settings, authConfig: { authType: 'token', tokenName: 'User-Agent' } },
    }));
    try {
      const signedIn = await server.client({ origin: PORTAL }).login(ADMIN.username, ADMIN.password, {}, { 'x-iam-auth-mode': 'token' });
      const { token, tokenName } = signedIn.body.data as { token: string; tokenName: string };
      assert.equal(tokenName, 'token');
      assert.equal(
        (await server.client({ origin: PORTAL }).get('/api/cas/session', { 'user-agent': token })).status,
        401,
        'the token in User-Agent is no session',
      );
      assert.equal((await server.client({ origin: PORTAL }).get('/api/cas/session', { token })).status, 200);
    } finally {
      await server.app.ctx.settings.update('config', (await server.app.ctx.settings.get('config')).version, (value) => ({
        ...value,
        settings: { ...value.settings, authConfig: { authType: 'default', tokenName: 'token' } },
      }));
    }
  });
});
