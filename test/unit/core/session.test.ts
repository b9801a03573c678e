// Session flows (login, next step, reload, logout) and the api modules, against a real node:http server.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { $loginCaptcha, $session, login, logout, reload, submitNextStep } from '../../../src/core/session';
import { configureHttp, setToken, HttpError } from '../../../src/core/http';
import { $messages } from '../../../src/core/messages';
import { $navigationRequest, setCurrentLocation } from '../../../src/core/navigation';
import { sha256Hex } from '../../../src/core/password';
import { setConfig } from '../../../src/core/config-store';
import * as api from '../../../src/core/api';
import type { SessionAnswer } from '../../../src/core/types';
import { delay, fail, ok, startApiServer, type ApiServer } from './support/api-server';
import { Permission } from '../../../src/core/permission-codes';

let server: ApiServer;

const sessionAnswer = (overrides: Partial<SessionAnswer['user']> = {}, administeredApps: SessionAnswer['administeredApps'] = []): SessionAnswer => ({
  id: 'session-handle-1',
  user: {
    id: 'u1',
    username: 'alice',
    isAdmin: true,
    isMaster: false,
    ownedApps: [],
    permissions: [Permission.SelfService, Permission.Apps, Permission.Users, Permission.Settings, Permission.Operations],
    featureBlacklist: [],
    sessionId: 'session-handle-1',
    extraProp: { intProperty1: 2 },
    ...overrides,
  },
  administeredApps,
});

before(async () => {
  server = await startApiServer();
});
after(() => server.close());
beforeEach(async () => {
  server.reset();
  configureHttp({ apiBase: server.apiBase, authMode: 'cookie', tokenName: 'token' });
  setToken(undefined);
  setConfig();
  $session.set({ status: 'unknown' });
  $navigationRequest.set(undefined);
  $loginCaptcha.set(undefined);
  setCurrentLocation('/login');
  await delay(110);
  // After the wait: a previous test's failed call may still have had its toast to show.
  $messages.set([]);
});

/** The error toasts, once a failed call's toast (it waits for the caller's catch) is out. */
const errors = async () => (await delay(5), $messages.get()).filter((message) => message.kind === 'error').map((message) => message.text);
const paths = () => server.requests.map((req) => `${req.method} ${req.path}`);

describe('session: login', () => {
  it('sends the trimmed, transformed password, passes query params through, then reloads the session', async () => {
    server.handle('POST /authc/login', ok({ hasNextStep: false, loginSuccess: true, message: 'Login success', redirectURL: '/operate/user' }));
    server.handle('GET /cas/session/probe', ok(sessionAnswer()));
    const result = await login({ username: ' alice ', password: '  abc123  ' }, { redirect: '/operate/user' });
    const [sent] = server.requests;
    assert.deepEqual(sent?.json, { username: 'alice', password: sha256Hex('abc123') });
    assert.equal(sent?.query.get('redirect'), '/operate/user');
    assert.deepEqual(paths(), ['POST /authc/login', 'GET /cas/session/probe']);
    assert.equal(result.kind, 'success');
    assert.equal(result.kind === 'success' && result.redirectURL, '/operate/user');
    assert.equal($session.get().status, 'authenticated');
    assert.equal($session.get().user?.username, 'alice');
    assert.equal($session.get().id, 'session-handle-1');
  });

  it("a failure without loginSuccess throws the message, or 'User auth info unavailable', without a toast (the form shows it once)", async () => {
    server.handle('POST /authc/login', ok({ hasNextStep: false, loginSuccess: false, message: 'Account expired' }));
    await assert.rejects(login({ username: 'a', password: 'abc123' }), /Account expired/);
    await delay(110);
    server.handle('POST /authc/login', ok({ hasNextStep: false, loginSuccess: false, message: '' }));
    await assert.rejects(login({ username: 'a', password: 'abc123' }), /User auth info unavailable/);
    assert.deepEqual(await errors(), []);
    assert.equal($session.get().status, 'unknown', 'no session read after a failure');
  });

  it("a refused login (401) throws the server's message without a toast, tells the UI to show the captcha, and does not navigate", async () => {
    server.handle('POST /authc/login', fail(401, 'Invalid username or password', { captchaImageUrl: '/api/captcha/image/display' }));
    const error = await login({ username: 'a', password: 'wrong1' }).catch((e: unknown) => e);
    assert.ok(error instanceof HttpError && error.status === 401);
    assert.equal(error.message, 'Invalid username or password');
    assert.equal($loginCaptcha.get(), '/api/captcha/image/display');
    assert.deepEqual(await errors(), []);
    assert.equal($navigationRequest.get(), undefined);
  });

  it("code 1001 is rethrown as Error('1001'); the captcha is still asked for", async () => {
    server.handle('POST /authc/login', fail(400, 'Please enter the captcha', { captchaImageUrl: '/api/captcha/image/display', code: 1001 }, 1001));
    const error = await login({ username: 'a', password: 'abc123' }).catch((e: unknown) => e);
    assert.ok(error instanceof Error && !(error instanceof HttpError));
    assert.equal(error.message, '1001');
    assert.equal($loginCaptcha.get(), '/api/captcha/image/display');
    assert.deepEqual(await errors(), []);
  });

  it('captcha fields are sent; a successful login hides the captcha again', async () => {
    $loginCaptcha.set('/api/captcha/image/display');
    server.handle('POST /authc/login', ok({ hasNextStep: false, loginSuccess: true, message: 'ok' }));
    server.handle('GET /cas/session/probe', ok(sessionAnswer()));
    await login({ username: 'a', password: 'abc123', captcha: 'x7k2', captchaKey: 'k'.repeat(32) });
    assert.deepEqual(server.requests[0]?.json, { username: 'a', password: sha256Hex('abc123'), captcha: 'x7k2', captchaKey: 'k'.repeat(32) });
    assert.equal($loginCaptcha.get(), undefined);
  });

  it('multi-step login: returns the next step, then submitNextStep continues with the code', async () => {
    server.handle('POST /authc/login', (req) =>
      (req.json as { code?: string }).code
        ? ok({ hasNextStep: false, loginSuccess: true, message: 'ok', redirectURL: '/' })
        : ok({ hasNextStep: true, nextStep: 'PHONE_CAPTCHA', loginSuccess: false, message: 'Enter the code' }),
    );
    server.handle('GET /cas/session/probe', ok(sessionAnswer()));
    const first = await login({ username: 'alice', password: 'abc123' }, { redirect: '/x' });
    assert.deepEqual(first, { kind: 'nextStep', nextStep: 'PHONE_CAPTCHA', message: 'Enter the code', hasNextStep: true, loginSuccess: false });
    assert.equal($session.get().status, 'unknown');
    const second = await submitNextStep({ code: ' 123456 ' });
    assert.equal(second.kind, 'success');
    assert.deepEqual(server.requests[1]?.json, { username: 'alice', password: sha256Hex('abc123'), nextStep: 'PHONE_CAPTCHA', code: '123456' });
    assert.equal(server.requests[1]?.query.get('redirect'), '/x');
    await assert.rejects(submitNextStep({ code: Permission.Apps }), /No sign-in step is pending/);
  });

  it("multi-step login with a passkey: the step's options come back, submitNextStep sends the assertion", async () => {
    const passkeyOptions = {
      challenge: 'c-1',
      rpId: 'localhost',
      userVerification: 'discouraged' as const,
      allowCredentials: [{ id: 'k-1', type: 'public-key' }],
    };
    server.handle('POST /authc/login', (req) =>
      (req.json as { passkey?: unknown }).passkey
        ? ok({ hasNextStep: false, loginSuccess: true, message: 'ok' })
        : ok({ hasNextStep: true, nextStep: 'PASSKEY', loginSuccess: false, message: 'Confirm with your passkey', passkeyOptions }),
    );
    server.handle('GET /cas/session/probe', ok(sessionAnswer()));
    const first = await login({ username: 'alice', password: 'abc123' });
    assert.deepEqual(first, {
      kind: 'nextStep',
      nextStep: 'PASSKEY',
      message: 'Confirm with your passkey',
      passkeyOptions,
      hasNextStep: true,
      loginSuccess: false,
    });
    const passkey = {
      id: 'k-1',
      rawId: 'k-1',
      type: 'public-key' as const,
      clientExtensionResults: {},
      response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' },
    };
    assert.equal((await submitNextStep({ passkey })).kind, 'success');
    assert.deepEqual(server.requests[1]?.json, { username: 'alice', password: sha256Hex('abc123'), nextStep: 'PASSKEY', passkey });
  });

  it('token mode: the token of the login answer goes in the header of the next calls', async () => {
    configureHttp({ authMode: 'token', tokenName: 'token' });
    server.handle('POST /authc/login', ok({ hasNextStep: false, loginSuccess: true, message: 'ok', token: 'tok-123' }));
    server.handle('GET /cas/session/probe', ok(sessionAnswer()));
    await login({ username: 'a', password: 'abc123' });
    assert.equal(server.requests[0]?.headers['x-iam-auth-mode'], 'token');
    assert.equal(server.requests[0]?.headers.token, undefined);
    assert.equal(server.requests[1]?.headers.token, 'tok-123');
  });
});

describe('session: reload', () => {
  it("an empty permission table: 'Access is denied', the session is cleared", async () => {
    $session.set({ status: 'authenticated' });
    server.handle('GET /cas/session/probe', ok(sessionAnswer({ permissions: [] })));
    await assert.rejects(reload(), /Access is denied/);
    assert.equal($session.get().status, 'anonymous');
    assert.deepEqual(await errors(), ['Access is denied']);
  });

  it("with the ACL switch 'N' an empty table is accepted", async () => {
    setConfig({ settings: { business: { aclSwitch: 'N' } } });
    server.handle('GET /cas/session/probe', ok(sessionAnswer({ permissions: [] })));
    assert.equal((await reload()).status, 'authenticated');
  });

  it("with the auth check: a non-master user without administered apps is 'Access is denied'", async () => {
    server.handle('GET /cas/session/probe', ok(sessionAnswer({ permissions: [Permission.SelfService] })));
    await assert.rejects(reload({ authCheck: true }), /Access is denied/);
    assert.equal($session.get().status, 'anonymous');
    server.handle('GET /cas/session/probe', ok(sessionAnswer({ permissions: [Permission.SelfService] }, [{ id: 'a1', name: 'App one' }])));
    assert.deepEqual((await reload({ authCheck: true })).administeredApps, [{ id: 'a1', name: 'App one' }]);
    server.handle('GET /cas/session/probe', ok(sessionAnswer({ permissions: [Permission.SelfService], isMaster: true })));
    assert.equal((await reload({ authCheck: true })).status, 'authenticated');
  });

  it("an answer without a user is 'Invalid auth user info'", async () => {
    server.handle('GET /cas/session/probe', ok({ id: 'x' }));
    await assert.rejects(reload(), /Invalid auth user info/);
    assert.equal($session.get().status, 'anonymous');
  });

  it('a read failure goes to the returned redirectURL, or to /login with a redirect query (silently)', async () => {
    setCurrentLocation('/operate/tenant/list');
    server.handle('GET /cas/session/probe', fail(401, 'session expired', { redirectURL: 'https://sso.example/login' }));
    await assert.rejects(reload());
    assert.equal($navigationRequest.get()?.path, 'https://sso.example/login');
    server.handle('GET /cas/session/probe', fail(401, 'session expired'));
    await assert.rejects(reload());
    assert.equal($navigationRequest.get()?.path, '/login?redirect=%2Foperate%2Ftenant%2Flist');
    assert.equal($session.get().status, 'anonymous');
    assert.deepEqual(await errors(), [], 'the session read is silent');
  });

  it('a read failure on a page that needs no login stays there', async () => {
    setCurrentLocation('/login?redirect=%2Fx');
    server.handle('GET /cas/session/probe', fail(401, 'session expired'));
    await assert.rejects(reload());
    assert.equal($navigationRequest.get(), undefined);
    assert.equal($session.get().status, 'anonymous');
  });
});

describe('session: logout', () => {
  it('GET /cas/logout, then the answer redirectURL; the session is cleared', async () => {
    $session.set({ status: 'authenticated' });
    setToken('t');
    server.handle('GET /cas/logout', ok({ redirectURL: '/login?bye=1' }));
    assert.equal(await logout(), '/login?bye=1');
    assert.equal($session.get().status, 'anonymous');
    assert.equal($navigationRequest.get()?.path, '/login?bye=1');
  });

  it('without a redirectURL, or when the call fails: /login', async () => {
    server.handle('GET /cas/logout', ok({}));
    assert.equal(await logout(), '/login');
    server.handle('GET /cas/logout', fail(500, 'Logout broke'));
    $session.set({ status: 'authenticated' });
    assert.equal(await logout(), '/login');
    assert.equal($session.get().status, 'anonymous');
  });

  it('with an appLogoutURL (SAML apps to sign out of in the browser): a full page load there', async () => {
    const visited: string[] = [];
    const page = globalThis as { location?: unknown };
    page.location = { assign: (url: string) => visited.push(url) };
    try {
      server.handle('GET /cas/logout', ok({ redirectURL: '/login', appLogoutURL: 'http://iam.test/api/saml/logout/chain' }));
      $session.set({ status: 'authenticated' });
      assert.equal(await logout(), 'http://iam.test/api/saml/logout/chain');
      assert.deepEqual(visited, ['http://iam.test/api/saml/logout/chain']);
      assert.equal($session.get().status, 'anonymous');
    } finally {
      delete page.location;
    }
  });
});

describe('api modules', () => {
  it('users.list: page/size defaults, searchProp/searchValue as a field filter, empty values removed', async () => {
    server.handle('GET /user', ok({ list: [], query: {}, pager: { page: 1, size: 10, total: 0 } }));
    await api.users.list();
    await api.users.list({ page: 2, size: 20, searchProp: 'username', searchValue: 'bob' });
    await api.users.list({ searchProp: 'email', searchValue: '' });
    assert.deepEqual(
      server.requests.map((req) => req.query.toString()),
      ['page=1&size=10', 'page=2&size=20&searchProp=username&searchValue=bob&username=bob', 'page=1&size=10&searchProp=email'],
    );
    server.handle('GET /user', ok({ list: 'nope' }));
    await assert.rejects(api.users.list(), /Invalid list result/);
  });

  it('users.create: empty fields removed, extraProp added, password checked then transformed', async () => {
    server.handle('POST /user', (req) => ok(req.json));
    await api.users.create({ username: 'bob', realName: 'Bob', password: ' abc123 ', email: '', mobilePhone: undefined, description: 'Desk' });
    assert.deepEqual(server.requests[0]?.json, { username: 'bob', realName: 'Bob', password: sha256Hex('abc123'), description: 'Desk', extraProp: {} });
    await assert.rejects(api.users.create({ username: 'bob', realName: 'Bob', password: 'weak' }), /rule.password/);
    assert.equal(server.requests.length, 1, 'a weak password is never sent');
  });

  it('users: get, basic info, update, profile, remove, unlock (ids encoded as one segment)', async () => {
    for (const route of [
      'GET /user/a%2Fb',
      'GET /user/u1/basic_info',
      'PUT /user/u1/basic_info',
      'PUT /user/profile',
      'DELETE /user/u1',
      'DELETE /authc/user/u1/login/unlock',
    ]) {
      server.handle(route, ok({ id: 'u1' }));
    }
    await api.users.get('a/b');
    await api.users.basicInfo('u1');
    await api.users.updateBasicInfo('u1', { realName: 'Al', version: 3 });
    await api.users.updateProfile({ realName: 'Al', email: 'al@example.com' });
    await api.users.remove('u1');
    await api.users.unlock('u1');
    assert.deepEqual(paths(), [
      'GET /user/a%2Fb',
      'GET /user/u1/basic_info',
      'PUT /user/u1/basic_info',
      'PUT /user/profile',
      'DELETE /user/u1',
      'DELETE /authc/user/u1/login/unlock',
    ]);
    assert.deepEqual(server.requests[2]?.json, { realName: 'Al', version: 3 });
  });

  it('users: admin and self password payloads, transformed', async () => {
    server.handle('POST /user/u2/password', ok(null));
    server.handle('POST /user/u1/password', ok(null));
    server.handle('PUT /user/password', ok(null));
    await api.users.resetPasswordAsAdmin({ id: 'u2', username: 'bob', newPassword: 'new123', adminPassword: ' admin1 ' });
    await api.users.resetOwnPassword({ userId: 'u1', oldPassword: 'old123', newPassword: 'new456' });
    await api.users.updatePassword({ loginUserId: 'u1', password: 'p', opUserPassword: 'o' });
    assert.deepEqual(server.requests[0]?.json, { id: 'u2', username: 'bob', password: sha256Hex('new123'), opUserPassword: sha256Hex('admin1') });
    assert.deepEqual(server.requests[1]?.json, { loginUserId: 'u1', password: sha256Hex('new456'), opUserPassword: sha256Hex('old123') });
    assert.deepEqual(paths(), ['POST /user/u2/password', 'POST /user/u1/password', 'PUT /user/password']);
  });

  it('license: status, request code, activation', async () => {
    server.handle('GET /license/status', ok({ status: 'valid' }));
    server.handle('GET /license/auth', ok('REQ-CODE-1'));
    server.handle('POST /license/auth', (req) => ok({ status: 'valid', licensee: (req.json as { newLicense: string }).newLicense }));
    assert.deepEqual(await api.license.status(), { status: 'valid' });
    assert.equal(await api.license.requestCode(), 'REQ-CODE-1');
    assert.equal((await api.license.activate('LIC-1')).licensee, 'LIC-1');
  });

  it('thirdParty: access info and complement with access_ticket', async () => {
    server.handle(
      'GET /interaction/idp/github/authorize/user/access/info/tok1',
      ok({ idpCode: 'github', token: 'tok1', accessTicket: 't', needComplement: true }),
    );
    server.handle('POST /interaction/idp/github/authorize/after/user/complement', ok({ done: true }));
    assert.equal((await api.thirdParty.accessInfo('github', 'tok1', 'ticket 1')).needComplement, true);
    assert.deepEqual(await api.thirdParty.complement('github', 'ticket 1', { email: 'a@b.co' }), { done: true });
    assert.equal(server.requests[0]?.query.get('access_ticket'), 'ticket 1');
    assert.deepEqual(server.requests[1]?.json, { email: 'a@b.co' });
  });

  it('files: multipart upload answers data.url; fileUrl points at /api/file/get/{id}, and only for file ids', async () => {
    const id = `${'ab'.repeat(32)}.png`;
    server.handle('POST /file/upload', ok({ url: id }));
    assert.equal(await api.files.upload(new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }), 'logo.png'), id);
    assert.match(server.requests[0]?.body ?? '', /name="file"; filename="logo.png"/);
    assert.equal(api.files.fileUrl(id), `${server.apiBase}/file/get/${id}`);
    for (const hostile of ['../../cas/logout', 'abc/logo 1.png', 'https://cdn.example/x.png', `${id}/../../x`])
      assert.equal(api.files.fileUrl(hostile), '', hostile);
    configureHttp({ apiBase: '/api' });
    assert.equal(api.files.fileUrl(id), `/api/file/get/${id}`);
    assert.equal(api.files.fileUrl(`/api/file/get/${id}`), `/api/file/get/${id}`);
  });

  it('captcha: /api/captcha/image/display with a random query (and the key)', () => {
    configureHttp({ apiBase: '/api' });
    const first = api.captcha.captchaImageUrl();
    const second = api.captcha.captchaImageUrl('k1');
    assert.match(first, /^\/api\/captcha\/image\/display\?r=[a-z0-9]+$/);
    assert.match(second, /^\/api\/captcha\/image\/display\?r=[a-z0-9]+&key=k1$/);
    assert.notEqual(first.split('=')[1], second.split('=')[1]?.split('&')[0]);
    assert.match(api.captcha.newCaptchaKey(), /^[0-9a-f]{32}$/);
  });

  it('menus: the multi-app menu list with query params; auth: cas login', async () => {
    server.handle('GET /menu/app/assignment/public/multi_app_menu/list', ok([{ appId: 'a1' }]));
    server.handle('GET /cas/login', ok({ loginSuccess: false, redirectURL: '/login', message: 'session expired' }));
    assert.deepEqual(await api.menus.multiAppMenuList({ appId: 'a1' }), [{ appId: 'a1' }]);
    assert.equal(server.requests[0]?.query.toString(), 'appId=a1');
    assert.equal((await api.auth.casLogin({ redirect: '/x' })).message, 'session expired');
  });
});
