// What a host page gets from `iam-console/core` beside the elements: iamFetch with the session,
// the token header the sign-in answer names, the anonymous probe, and no way to send the session
// outside the API.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiUrl, configureHttp, iamFetch, request, setToken } from '../../../src/core/http';
import { $session, login, reload } from '../../../src/core/session';
import { $navigationRequest, setCurrentLocation } from '../../../src/core/navigation';
import { $messages } from '../../../src/core/messages';
import { ok, startApiServer, type ApiServer } from './support/api-server';

let server: ApiServer;

before(async () => {
  server = await startApiServer();
});
after(() => server.close());
beforeEach(() => {
  server.reset();
  configureHttp({ apiBase: server.apiBase, authMode: 'token', tokenName: 'token' });
  setToken(undefined);
  $messages.set([]);
  $navigationRequest.set(undefined);
});

const sessionAnswer = {
  id: 'handle-1',
  user: {
    id: 'u1',
    username: 'alice',
    isAdmin: false,
    isMaster: false,
    ownedApps: [],
    permissions: ['0'],
    featureBlacklist: [],
    sessionId: 'handle-1',
    extraProp: {},
  },
  administeredApps: [],
};

describe('token mode: the header of the sign-in answer', () => {
  it('sends the token in the header the answer names, not the configured one', async () => {
    server.handle('POST /authc/login', ok({ hasNextStep: false, loginSuccess: true, message: 'Login success', token: 'secret-1', tokenName: 'x-shop-token' }));
    server.handle('GET /cas/session/probe', ok(sessionAnswer));
    const result = await login({ username: 'alice', password: 'Alice-2024!' });
    assert.equal(result.kind, 'success');
    assert.ok(!JSON.stringify(result).includes('secret-1'), 'the sign-in result does not carry the token');
    const read = server.requests.find((req) => req.path === '/cas/session/probe');
    assert.equal(read?.headers['x-shop-token'], 'secret-1');
    assert.equal(read?.headers.token, undefined);
    assert.equal($session.get().user?.username, 'alice');
  });
});

describe('iamFetch', () => {
  it('calls the API with the session token and answers the Response', async () => {
    setToken('secret-2', 'x-shop-token');
    server.handle('GET /user/profile', ok({ username: 'alice' }));
    const response = await iamFetch('/user/profile', { headers: { 'x-shop-token': 'forged', accept: 'application/json' } });
    assert.equal(response.status, 200);
    assert.deepEqual(((await response.json()) as { data: unknown }).data, { username: 'alice' });
    assert.equal(server.requests[0]?.headers['x-shop-token'], 'secret-2', 'the page cannot replace the token header');
  });

  it('refuses every path that would take the session off the API', async () => {
    setToken('secret-3', 'token');
    for (const path of ['https://evil.test/x', '//evil.test/x', '@evil.test/x', '/../steal', '/%2e%2e/steal', 'user', '\\\\evil.test/x']) {
      assert.throws(() => iamFetch(path), /Not a path of the API/, path);
      await assert.rejects(request('GET', path, { silent: true }), /Not a path of the API/, path);
    }
    assert.equal(server.requests.length, 0);
    assert.match(apiUrl('/file/get/abc'), /\/api\/file\/get\/abc$/);
  });
});

describe('the anonymous session probe', () => {
  it('a 200 with null is no session: cleared, token forgotten, sign-in asked', async () => {
    setToken('stale', 'token');
    setCurrentLocation('/operate/user');
    server.handle('GET /cas/session/probe', ok(null));
    await assert.rejects(reload(), (error: Error & { status?: number }) => error.status === 401);
    assert.equal(server.requests[0]?.path, '/cas/session/probe');
    assert.equal($session.get().status, 'anonymous');
    assert.equal($navigationRequest.get()?.path, '/login?redirect=%2Foperate%2Fuser');
    server.handle('GET /x', ok(null));
    await request('GET', '/x');
    assert.equal(server.requests.at(-1)?.headers.token, undefined, 'the stale token is forgotten');
  });
});

describe('token mode without a token', () => {
  it('is an anonymous visitor at once, with no call to the server; cookie mode and a held token stay to be read', () => {
    $session.set({ status: 'unknown' });
    configureHttp({ authMode: 'cookie' });
    assert.equal($session.get().status, 'unknown', 'cookie mode: the session cookie may be there, the server is asked');
    setToken('held', 'token');
    configureHttp({ authMode: 'token' });
    assert.equal($session.get().status, 'unknown', 'a held token is a session to read');
    setToken(undefined);
    configureHttp({ authMode: 'token' });
    assert.equal($session.get().status, 'anonymous');
    assert.equal(server.requests.length, 0);
  });
});
