// Security headers on every kind of answer: the console page, JSON, errors (400, 401, 404) and files;
// and the answers Fastify and Node give themselves (bad URL encoding, malformed or too deeply
// nested JSON, wrong content type, too large, unknown method, unparsable request) in the envelope;
// private answers are never cached (Cache-Control: no-store), content-addressed files are.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startServer, type TestServer } from './harness';
import { rawRequest, type RawAnswer } from './security-support';

let server: TestServer;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server.stop();
});

test('every answer carries nosniff, a CSP, frame and referrer policies', async () => {
  const cases: [string, RequestInit, number][] = [
    ['/', {}, 200],
    ['/api/config', {}, 200],
    ['/api/cas/session', {}, 401],
    ['/api/no-such-call', {}, 404],
    ['/api/file/get/..%2Fetc%2Fpasswd', {}, 400],
    ['/api/file/get/' + '0'.repeat(64) + '.png', {}, 404],
    ['/api/authc/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"username":' }, 400],
  ];
  for (const [path, init, status] of cases) {
    const answer = await fetch(server.base + path, init);
    assert.equal(answer.status, status, path);
    assert.equal(answer.headers.get('x-content-type-options'), 'nosniff', path);
    assert.match(answer.headers.get('content-security-policy') ?? '', /default-src 'self'|default-src 'none'/, path);
    assert.match(answer.headers.get('content-security-policy') ?? '', /frame-ancestors|sandbox/, path);
    assert.ok(answer.headers.get('x-frame-options'), `${path}: x-frame-options`);
    assert.ok(answer.headers.get('referrer-policy'), `${path}: referrer-policy`);
    assert.ok(!answer.headers.get('x-powered-by'), path);
  }
});

test('JSON answers carry the headers a browser acts on for them, not those only a page uses', async () => {
  const pageOnly = [
    'cross-origin-opener-policy',
    'origin-agent-cluster',
    'x-dns-prefetch-control',
    'x-download-options',
    'x-xss-protection',
    'x-permitted-cross-domain-policies',
  ];
  /** What a JSON answer carries: no page-only header, a CSP as strict as the page's, the rest. */
  const assertJsonAnswerHeaders = (answer: Response, path: string) => {
    for (const name of pageOnly) assert.equal(answer.headers.get(name), null, `${path}: ${name}`);
    assert.equal(
      answer.headers.get('content-security-policy'),
      "default-src 'self';base-uri 'self';form-action 'self';frame-ancestors 'self';object-src 'none'",
      path,
    );
    assert.equal(answer.headers.get('x-content-type-options'), 'nosniff', path);
    assert.equal(answer.headers.get('x-frame-options'), 'SAMEORIGIN', path);
    assert.equal(answer.headers.get('referrer-policy'), 'no-referrer', path);
    assert.equal(answer.headers.get('cross-origin-resource-policy'), 'same-site', path);
    assert.equal(answer.headers.get('cache-control'), 'no-store', path);
  };
  for (const path of ['/api/config', '/api/cas/session', '/api/cas/login']) {
    const answer = await fetch(server.base + path);
    assert.equal(answer.status, path === '/api/cas/session' ? 401 : 200, path);
    assertJsonAnswerHeaders(answer, path);
  }
  // The provider's token endpoints answer an app JSON only: the same headers as the API's.
  for (const path of ['/api/oidc/token', '/api/oidc/token/introspection', '/api/oidc/token/revocation']) {
    const answer = await fetch(server.base + path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    assert.equal(answer.status, 400, path);
    assert.match(answer.headers.get('content-type') ?? '', /^application\/json/, path);
    assertJsonAnswerHeaders(answer, path);
  }
  // The console page and the provider's pages (documents) keep every header.
  for (const path of ['/', '/api/oidc/.well-known/openid-configuration']) {
    const answer = await fetch(server.base + path);
    assert.equal(answer.status, 200, path);
    assert.equal(answer.headers.get('cross-origin-opener-policy'), 'same-origin', path);
    assert.match(answer.headers.get('content-security-policy') ?? '', /script-src 'self'/, path);
  }
});

function assertGuarded(answer: RawAnswer, status: number, where: string): { code: number; message: string; data: unknown } {
  assert.equal(answer.status, status, `${where}: ${answer.text.slice(0, 200)}`);
  assert.equal(answer.headers['x-content-type-options'], 'nosniff', where);
  assert.match(String(answer.headers['content-security-policy']), /default-src 'self'/, where);
  assert.equal(answer.headers['x-frame-options'], 'SAMEORIGIN', where);
  assert.ok(answer.headers['referrer-policy'], where);
  const envelope = JSON.parse(answer.text) as { code: number; message: string; data: unknown };
  assert.deepEqual(Object.keys(envelope).sort(), ['code', 'data', 'message'], where);
  assert.equal(envelope.code, status, where);
  return envelope;
}

test('framework errors are the envelope with the security headers', async () => {
  const admin = await server.admin();
  const signedIn = {
    cookie: [...admin.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    origin: server.base,
    'content-type': 'application/json',
  };
  const json = { 'content-type': 'application/json' };
  const cases: [string, string, string, Record<string, string>, string | undefined, number][] = [
    ['bad URL encoding', 'GET', '/api/user/%ff', {}, undefined, 400],
    ['bad URL encoding outside the API', 'GET', '/%e0%a4%a', {}, undefined, 400],
    ['path parameter too long', 'GET', `/api/user/${'a'.repeat(200)}`, {}, undefined, 414],
    ['malformed JSON', 'POST', '/api/authc/login', json, '{"username":', 400],
    ['empty JSON body', 'POST', '/api/authc/login', json, '', 400],
    ['prototype poisoning', 'POST', '/api/authc/login', json, '{"__proto__":{"admin":true}}', 400],
    ['wrong content type', 'POST', '/api/authc/login', { 'content-type': 'application/xml' }, '<a/>', 415],
    ['too large', 'POST', '/api/authc/login', json, JSON.stringify({ username: 'x'.repeat(300 * 1024) }), 413],
    ['method the route lacks', 'PATCH', '/api/config', {}, undefined, 404],
    ['unknown method', 'PROPFIND', '/api/config', {}, undefined, 404],
    ['missing file', 'GET', '/missing.png', {}, undefined, 404],
    ['5 000 nested arrays', 'POST', '/api/menu-plans', signedIn, '['.repeat(5000) + ']'.repeat(5000), 400],
    ['5 000 nested objects', 'POST', '/api/menu-plans', signedIn, '{"a":'.repeat(5000) + '1' + '}'.repeat(5000), 400],
  ];
  for (const [name, method, path, headers, body, status] of cases) {
    const envelope = assertGuarded(await rawRequest(server.base, method, path, headers, body), status, name);
    if (name.includes('nested')) assert.match(envelope.message, /nested more than 64 levels/, name);
  }
  // Deep but within the limit, and brackets inside strings, are ordinary bodies.
  const deepEnough = await rawRequest(
    server.base,
    'POST',
    '/api/authc/login',
    json,
    `{"username":"${'['.repeat(500)}","x":${'['.repeat(60)}${']'.repeat(60)}}`,
  );
  assert.equal(deepEnough.status, 400);
  assert.doesNotMatch(deepEnough.text, /nested/);
});

test('a request Node cannot parse is answered in the envelope with the security headers', async () => {
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(new URL(server.base).port), '127.0.0.1', () => socket.write('NOT-A-METHOD / HTTP/1.1\r\nHost: x\r\n\r\n'));
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  assert.match(head, /^HTTP\/1\.1 400/);
  assert.match(head, /x-content-type-options: nosniff/i);
  assert.match(head, /content-security-policy: default-src 'self'/i);
  assert.deepEqual(JSON.parse(body), { code: 400, message: 'Bad Request', data: null });
});

/** The answer's data, once it is 200. */
async function ok<T>(answer: Promise<{ status: number; body: { data: T } }>, what: string): Promise<T> {
  const { status, body } = await answer;
  assert.equal(status, 200, `${what}: ${JSON.stringify(body)}`);
  return body.data;
}

describe('private API answers are not cached', () => {
  test('authenticated reads answer Cache-Control: no-store; content-addressed files keep their public caching', async () => {
    const admin = await server.admin();
    const me = (await ok(admin.get<{ user: { id: string } }>('/api/cas/session'), 'session')).user.id;
    for (const path of [
      '/api/cas/session',
      `/api/user/${me}`,
      '/api/user',
      '/api/cas/sessions',
      `/api/user/${me}/sessions`,
      '/api/audit',
      '/api/settings/login',
      '/api/config',
      '/api/tenants/tree',
      '/api/oidc/.well-known/openid-configuration',
    ]) {
      const answer = await admin.raw('GET', path);
      await answer.body?.cancel();
      assert.equal(answer.status, 200, path);
      assert.equal(answer.headers.get('cache-control'), 'no-store', path);
    }
    const refused = await server.client().raw('GET', '/api/user');
    await refused.body?.cancel();
    assert.equal(refused.headers.get('cache-control'), 'no-store', 'a 401 too');
    const form = new FormData();
    form.append(
      'file',
      new Blob([Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')], {
        type: 'image/png',
      }),
      'dot.png',
    );
    const uploaded = await ok(admin.post<{ url: string }>('/api/file/upload', form), 'upload');
    const file = await admin.raw('GET', `/api/file/get/${uploaded.url}`);
    await file.body?.cancel();
    assert.equal(file.status, 200);
    assert.match(file.headers.get('cache-control') ?? '', /public/);
  });
});
