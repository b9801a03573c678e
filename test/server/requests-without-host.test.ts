// A request without a Host header: HTTP/1.1 requires one (RFC 9112 §3.2), and Node answered its
// absence itself with a bare 400 (no envelope, no security headers); now it is answered in the
// envelope with the headers every answer carries. HTTP/1.0 may leave Host out and is served.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startServer, type TestServer } from './harness';

let server: TestServer;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server.stop();
});

/** The raw answer (head, body) to `request` written on a fresh connection. */
function send(request: string): Promise<{ head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(server.base).port), '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('close', () => {
      const at = text.indexOf('\r\n\r\n');
      resolve({ head: text.slice(0, at), body: text.slice(at + 4) });
    });
    socket.on('error', reject);
  });
}

const SECURITY_HEADERS = [/x-content-type-options: nosniff/i, /content-security-policy: default-src 'self'/i, /x-frame-options: SAMEORIGIN/i];

test('HTTP/1.1 without Host: 400 in the envelope with the security headers, in English and Chinese', async () => {
  const english = await send('GET /api/config HTTP/1.1\r\nConnection: close\r\n\r\n');
  assert.match(english.head, /^HTTP\/1\.1 400/);
  for (const header of SECURITY_HEADERS) assert.match(english.head, header);
  assert.deepEqual(JSON.parse(english.body), { code: 400, message: 'The request has no Host header', data: null });
  const chinese = await send('POST /api/authc/login HTTP/1.1\r\nAccept-Language: zh-CN\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  assert.match(chinese.head, /^HTTP\/1\.1 400/);
  assert.equal((JSON.parse(chinese.body) as { message: string }).message, '请求缺少 Host 头');
});

test('HTTP/1.0 without Host is served, with the security headers', async () => {
  const answer = await send('GET /api/config HTTP/1.0\r\n\r\n');
  assert.match(answer.head, /^HTTP\/1\.1 200/);
  for (const header of SECURITY_HEADERS) assert.match(answer.head, header);
  assert.equal((JSON.parse(answer.body) as { code: number }).code, 0);
});
