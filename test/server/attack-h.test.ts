// Attack H: the server's fast paths beside the libraries' checked ones. The refresh_token grant
// answered without oidc-provider's pipeline (server/oidc/refresh-grant.ts) must answer and record
// exactly what the pipeline would; the session check of every signed-in call (server/auth/gate.ts,
// sessions.ts) must hold a session to what ended it (a password change, a sign-out, the timeouts).
// Each test asserts the correct behaviour: one that fails shows a fault of today's code.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, Client, lastAuditId, ok, signedInPerson, startServer, transform, type TestServer } from './harness';
import { auditSince } from './audit-rows';
import { RelyingParty } from './oidc-rp';
import { startProcessPair } from './crash-process';
import { signInOvertakenBy } from './sign-in-support';
import { OidcProvider } from '../../server/oidc/provider';
import type { User } from '../../src/core/types';

let server: TestServer;
let admin: Client;
let ledger: RelyingParty;
let people = 0;

const scope = 'openid offline_access profile email roles tenant';
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  ledger = await RelyingParty.register(server, admin, 'Ledger_H');
});
after(async () => {
  await server.stop();
});

const newPerson = () => signedInPerson(server, admin, { username: `attack-h-${++people}`, realName: `Attack_H_${people}` });

/** A token request as an app's server sends it: a form, with the headers given. */
function tokenRequest(form: string | URLSearchParams, headers: Record<string, string>): Promise<Response> {
  return fetch(ledger.as.token_endpoint!, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: String(form),
  });
}
const basicOf = (id: string, secret: string, scheme = 'Basic') => `${scheme} ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const refreshForm = (token: string, extra: Record<string, string> = {}) => new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token, ...extra });

/** The answer's status and body. */
async function answerOf(response: Promise<Response>): Promise<{ status: number; body: Record<string, unknown> }> {
  const answer = await response;
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

// ---------------------------------------------------------------------------------------------
// The refresh grant

test('a burst of 16 uses of one refresh token: one rotates, the family dies, and one grant-end record names the requester address', async () => {
  const { browser } = await newPerson();
  const tokens = await ledger.signIn(browser, scope, { prompt: 'consent' });
  const since = await lastAuditId(server);
  const answers = await Promise.all(
    Array.from({ length: 16 }, () => answerOf(tokenRequest(refreshForm(tokens.refresh_token!), { authorization: basicOf(ledger.appId, ledger.secret!) }))),
  );
  const winners = answers.filter((answer) => answer.status === 200);
  assert.equal(winners.length, 1, answers.map((answer) => answer.status).join(','));
  assert.ok(
    answers.filter((answer) => answer.status !== 200).every((answer) => answer.status === 400 && answer.body.error === 'invalid_grant'),
    JSON.stringify(answers.filter((answer) => answer.status !== 200)),
  );
  const winner = winners[0]!.body as { refresh_token: string; access_token: string };
  const next = await answerOf(ledger.refreshResponse(winner.refresh_token));
  assert.deepEqual([next.status, next.body.error], [400, 'invalid_grant'], "the winner's refresh token died with the family");
  assert.equal((await ledger.userinfo(winner.access_token)).status, 401, "the winner's access token too");
  const ended = (await auditSince(server, since)).filter((row) => row.action === 'app.grant_revoke');
  assert.equal(ended.length, 1, 'one record of the grant ending');
  assert.equal(JSON.parse(ended[0]!.detail).reason, 'refresh_token_reused');
  // Who replayed a stolen token is the one thing the record can tell: its address, as the
  // provider's own path records it (grant-end-record.ts: served?.ip).
  assert.equal(ended[0]!.ip, '127.0.0.1', 'the reuse record carries the address of the request that found the reuse');
});

test('two uses of one refresh token that both pass their reads over HTTP: the record of the reuse names the address it came from', async () => {
  // Both requests are held after their joined read until both have read the token (as they are
  // when they arrive together), so the loser finds the reuse at its consume (refresh-grant.ts), the
  // fast path's own branch, not the provider's.
  const { browser } = await newPerson();
  const tokens = await ledger.signIn(browser, scope, { prompt: 'consent' });
  const provider = await OidcProvider.of(server.app.ctx).get();
  const model = provider.RefreshToken as unknown as { find: (id: string, options?: object) => Promise<unknown> };
  const find = model.find.bind(model);
  let waiting = 0;
  let both!: () => void;
  const bothRead = new Promise<void>((resolve) => (both = resolve));
  model.find = async (...args: Parameters<typeof find>) => {
    if (args[0] === tokens.refresh_token && waiting < 2) {
      waiting += 1;
      if (waiting === 2) both();
      await Promise.race([bothRead, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    }
    return find(...args);
  };
  const since = await lastAuditId(server);
  try {
    const answers = await Promise.all(
      [0, 1].map(() => answerOf(tokenRequest(refreshForm(tokens.refresh_token!), { authorization: basicOf(ledger.appId, ledger.secret!) }))),
    );
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 400], JSON.stringify(answers));
  } finally {
    model.find = find;
  }
  const ended = (await auditSince(server, since)).filter((row) => row.action === 'app.grant_revoke');
  assert.equal(ended.length, 1, 'one record of the grant ending');
  assert.equal(JSON.parse(ended[0]!.detail).reason, 'refresh_token_reused');
  assert.equal(ended[0]!.ip, '127.0.0.1', 'the address of the request that replayed the token');
});

test("the Basic header's scheme in any case, percent-encoded credentials (RFC 6749 2.3.1), extra spaces: the same answer as the provider gives", async () => {
  const { browser } = await newPerson();
  const encoded = (text: string) => [...text].map((char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');
  const variants: Record<string, string> = {
    lower: basicOf(ledger.appId, ledger.secret!, 'basic'),
    upper: basicOf(ledger.appId, ledger.secret!, 'BASIC'),
    percentEncoded: basicOf(encoded(ledger.appId), encoded(ledger.secret!)),
    twoSpaces: `Basic  ${Buffer.from(`${ledger.appId}:${ledger.secret!}`).toString('base64')}`,
    trailingSpace: `${basicOf(ledger.appId, ledger.secret!)} `,
  };
  for (const [name, authorization] of Object.entries(variants)) {
    // The same header once with the body parameters the server answers, once with a narrowed
    // (equal) scope, which only the provider answers.
    const [mine, theirs] = [await ledger.signIn(browser, scope, { prompt: 'consent' }), await ledger.signIn(browser, scope, { prompt: 'consent' })];
    const fast = await answerOf(tokenRequest(refreshForm(mine.refresh_token!), { authorization }));
    const pipeline = await answerOf(tokenRequest(refreshForm(theirs.refresh_token!, { scope }), { authorization }));
    assert.deepEqual(
      [fast.status, fast.body.error],
      [pipeline.status, pipeline.body.error],
      `${name}: ${JSON.stringify(fast.body)} / ${JSON.stringify(pipeline.body)}`,
    );
  }
});

test("a refresh after the person's roles and details changed: the new ID token says what the provider's own path says", async () => {
  const { user, browser } = await newPerson();
  const role = await ok(admin.post<{ id: string }>(`/api/apps/${ledger.appId}/roles`, { name: 'Auditor_H', description: 'Reads the books' }));
  await ok(admin.put(`/api/user/${user.id}/roles/${ledger.appId}`, { roleIds: [role.id] }));
  const [mine, theirs] = [await ledger.signIn(browser, scope, { prompt: 'consent' }), await ledger.signIn(browser, scope, { prompt: 'consent' })];
  assert.deepEqual(claimsOf(mine.id_token!).roles, ['Auditor_H']);
  await ok(admin.put(`/api/user/${user.id}/roles/${ledger.appId}`, { roleIds: [] }));
  const current = await ok(admin.get<User>(`/api/user/${user.id}`));
  await ok(
    admin.put(`/api/user/${user.id}`, {
      realName: 'Renamed_H',
      email: 'renamed-h@example.com',
      version: (current as unknown as { version: number }).version,
      currentPassword: transform(ADMIN.password),
    }),
  );
  const fast = await answerOf(tokenRequest(refreshForm(mine.refresh_token!), { authorization: basicOf(ledger.appId, ledger.secret!) }));
  const pipeline = await answerOf(ledger.refreshResponse(theirs.refresh_token!, { secretInBody: true }));
  assert.equal(fast.status, 200, JSON.stringify(fast.body));
  assert.equal(pipeline.status, 200, JSON.stringify(pipeline.body));
  const strip = (jwt: string) => {
    const { iat: _iat, exp: _exp, sid: _sid, auth_time: _authTime, ...rest } = claimsOf(jwt);
    return rest;
  };
  assert.deepEqual(strip(fast.body.id_token as string), strip(pipeline.body.id_token as string));
  assert.equal(claimsOf(fast.body.id_token as string).name, 'Renamed_H');
  assert.ok(!(claimsOf(fast.body.id_token as string).roles as string[] | undefined)?.length, 'the withdrawn role is gone');
});

test("a refresh after the person's password change or sign-out everywhere: refused on both paths", async () => {
  for (const end of ['password', 'everywhere'] as const) {
    const { user, browser } = await newPerson();
    const [mine, theirs] = [await ledger.signIn(browser, scope, { prompt: 'consent' }), await ledger.signIn(browser, scope, { prompt: 'consent' })];
    if (end === 'password')
      await ok(admin.post(`/api/user/${user.id}/password`, { id: user.id, password: transform('Changed123'), opUserPassword: transform(ADMIN.password) }));
    else assert.equal((await browser.post('/api/cas/logout/everywhere', { keepCurrent: false })).status, 200);
    const fast = await answerOf(tokenRequest(refreshForm(mine.refresh_token!), { authorization: basicOf(ledger.appId, ledger.secret!) }));
    const pipeline = await answerOf(ledger.refreshResponse(theirs.refresh_token!, { secretInBody: true }));
    assert.deepEqual([fast.status, fast.body.error], [400, 'invalid_grant'], `${end}: ${JSON.stringify(fast.body)}`);
    assert.deepEqual([pipeline.status, pipeline.body.error], [400, 'invalid_grant'], `${end}: ${JSON.stringify(pipeline.body)}`);
  }
});

// ---------------------------------------------------------------------------------------------
// The session check

test('a sign-in with the old password that is still running when an administrator resets the password leaves no live session', async () => {
  const { user, username } = await newPerson();
  const { answer, browser } = await signInOvertakenBy(server, username, 'Secret123', () =>
    ok(admin.post(`/api/user/${user.id}/password`, { id: user.id, password: transform('Changed123'), opUserPassword: transform(ADMIN.password) })),
  );
  // Refusing the sign-in, or ending its session at once, both hold; a live session does not.
  const session = answer.body.data?.loginSuccess ? (await browser.get('/api/cas/session')).status : 401;
  assert.equal(session, 401, 'a session opened with the replaced password must not outlive the reset');
});

test('the idle timeout holds at its edge (test clock)', async () => {
  const { value: policy } = (await admin.get<{ value: { sessionIdleMinutes: number; sessionAbsoluteHours: number }; version: number }>('/api/settings/login'))
    .body.data;
  const { browser } = await newPerson();
  // Idle: within the timeout the session lives, past it it ends.
  server.clock.advance(policy.sessionIdleMinutes * 60_000 - 5_000);
  assert.equal((await browser.get('/api/cas/session')).status, 200, 'just within the idle timeout');
  server.clock.advance(policy.sessionIdleMinutes * 60_000 + 5_000);
  assert.equal((await browser.get('/api/cas/session')).status, 401, 'past the idle timeout');
  admin = await server.admin();
});

// The idle timeout is read from the policy at every check (sessions.ts resolve), the absolute one
// only when the session is written (expiresAt): an administrator who shortens session life (an
// incident: stolen laptops) leaves every session already open at the old length.
test('lowering the absolute session life ends the sessions already older than the new limit', async () => {
  const { value: policy } = (await admin.get<{ value: { sessionAbsoluteHours: number } }>('/api/settings/login')).body.data;
  const fresh = await newPerson();
  const admins = server.client();
  await admins.login(ADMIN.username, ADMIN.password);
  // Three hours of use, a request every 20 minutes (within the idle timeout).
  for (let step = 0; step < 9; step += 1) {
    server.clock.advance(20 * 60_000);
    assert.deepEqual([(await fresh.browser.get('/api/cas/session')).status, (await admins.get('/api/cas/session')).status], [200, 200]);
  }
  const latest = (await admins.get<{ version: number }>('/api/settings/login')).body.data.version;
  assert.equal((await admins.put('/api/settings/login', { sessionAbsoluteHours: 2, version: latest })).status, 200);
  try {
    assert.equal((await fresh.browser.get('/api/cas/session')).status, 401, 'a 3-hour-old session under a 2-hour limit');
  } finally {
    admin = await server.admin();
    const now = (await admin.get<{ version: number }>('/api/settings/login')).body.data.version;
    await ok(admin.put('/api/settings/login', { sessionAbsoluteHours: policy.sessionAbsoluteHours, version: now }));
  }
});

// ---------------------------------------------------------------------------------------------
// Two processes on one database: what one process changes holds on the other's very next request,
// a signed-in one (whose settings versions come with its session lookup: settings.ts adoptVersions)
// and an anonymous one.

test("a policy or a person changed through one process holds on the other's very next request, signed-in or anonymous", async () => {
  const pair = await startProcessPair();
  try {
    const [adminA, adminB] = pair.admins as [Client, Client];
    const anonymousB = new Client(pair.servers[1]!.base, pair.servers[1]!.base);
    const switchTo = async (fieldRules: string) => {
      const { version } = (await adminA.get<{ version: number }>('/api/settings/login')).body.data;
      assert.equal((await adminA.put('/api/settings/login', { fieldRules, version })).status, 200);
    };
    const resetCode = () => anonymousB.post('/api/user/password/reset-code', { identifier: '+44 20 7946 0958' });
    // B has read the default rules, signed in and anonymously.
    assert.equal((await adminB.get('/api/settings/login')).status, 200);
    assert.equal((await resetCode()).status, 400, 'a +44 number under the default rules');
    await switchTo('international');
    const created = await adminB.post<User>('/api/user', {
      username: 'jose@contoso.com',
      realName: "José O'Neil-Ünal",
      mobilePhone: '+44 20 7946 0958',
      password: transform('Secret123'),
    });
    assert.equal(created.status, 200, `signed in on B, right after the switch on A: ${JSON.stringify(created.body)}`);
    assert.notEqual((await resetCode()).status, 400, 'anonymous on B, right after the switch on A');
    await switchTo('default');
    const refused = await adminB.post('/api/user', { username: 'ana@contoso.com', realName: 'Ana Lima', password: transform('Secret123') });
    assert.equal(refused.status, 400, 'the default rules again on B');
    assert.equal((await resetCode()).status, 400, 'anonymous on B: the default rules again');

    // The person signed in on B, disabled (then signed out everywhere) through A.
    const personB = new Client(pair.servers[1]!.base, pair.servers[1]!.base);
    assert.equal((await personB.login('jose@contoso.com', 'Secret123')).body.data?.loginSuccess, true);
    assert.equal((await personB.get('/api/cas/session')).status, 200);
    const personA = new Client(pair.servers[0]!.base, pair.servers[0]!.base);
    assert.equal((await personA.login('jose@contoso.com', 'Secret123')).body.data?.loginSuccess, true);
    assert.equal((await personA.post('/api/cas/logout/everywhere', { keepCurrent: true })).status, 200);
    assert.equal((await personB.get('/api/cas/session')).status, 401, 'signed out everywhere through A');
    assert.equal((await personB.login('jose@contoso.com', 'Secret123')).body.data?.loginSuccess, true);
    await pair.db.kysely.updateTable('users').set({ availabilityStatus: 0 }).where('id', '=', created.body.data.id).execute();
    assert.equal((await personB.get('/api/cas/session')).status, 401, 'disabled');
  } finally {
    await pair.stop();
  }
});
