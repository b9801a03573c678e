// Every rule for the HTTP client, against a real node:http server on 127.0.0.1.
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { $progress, HttpError, apiUrl, configureHttp, hasToken, iamFetch, request, requestList, setToken, showInline } from '../../../src/core/http';
import { $messages, dismissMessage, notifySuccess, pushMessage } from '../../../src/core/messages';
import { $navigationRequest, setCurrentLocation } from '../../../src/core/navigation';
import { $session } from '../../../src/core/session-state';
import { login } from '../../../src/core/session';
import { HTTP, TIMING } from '../../../src/core/config';
import { setConfig } from '../../../src/core/config-store';
import { delay, fail, ok, startApiServer, type ApiServer } from './support/api-server';

let server: ApiServer;

before(async () => {
  server = await startApiServer();
});
after(() => server.close());
beforeEach(async () => {
  server.reset();
  configureHttp({ apiBase: server.apiBase, authMode: 'cookie', tokenName: 'token' });
  setToken(undefined);
  $navigationRequest.set(undefined);
  // Identical texts are deduplicated within 100 ms: let the previous test's toasts age.
  await delay(110);
  // After the wait: a previous test's failed call may still have had its toast to show.
  $messages.set([]);
});

/** The toasts, once a failed call's toast (it waits for the caller's catch) is out. */
const texts = async () => (await delay(5), $messages.get()).map(({ kind, text, duration }) => `${kind}:${text}:${duration}`);

describe('requests', () => {
  it('resolves to the envelope data; base path, method and JSON body', async () => {
    server.handle('POST /things', (req) => ok({ echo: req.json }));
    const data = await request<{ echo: unknown }>('POST', '/things', { body: { a: 1 } });
    assert.deepEqual(data, { echo: { a: 1 } });
    const [sent] = server.requests;
    assert.equal(sent?.headers['content-type'], 'application/json');
    assert.equal(sent?.headers.accept, 'application/json');
    assert.equal(HTTP.apiBase, '/api', 'the default base path');
  });

  it('removes empty query values; keeps 0 and false; repeats arrays', async () => {
    server.handle('GET /q', ok(null));
    await request('GET', '/q', { query: { page: 1, size: 10, a: '', b: undefined, c: null, zero: 0, no: false, tag: ['x', 'y'], name: 'a b&c' } });
    assert.equal(server.requests[0]?.query.toString(), 'page=1&size=10&zero=0&no=false&tag=x&tag=y&name=a+b%26c');
    assert.equal(apiUrl('/x', { a: '' }), `${server.apiBase}/x`);
  });

  it('sends FormData as multipart', async () => {
    server.handle('POST /upload', ok({ url: 'f1' }));
    const form = new FormData();
    form.append('file', new Blob(['hello'], { type: 'text/plain' }), 'hello.txt');
    await request('POST', '/upload', { body: form });
    assert.match(String(server.requests[0]?.headers['content-type']), /^multipart\/form-data; boundary=/);
    assert.match(server.requests[0]?.body ?? '', /filename="hello.txt"[\s\S]*hello/);
  });

  it('a file (a download) resolves to its body; its refusal is an HttpError as any call’s', async () => {
    server.handle('GET /export', { raw: 'a,b\r\n1,2\r\n', contentType: 'text/csv' });
    const file = await request<Blob>('GET', '/export', { query: { q: 'x' }, file: true });
    assert.equal(await file.text(), 'a,b\r\n1,2\r\n');
    assert.equal(server.requests[0]?.query.get('q'), 'x');
    server.handle('GET /export', fail(403, 'Not yours'));
    const error = await request('GET', '/export', { file: true, silent: true }).catch((e: unknown) => e);
    assert.ok(error instanceof HttpError);
    assert.deepEqual([error.status, error.message], [403, 'Not yours']);
  });

  it('answers without an envelope (204) resolve to undefined', async () => {
    server.handle('DELETE /x', { status: 204, raw: '' });
    assert.equal(await request('DELETE', '/x'), undefined);
  });

  it('the default timeout is 30 000 ms; a call over its timeout fails as a timeout', async () => {
    assert.equal(HTTP.timeoutMs, 30_000);
    server.handle('GET /slow', { ...ok(1), delayMs: 400 });
    const error = await request('GET', '/slow', { timeout: 100 }).catch((e: unknown) => e);
    assert.ok(error instanceof HttpError);
    assert.equal(error.reason, 'timeout');
    assert.equal(error.status, 0);
    assert.deepEqual(await texts(), ['error:The request timed out:6000']);
  });

  it('a server that cannot be reached fails as a network error', async () => {
    configureHttp({ apiBase: 'http://127.0.0.1:9/api' });
    const error = await request('GET', '/x', { silent: true }).catch((e: unknown) => e);
    assert.ok(error instanceof HttpError);
    assert.equal(error.reason, 'network');
    assert.deepEqual(await texts(), [], 'silent');
  });
});

describe('progress', () => {
  it('counts in-flight non-silent calls only', async () => {
    server.handle('GET /slow', { ...ok(1), delayMs: 150 });
    const calls = [request('GET', '/slow'), request('GET', '/slow'), request('GET', '/slow', { silent: true })];
    await delay(50);
    assert.equal($progress.get(), 2);
    await Promise.all(calls);
    assert.equal($progress.get(), 0);
  });

  it('goes back to 0 after failures', async () => {
    server.handle('GET /boom', fail(500, 'boom'));
    await request('GET', '/boom').catch(() => undefined);
    assert.equal($progress.get(), 0);
  });
});

describe('errors', () => {
  it('HttpError carries status, code, message and data (400 with field errors)', async () => {
    server.handle('POST /user', fail(400, 'Validation failed', { fields: [{ field: 'email', rule: 'rule.email' }] }));
    const error = await request('POST', '/user', { body: {} }).catch((e: unknown) => e);
    assert.ok(error instanceof HttpError);
    assert.deepEqual(
      [error.status, error.code, error.message, error.data],
      [400, 400, 'Validation failed', { fields: [{ field: 'email', rule: 'rule.email' }] }],
    );
  });

  it('403: the message for 2 s, or "No Authenticated"; shown even for silent calls', async () => {
    server.handle('GET /a', fail(403, 'Not yours'));
    server.handle('GET /b', { status: 403, raw: 'Forbidden' });
    await request('GET', '/a').catch(() => undefined);
    await request('GET', '/b', { silent: true }).catch(() => undefined);
    assert.deepEqual(await texts(), ['error:Not yours:2000', 'error:No Authenticated:2000']);
  });

  it('other errors: the message for 6 s unless silent', async () => {
    server.handle('GET /conflict', fail(409, 'The record was changed'));
    server.handle('GET /quiet', fail(500, 'Quiet failure'));
    server.handle('GET /html', { status: 502, raw: '<html>Bad gateway</html>' });
    await request('GET', '/conflict').catch(() => undefined);
    await request('GET', '/quiet', { silent: true }).catch(() => undefined);
    const error = await request('GET', '/html').catch((e: unknown) => e);
    assert.ok(error instanceof HttpError && error.status === 502 && error.code === 502);
    assert.deepEqual(await texts(), ['error:The record was changed:6000', 'error:The request failed:6000']);
  });

  it('a failure the caller shows inline (showInline in its catch) gets no toast: it is said once', async () => {
    server.handle('POST /user', fail(400, 'Validation failed', { fields: [{ field: 'email', rule: 'rule.email' }] }));
    server.handle('PUT /role', fail(403, 'Not yours'));
    await request('POST', '/user', { body: {} }).catch(showInline);
    await request('PUT', '/role').catch(showInline);
    assert.deepEqual(await texts(), []);
    await request('POST', '/user', { body: {} }).catch(() => undefined);
    assert.deepEqual(await texts(), ['error:Validation failed:6000'], 'not shown inline: one toast');
  });

  it('a 200 answer with a non-zero code is an error', async () => {
    server.handle('GET /odd', { body: { code: 1234, message: 'Odd failure', data: null } });
    const error = await request('GET', '/odd').catch((e: unknown) => e);
    assert.ok(error instanceof HttpError);
    assert.deepEqual([error.status, error.code, error.message], [200, 1234, 'Odd failure']);
  });

  it('identical texts are shown once within 100 ms', async () => {
    server.handle('GET /same', fail(500, 'Same text'));
    await Promise.all([request('GET', '/same'), request('GET', '/same'), request('GET', '/same')].map((call) => call.catch(() => undefined)));
    assert.deepEqual(await texts(), ['error:Same text:6000']);
    const first = $messages.get()[0]?.id;
    await delay(120);
    await request('GET', '/same').catch(() => undefined);
    // Shown again (a new toast, its time restarted), in place of the one still on screen.
    assert.deepEqual(await texts(), ['error:Same text:6000']);
    assert.notEqual($messages.get()[0]?.id, first);
  });

  it('401: default message "Authorization Error" with code 401, the session cleared, navigation to login with the current path', async () => {
    $session.set({ status: 'authenticated' });
    setCurrentLocation('/operate/user?page=2');
    server.handle('GET /private', { status: 401, raw: '' });
    const error = await request('GET', '/private').catch((e: unknown) => e);
    assert.ok(error instanceof HttpError);
    assert.deepEqual([error.status, error.code, error.message], [401, 401, 'Authorization Error']);
    assert.equal($session.get().status, 'anonymous');
    assert.equal($navigationRequest.get()?.path, '/login?redirect=%2Foperate%2Fuser%3Fpage%3D2');
    assert.deepEqual(await texts(), [], 'no toast: the login page explains');
  });

  it('401 on the login page does not navigate again; authRedirect false only throws', async () => {
    server.handle('GET /private', fail(401, 'Session expired'));
    setCurrentLocation('/login?redirect=%2Fx');
    await request('GET', '/private').catch(() => undefined);
    assert.equal($navigationRequest.get(), undefined);
    setCurrentLocation('/home/index');
    $session.set({ status: 'authenticated' });
    await request('GET', '/private', { authRedirect: false, silent: true }).catch(() => undefined);
    assert.equal($navigationRequest.get(), undefined);
    assert.equal($session.get().status, 'authenticated');
  });
});

describe('list calls', () => {
  it('answers the paged list', async () => {
    server.handle('GET /user', ok({ list: [{ id: '1' }], query: {}, pager: { page: 1, size: 10, total: 1 } }));
    const page = await requestList<{ id: string }>('/user', { page: 1 });
    assert.deepEqual(page.list, [{ id: '1' }]);
  });

  it("a non-array list is 'Invalid list result'", async () => {
    server.handle('GET /user', ok({ list: { id: '1' }, pager: {} }));
    const error = await requestList('/user').catch((e: unknown) => e);
    assert.ok(error instanceof HttpError);
    assert.equal(error.message, 'Invalid list result');
    assert.deepEqual(await texts(), ['error:Invalid list result:6000']);
    server.handle('GET /user', ok(null));
    await assert.rejects(requestList('/user', {}, { silent: true }), /Invalid list result/);
  });
});

describe('auth modes', () => {
  afterEach(() => {
    Reflect.deleteProperty(globalThis, 'location');
  });

  it('token mode: the token is sent in the header named tokenName and never stored', async () => {
    const written: string[] = [];
    globalThis.localStorage = { setItem: (key: string) => void written.push(key), getItem: () => null } as unknown as Storage;
    configureHttp({ authMode: 'token', tokenName: 'X-Auth-Token' });
    setToken('secret-token-1');
    server.handle('GET /me', ok(null));
    await request('GET', '/me');
    assert.equal(server.requests[0]?.headers['x-auth-token'], 'secret-token-1');
    assert.equal(server.requests[0]?.headers['x-iam-auth-mode'], 'token');
    assert.deepEqual(written, []);
    setToken(undefined);
    await request('GET', '/me');
    assert.equal(server.requests[1]?.headers['x-auth-token'], undefined);
  });

  it('cookie mode: credentials included only when the API is on another origin', async () => {
    const seen: (RequestCredentials | undefined)[] = [];
    const realFetch = globalThis.fetch;
    // A pass-through wrapper: the real fetch still makes the real request.
    globalThis.fetch = (input, init) => {
      seen.push(init?.credentials);
      return realFetch(input, init);
    };
    try {
      server.handle('GET /me', ok(null));
      Object.defineProperty(globalThis, 'location', { value: new URL('http://console.example/app'), configurable: true });
      await request('GET', '/me');
      Object.defineProperty(globalThis, 'location', { value: new URL(`${server.origin}/console`), configurable: true });
      await request('GET', '/me');
      configureHttp({ authMode: 'token' });
      Object.defineProperty(globalThis, 'location', { value: new URL('http://console.example/app'), configurable: true });
      await request('GET', '/me');
      assert.deepEqual(seen, ['include', 'same-origin', 'same-origin']);
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});

describe('tracing switch', () => {
  after(() => setConfig());

  it("with the switch 'Y' each call carries a traceparent and is reported to /trace; off by default", async () => {
    server.handle('GET /t', ok(1));
    server.handle('POST /trace', ok(null));
    await request('GET', '/t');
    assert.deepEqual(
      server.requests.map((req) => req.path),
      ['/t'],
    );
    assert.equal(server.requests[0]?.headers.traceparent, undefined);

    setConfig({ settings: { business: { skywalkingSwitch: 'Y' } } });
    await request('GET', '/t');
    await delay(100);
    const traced = server.requests.find((req) => req.path === '/trace');
    const call = server.requests.filter((req) => req.path === '/t')[1];
    assert.match(String(call?.headers.traceparent), /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    assert.deepEqual(Object.keys(traced?.json as object).sort(), ['durationMs', 'method', 'path', 'status', 'traceId']);
    assert.equal((traced?.json as { status: number }).status, 200);
  });
});

describe('messages store', () => {
  it('success messages last 5 s; messages remove themselves after their duration', async () => {
    notifySuccess('Action Success');
    assert.deepEqual(await texts(), ['success:Action Success:5000']);
    pushMessage('info', 'Short one', 50);
    assert.equal($messages.get().length, 2);
    await delay(90);
    assert.deepEqual(await texts(), ['success:Action Success:5000']);
    dismissMessage($messages.get()[0]?.id ?? -1);
    assert.deepEqual(await texts(), []);
  });

  it('a text pushed again while its toast shows replaces it (one toast, its time restarted)', async () => {
    notifySuccess('Settings saved');
    await delay(TIMING.errorThrottleMs + 20);
    notifySuccess('Other');
    notifySuccess('Settings saved');
    assert.deepEqual(await texts(), ['success:Other:5000', 'success:Settings saved:5000']);
    $messages.get().forEach((message) => dismissMessage(message.id));
  });
});

describe('token mode: the token goes only to the API origin that issued it', () => {
  let other: ApiServer;
  const token = (sent: { headers: Record<string, unknown> } | undefined) => sent?.headers.token;
  before(async () => {
    other = await startApiServer();
  });
  after(() => other.close());
  beforeEach(() => {
    other.reset();
    configureHttp({ authMode: 'token' });
    server.handle('GET /me', ok(null));
    other.handle('GET /me', ok(null));
  });
  afterEach(() => {
    Reflect.deleteProperty(globalThis, 'location');
    Reflect.deleteProperty(globalThis, 'document');
    configureHttp({ authMode: 'cookie' });
  });

  it('an api-base on another origin (another element, a changed attribute) drops the token and signs out; back again, it stays dropped', async () => {
    setToken('secret-a');
    $session.set({ status: 'authenticated' });
    configureHttp({ apiBase: other.apiBase });
    assert.equal($session.get().status, 'anonymous', 'signed out: that API has no session');
    assert.equal(hasToken(), false);
    await request('GET', '/me');
    await iamFetch('/me');
    assert.deepEqual(other.requests.map(token), [undefined, undefined]);
    assert.equal(other.requests[0]?.headers['x-iam-auth-mode'], 'token', 'it asks for token mode, as a sign-in there would');
    configureHttp({ apiBase: server.apiBase });
    await request('GET', '/me');
    assert.equal(token(server.requests[0]), undefined, 'dropped, not kept aside');
  });

  it('the same origin however it is written keeps the token: a relative api-base, a second element with the same one', async () => {
    Object.defineProperty(globalThis, 'location', { value: new URL(`${server.origin}/shop/`), configurable: true });
    setToken('secret-b');
    $session.set({ status: 'authenticated' });
    configureHttp({ apiBase: '/api' });
    configureHttp({ apiBase: `${server.origin}/api/` });
    configureHttp({ apiBase: '/api' });
    await request('GET', '/me');
    assert.equal(token(server.requests[0]), 'secret-b');
    assert.equal($session.get().status, 'authenticated');
  });

  it('a <base href> that moves a relative api-base elsewhere: the call goes where fetch sends it, without the token', async () => {
    Object.defineProperty(globalThis, 'location', { value: new URL(`${server.origin}/shop/`), configurable: true });
    const document = { baseURI: `${server.origin}/shop/` };
    Object.defineProperty(globalThis, 'document', { value: document, configurable: true });
    configureHttp({ apiBase: '/api' });
    setToken('secret-c');
    await request('GET', '/me');
    assert.equal(token(server.requests[0]), 'secret-c');
    document.baseURI = `${other.origin}/`; // markup injected: <base href="http://other/">
    await request('GET', '/me', { silent: true }).catch(() => undefined);
    await iamFetch('/me');
    assert.equal(other.requests.length, 2, 'the address was resolved against the base, as fetch does');
    assert.deepEqual(other.requests.map(token), [undefined, undefined]);
    assert.equal(server.requests.length, 1);
  });

  it('a sign-in answered after the api-base moved to another origin is dropped: its token is kept for no API', async () => {
    configureHttp({ apiBase: server.apiBase });
    server.handle('POST /authc/login', { ...ok({ hasNextStep: false, loginSuccess: true, token: 'secret-d', tokenName: 'token' }), delayMs: 200 });
    const signingIn = login({ username: 'alice', password: 'Alice-2024!' });
    while (!server.requests.length) await delay(5);
    configureHttp({ apiBase: other.apiBase });
    const error = await signingIn.catch((e: unknown) => e);
    assert.ok(error instanceof HttpError);
    assert.equal(error.reason, 'moved');
    assert.equal(hasToken(), false);
    await request('GET', '/me');
    assert.equal(token(other.requests[0]), undefined);
  });
});
