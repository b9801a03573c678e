// What the production server loads on first use instead of at start (server/lazy.ts: the OIDC
// provider, the captcha, its font and its PNG renderer, mail, SVG cleaning, the PostgreSQL driver on PostgreSQL, the
// SAML signing certificate's library) works on that first use, in the compiled server
// (dist-server/main.js with its split chunks, when it is built and fresh; the sources otherwise): the
// first OIDC discovery, the first captcha, the first mail, the first SVG upload, the first SAML
// metadata; and the server at rest is ready and answers its metrics.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, createTestDatabase, transform, type TestDatabase } from './harness';
import { spawnServer, type ChildServer } from './crash-process';
import { startSmtp, until, type SmtpReceiver } from './receivers';

const SMTP = { user: 'mailer', password: 'smtp-pass-first-use' };

let database: TestDatabase;
let server: ChildServer;
let smtp: SmtpReceiver;

before(async () => {
  database = await createTestDatabase();
  // One after the other: were they awaited together, a server that fails to start would leave the
  // receiver started but never assigned, and its open socket would keep the run from ending.
  smtp = await startSmtp(SMTP.user, SMTP.password);
  server = await spawnServer(database);
});
after(async () => {
  await server?.stop();
  await Promise.all([database?.drop(), smtp?.stop()]);
});

test('the server at rest is ready (database and migrations) and serves its metrics to this machine', async () => {
  const ready = await fetch(`${server.base}/health/ready`);
  assert.equal(ready.status, 200);
  const metrics = await fetch(`${server.base}/metrics`);
  assert.equal(metrics.status, 200);
  assert.match(await metrics.text(), /^iam_active_sessions \d/m);
});

test('the first OpenID Connect discovery builds the provider and answers its configuration', async () => {
  const answer = await fetch(`${server.base}/api/oidc/.well-known/openid-configuration`);
  assert.equal(answer.status, 200, server.output().slice(-2000));
  const configuration = (await answer.json()) as { issuer: string; token_endpoint: string; jwks_uri: string };
  assert.equal(configuration.issuer, `${server.base}/api/oidc`);
  const keys = await fetch(configuration.jwks_uri);
  assert.equal(keys.status, 200);
  assert.ok(((await keys.json()) as { keys: unknown[] }).keys.length > 0);
});

test('the first SAML metadata makes the signing key and publishes its certificate', async () => {
  const answer = await fetch(`${server.base}/api/saml/metadata`);
  assert.equal(answer.status, 200, server.output().slice(-2000));
  assert.match(await answer.text(), /<ds:X509Certificate>[A-Za-z0-9+/=\s]{500,}<\/ds:X509Certificate>/);
});

test('the first captcha is a PNG image (its renderer, a native module, loads in the compiled server)', async () => {
  const answer = await fetch(`${server.base}/api/captcha/image/display`);
  assert.equal(answer.status, 200, server.output().slice(-2000));
  assert.equal(answer.headers.get('content-type'), 'image/png');
  const image = Buffer.from(await answer.arrayBuffer());
  assert.deepEqual([...image.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.ok(image.length > 1000, `a ${image.length}-byte image`);
});

test('the first mail is delivered, and the first SVG upload is cleaned', async () => {
  const admin = new Client(server.base, server.base);
  assert.equal((await admin.login('admin', 'Admin123!')).body.data.loginSuccess, true);
  const channel = await admin.post('/api/channels', {
    name: 'Mail relay',
    serviceType: 'EMAIL',
    vendor: 'smtp',
    config: { host: '127.0.0.1', port: String(smtp.port), security: 'none', username: SMTP.user, password: SMTP.password, from: 'iam@example.com' },
  });
  assert.equal(channel.status, 200, JSON.stringify(channel.body));
  const user = await admin.post('/api/user', {
    username: 'first-mail',
    realName: 'First_Mail',
    email: 'first-mail@example.com',
    password: transform('First123'),
  });
  assert.equal(user.status, 200, JSON.stringify(user.body));
  assert.equal((await new Client(server.base, server.base).post('/api/user/password/reset-code', { identifier: 'first-mail@example.com' })).status, 200);
  const mail = await until(() => smtp.mails.find((entry) => entry.to.includes('first-mail@example.com')), 'the first mail', 20_000);
  assert.match(mail.raw, /reset code is \d{6}/);

  const form = new FormData();
  form.append('file', new Blob(['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4" onload="alert(1)"><rect width="4" height="4"/></svg>']), 'logo.svg');
  const uploaded = await admin.request<{ url: string }>('POST', '/api/file/upload?purpose=image', form);
  assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body));
  const served = await (await fetch(`${server.base}/api/file/get/${uploaded.body.data.url}`)).text();
  assert.match(served, /<rect/);
  assert.doesNotMatch(served, /onload/);
});
