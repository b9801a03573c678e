// Security headers on every kind of answer: the console page, JSON, errors (400, 401, 404) and files.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './harness';

let server: TestServer;
before(async () => { server = await startServer(); });
after(async () => { await server.stop(); });

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
