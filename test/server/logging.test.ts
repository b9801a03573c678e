// The server's JSON log: one parsable line per event; every request's lines carry its request id (a
// well-formed incoming X-Request-Id kept, a malformed one replaced, the id sent back in the answer)
// and the trace ids of a W3C traceparent (what the console's tracing switch sends); and no secret
// in any line after signing in (cookie and token mode), changing a password, resetting one with a
// mailed code and following a link with a code in its path; no OIDC interaction id in any line
// (server/observability/logging.ts).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { ADMIN, startServer, transform, type TestServer } from './harness';
import { startSmtp, until, type SmtpReceiver } from './receivers';
import { RelyingParty } from './oidc-rp';

const SMTP = { user: 'mailer', password: 'smtp-pass-logged-never' };
const PORTAL = 'http://portal.example';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let server: TestServer;
let smtp: SmtpReceiver;
const lines: string[] = [];

before(async () => {
  const stream = new PassThrough();
  let pending = '';
  stream.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const parts = pending.split('\n');
    pending = parts.pop()!;
    lines.push(...parts);
  });
  [server, smtp] = await Promise.all([startServer({ logger: true, logStream: stream, corsOrigins: [PORTAL] }), startSmtp(SMTP.user, SMTP.password)]);
});
after(async () => {
  await Promise.all([server.stop(), smtp.stop()]);
});

type LogLine = Record<string, unknown> & { reqId?: string; msg?: string; traceId?: string; spanId?: string };
const parsed = () => lines.map((line) => JSON.parse(line) as LogLine);
const linesOf = (id: string) => parsed().filter((line) => line.reqId === id);
/** The request's lines are written when its answer has gone: wait for its "request completed". */
const completed = (id: string) => until(() => linesOf(id).some((line) => line.msg === 'request completed'), `the log of request ${id}`);

test('each request logs JSON lines with its request id: a well-formed incoming one is kept, a malformed one replaced; the answer names it', async () => {
  const kept = 'req-0123456789abcdef';
  const answer = await server.client().get('/api/config', { 'x-request-id': kept });
  assert.equal(answer.headers.get('x-request-id'), kept);
  await completed(kept);
  assert.deepEqual(
    linesOf(kept).map((line) => line.msg),
    ['incoming request', 'request completed'],
  );

  for (const malformed of ['short', 'x'.repeat(129), 'has spaces in it', '{"injected":"json"}']) {
    const replaced = await server.client().get('/api/config', { 'x-request-id': malformed });
    const id = replaced.headers.get('x-request-id')!;
    assert.match(id, UUID, malformed);
    await completed(id);
  }
  assert.ok(!lines.some((line) => line.includes('injected')), 'a refused id is not logged');
  for (const line of lines) assert.doesNotThrow(() => JSON.parse(line), line);
});

test("a W3C traceparent (the console's tracing switch) is logged with its request; a malformed one is not", async () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const spanId = '00f067aa0ba902b7';
  const traced = await server.client().get('/api/config', { traceparent: `00-${traceId}-${spanId}-01` });
  const id = traced.headers.get('x-request-id')!;
  await completed(id);
  for (const line of linesOf(id)) assert.deepEqual([line.traceId, line.spanId], [traceId, spanId]);

  for (const malformed of [`00-${'0'.repeat(32)}-${spanId}-01`, `01-${traceId}-${spanId}-01`, `00-${traceId.toUpperCase()}-${spanId}-01`, 'garbage']) {
    const answer = await server.client().get('/api/config', { traceparent: malformed });
    const other = answer.headers.get('x-request-id')!;
    await completed(other);
    for (const line of linesOf(other)) assert.equal(line.traceId, undefined, malformed);
  }
});

test('what a proxy sends that the server does not follow is logged once: a sub-path (X-Forwarded-Prefix), a Forwarded header without X-Forwarded-For', async () => {
  const warned = (header: string) => parsed().filter((line) => line.level === 40 && String(line.msg).includes(header));
  // A Forwarded beside X-Forwarded-For (a proxy that sends both) says nothing.
  await completed(
    (await server.client().get('/health/live', { forwarded: 'for=198.51.100.1', 'x-forwarded-for': '198.51.100.1' })).headers.get('x-request-id')!,
  );
  assert.equal(warned('Forwarded:').length, 0);
  for (let i = 0; i < 2; i += 1) {
    for (const headers of [{ 'x-forwarded-prefix': '/iam' }, { forwarded: 'for=203.0.113.7;proto=https;host=intranet.example' }] as Record<string, string>[]) {
      await completed((await server.client().get('/health/live', headers)).headers.get('x-request-id')!);
    }
  }
  const prefix = warned('(X-Forwarded-Prefix)');
  assert.equal(prefix.length, 1, 'once');
  assert.match(String(prefix[0]!.msg), /under the sub-path \/iam .*not supported.*an origin of its own/);
  const forwarded = warned('Forwarded: for=203.0.113.7');
  assert.equal(forwarded.length, 1, 'once');
  assert.match(String(forwarded[0]!.msg), /reads X-Forwarded-For and X-Forwarded-Proto only/);
});

test('no secret in any log line: sign-ins (cookie and token), a password change, a reset by mailed code, a code in a path, query values', async () => {
  const admin = await server.admin();
  const channel = await admin.post('/api/channels', {
    name: 'Mail relay',
    serviceType: 'EMAIL',
    vendor: 'smtp',
    config: { host: '127.0.0.1', port: String(smtp.port), security: 'none', username: SMTP.user, password: SMTP.password, from: 'iam@example.com' },
  });
  assert.equal(channel.status, 200, JSON.stringify(channel.body));
  const passwords = ['First-pass-1', 'Second-pass-2', 'Third-pass-3'];
  const created = await admin.post('/api/user', { username: 'logged', realName: 'Logged', email: 'logged@example.com', password: transform(passwords[0]!) });
  assert.equal(created.status, 200, JSON.stringify(created.body));

  const person = server.client();
  assert.equal((await person.login('logged', passwords[0]!)).body.data.loginSuccess, true);
  const cookie = person.cookies.get('iam_session')!;
  assert.ok(cookie);
  const changed = await person.put('/api/user/password', { password: transform(passwords[1]!), opUserPassword: transform(passwords[0]!) });
  assert.equal(changed.status, 200, JSON.stringify(changed.body));

  assert.equal((await server.client().post('/api/user/password/reset-code', { identifier: 'logged@example.com' })).status, 200);
  const mail = await until(
    () => smtp.mails.find((entry) => entry.to.includes('logged@example.com') && /reset code is \d{6}/.test(entry.raw)),
    'the reset code by email',
  );
  const code = /reset code is (\d{6})/.exec(mail.raw)![1]!;
  const reset = await server.client().put('/api/user/password', { identifier: 'logged@example.com', code, password: transform(passwords[2]!) });
  assert.equal(reset.status, 200, JSON.stringify(reset.body));

  const portal = server.client({ origin: PORTAL });
  const tokenSignIn = await portal.login(ADMIN.username, ADMIN.password, {}, { 'x-iam-auth-mode': 'token' });
  const token = tokenSignIn.body.data.token as string;
  assert.equal(typeof token, 'string');
  assert.equal((await server.client({ origin: PORTAL }).get('/api/cas/session', { token })).status, 200);
  assert.equal((await server.client().get('/api/cas/session', { authorization: `Bearer ${token}` })).status, 401);

  const linkCode = 'link-code-9f8e7d6c5b4a39281706';
  await server.client().post(`/api/verified/${linkCode}`);
  const searched = 'searched-value-3c2b1a';
  await admin.get(`/api/user?page=1&size=10&searchProp=username&searchValue=${searched}`);
  const last = (await admin.get('/api/config')).headers.get('x-request-id')!;
  await completed(last);

  const log = lines.join('\n');
  const secrets = {
    ...Object.fromEntries(
      passwords.flatMap((password, index) => [
        [`password ${index}`, password],
        [`password ${index}, transformed`, transform(password)],
      ]),
    ),
    'administrator password': ADMIN.password,
    'administrator password, transformed': transform(ADMIN.password),
    'session cookie': cookie,
    'session token': token,
    'reset code': code,
    'SMTP password': SMTP.password,
    'code in a path': linkCode,
    'query value': searched,
  };
  for (const [what, secret] of Object.entries(secrets)) assert.ok(!log.includes(secret), `${what} is in the log`);
  // The requests are there, with their routes and masked URLs.
  const urls = parsed()
    .map((line) => line.req as { url?: string; route?: string } | undefined)
    .filter(Boolean);
  assert.ok(
    urls.some((req) => req!.url === '/api/verified/[redacted]' && req!.route === '/api/verified/:code'),
    JSON.stringify(urls.slice(-12)),
  );
  assert.ok(urls.some((req) => req!.url === '/api/user?page=[redacted]&size=[redacted]&searchProp=[redacted]&searchValue=[redacted]'));
});

test('a sign-in through the provider logs no interaction id', async () => {
  const admin = await server.admin();
  const rp = await RelyingParty.register(server, admin, 'Logged_App', 'http://127.0.0.1:9/logged-callback');
  const browser = await server.admin();
  const request = await rp.authorization();
  const { url } = await rp.follow(browser, request.url);
  const uid = url.searchParams.get('uid');
  assert.ok(uid && uid.length >= 10, url.href);
  const consent = await browser.post<{ redirectURL: string }>(`/api/sso/interactions/${uid}`, { allow: true });
  assert.equal(consent.status, 200, JSON.stringify(consent.body));
  const allowed = consent.body.data;
  assert.match(allowed.redirectURL, new RegExp(`/auth/${uid}`));
  const resumed = await rp.follow(browser, allowed.redirectURL);
  assert.ok(resumed.response.headers.get('location')?.includes('code='), 'the provider resumed the sign-in');
  await until(() => lines.some((line) => line.includes('/api/oidc/auth/[redacted]')), 'the resume request logged');
  assert.deepEqual(
    lines.filter((line) => line.includes(uid)),
    [],
  );
});
