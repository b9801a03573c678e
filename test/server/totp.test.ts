// Authenticator app (TOTP): enrolment shows the secret once, confirmation with a code, the sign-in
// second step, replay refused, turning it off.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Secret, TOTP, URI } from 'otpauth';
import { ADMIN, startServer, transform, type Client, type TestServer } from './harness';

let server: TestServer;
let admin: Client;
before(async () => {
  server = await startServer();
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

/** The code an authenticator app shows, at the server's time (optionally steps later). */
const codeFor = (uri: string, steps = 0) => (URI.parse(uri) as TOTP).generate({ timestamp: server.clock.now() + steps * 30_000 });

const enrol = (client: Client, password = ADMIN.password) => client.post<{ secret: string; uri: string }>('/api/user/totp', { password: transform(password) });

test('enrolment: the current password first, the secret is shown once, a wrong code does not confirm, a right one does', async () => {
  assert.equal((await admin.get<{ enabled: boolean }>('/api/user/totp')).body.data.enabled, false);
  // A session alone sets up no app (it would stand in for the password: server/auth/recheck.ts).
  assert.equal((await admin.post('/api/user/totp', {})).status, 400, 'no password');
  const wrongPassword = await enrol(admin, 'Not-the-password-1');
  assert.equal(wrongPassword.status, 400);
  assert.deepEqual((wrongPassword.body.data as unknown as { fields: unknown }).fields, [{ field: 'password', rule: 'rule.wrongPassword' }]);
  const recorded = await server.app.ctx.db
    .selectFrom('auditLog')
    .select('detail')
    .where('action', '=', 'login.failure')
    .where('actorName', '=', ADMIN.username)
    .execute();
  assert.ok(
    recorded.some((row) => String(row.detail).includes('recheck')),
    'a wrong password is a failed re-check, counted towards the lockout',
  );
  const enrolment = await enrol(admin);
  assert.equal(enrolment.status, 200, JSON.stringify(enrolment.body));
  const { secret, uri } = enrolment.body.data;
  assert.match(uri, /^otpauth:\/\/totp\//);
  assert.equal((URI.parse(uri) as TOTP).secret.base32, Secret.fromBase32(secret).base32);

  const wrong = await admin.post<{ fields: { field: string }[] }>('/api/user/totp/confirm', { code: '000000' === codeFor(uri) ? '111111' : '000000' });
  assert.equal(wrong.status, 400);
  assert.equal((await admin.get<{ enabled: boolean }>('/api/user/totp')).body.data.enabled, false);

  assert.equal((await admin.post('/api/user/totp/confirm', { code: codeFor(uri) })).status, 200);
  const status = await admin.get<{ enabled: boolean }>('/api/user/totp');
  assert.equal(status.body.data.enabled, true);
  assert.ok(!JSON.stringify(status.body).includes(secret), 'never answered again');
  assert.equal((await enrol(admin)).status, 400, 'a second enrolment needs the first turned off');

  // Sign-in: the password alone asks for the app's code; a used code is refused; a fresh one signs in.
  const browser = server.client();
  const first = await browser.login(ADMIN.username, ADMIN.password);
  assert.equal(first.body.data.nextStep, 'TOTP');
  assert.equal(first.body.data.loginSuccess, false);
  const replay = await browser.login(ADMIN.username, ADMIN.password, { nextStep: 'TOTP', code: codeFor(uri) });
  assert.equal(replay.status, 401, 'the code that confirmed enrolment cannot be used again');
  server.clock.advance(30_000);
  const done = await browser.login(ADMIN.username, ADMIN.password, { nextStep: 'TOTP', code: codeFor(uri) });
  assert.equal(done.body.data.loginSuccess, true, JSON.stringify(done.body));

  // Turning it off takes a current code.
  assert.equal((await admin.post('/api/user/totp/disable', { code: '12345' })).status, 400);
  server.clock.advance(30_000);
  assert.equal((await browser.post('/api/user/totp/disable', { code: codeFor(uri) })).status, 200);
  const plain = await server.client().login(ADMIN.username, ADMIN.password);
  assert.equal(plain.body.data.loginSuccess, true);
});

test('the calls need a session', async () => {
  assert.equal((await enrol(server.client())).status, 401);
});
