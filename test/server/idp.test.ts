// Third-party sign-in: access info and complement (/interaction/idp/… calls).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type Client, type TestServer } from './harness';
import { URI, type TOTP } from 'otpauth';
import { createIdpTicket } from '../../server/auth/third-party';
import { digest, newSecret } from '../../server/auth/secrets';
import { FLOW_COOKIE } from '../../server/idp/browser-binding';
import { transformPassword } from '../../src/core/password';
import { Permission } from '../../src/core/permission-codes';

let server: TestServer;
let admin: Client;
before(async () => {
  server = await startServer();
  admin = await server.admin();
  const created = await admin.post('/api/idps', {
    code: 'corp',
    name: 'Corp SSO',
    type: 'OIDC',
    config: { issuer: 'https://sso.example.com', clientSecret: 'hidden' },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
});
after(async () => {
  await server.stop();
});

/** A ticket as the provider callback leaves it, bound to `browser` (which gets the flow cookie). */
function ticketFor(browser: Client, subject: string, profile: Record<string, unknown>) {
  const secret = newSecret();
  browser.cookies.set(FLOW_COOKIE, secret);
  return createIdpTicket(server.app.ctx, { idpCode: 'corp', subject, profile, browserHash: digest(secret) });
}

const infoPath = (token: string, ticket: string, code = 'corp') => `/api/interaction/idp/${code}/authorize/user/access/info/${token}?access_ticket=${ticket}`;
const complementPath = (ticket: string, code = 'corp') => `/api/interaction/idp/${code}/authorize/after/user/complement?access_ticket=${ticket}`;

test('the sign-in page lists enabled providers without their secrets', async () => {
  const list = await server.client().get<{ code: string }[]>('/api/idps');
  assert.deepEqual(
    list.body.data.map((idp) => idp.code),
    ['corp'],
  );
  assert.ok(!JSON.stringify(list.body).includes('hidden'));
  assert.equal((await admin.post('/api/idps', { code: 'corp', name: 'Again', type: 'OIDC', config: {} })).status, 400);
});

test("a provider's button icon: our own upload only, public in the list, kept or removed on update", async () => {
  const form = new FormData();
  form.append('file', new Blob(['<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16"/></svg>']), 'corp.svg');
  const uploaded = await admin.request<{ url: string }>('POST', '/api/file/upload?purpose=icon', form);
  const icon = uploaded.body.data.url;
  const publicIcon = async () =>
    (await server.client().get<{ code: string; icon: string | null }[]>('/api/idps')).body.data.find((idp) => idp.code === 'corp')?.icon;
  assert.equal(await publicIcon(), null);

  // Foreign and unknown images are refused under the field; a config key cannot smuggle one in.
  for (const refused of ['https://cdn.example.com/corp.png', `${'0'.repeat(64)}.png`, 'javascript:alert(1)']) {
    const answer = await admin.put<{ fields: { field: string; rule: string }[] }>('/api/idps/corp', { icon: refused });
    assert.equal(answer.status, 400, refused);
    assert.deepEqual(answer.body.data.fields, [{ field: 'icon', rule: 'rule.fileName' }]);
  }
  assert.equal((await admin.put('/api/idps/corp', { config: { icon: 'https://cdn.example.com/corp.png' } })).status, 200);
  assert.equal(await publicIcon(), null);

  // Given as the upload answered it or as its /api/file/get/ URL: kept as the stored name.
  const set = await admin.put<{ icon: string }>('/api/idps/corp', { icon: `/api/file/get/${icon}` });
  assert.equal(set.body.data.icon, icon);
  assert.equal(await publicIcon(), icon);
  assert.equal((await admin.put('/api/idps/corp', { name: 'Corp SSO' })).status, 200);
  assert.equal(await publicIcon(), icon, 'an update without the icon keeps it');
  assert.equal((await admin.put('/api/idps/corp', { icon: '' })).status, 200);
  assert.equal(await publicIcon(), null);
  const added = await admin.post<{ icon: string }>('/api/idps', {
    code: 'other',
    name: 'Other SSO',
    type: 'OIDC',
    icon,
    config: { issuer: 'https://other.example.com' },
  });
  assert.equal(added.body.data.icon, icon);
  assert.equal((await admin.delete('/api/idps/other')).status, 200);
});

test('a first-time user completes their data once, then signs in straight away', async () => {
  const client = server.client();
  const first = await ticketFor(client, 'sub-1', { email: 'jo@example.com', name: 'Jo' });
  const info = await client.get<{ needComplement: boolean; complement: { email: string } }>(infoPath(first.token, first.accessTicket));
  assert.equal(info.status, 200);
  assert.equal(info.body.data.needComplement, true);
  assert.equal(info.body.data.complement.email, 'jo@example.com');
  assert.equal((await client.get(infoPath('wrong-token-xyz', first.accessTicket))).status, 404);
  assert.equal((await client.get(infoPath(first.token, first.accessTicket, 'other'))).status, 404);

  const missing = await client.post<{ fields: { field: string }[] }>(complementPath(first.accessTicket), {});
  assert.deepEqual(
    missing.body.data.fields.map((entry) => entry.field),
    ['username', 'realName'],
  );
  const done = await client.post<{ loginSuccess: boolean }>(complementPath(first.accessTicket), {
    username: 'jo-sso',
    realName: 'Jo_Sso',
    email: 'jo@example.com',
  });
  assert.equal(done.body.data.loginSuccess, true, JSON.stringify(done.body));
  const session = await client.get<{ user: { username: string; permissions: string[] } }>('/api/cas/session');
  assert.equal(session.body.data.user.username, 'jo-sso');
  assert.deepEqual(session.body.data.user.permissions, [Permission.SelfService]);
  assert.equal((await client.post(complementPath(first.accessTicket), { username: 'jo-sso2', realName: 'Jo_Sso' })).status, 404, 'a ticket works once');

  const again = server.client();
  const second = await ticketFor(again, 'sub-1', {});
  const linked = await again.get<{ needComplement: boolean }>(infoPath(second.token, second.accessTicket));
  assert.equal(linked.body.data.needComplement, false);
  const signedIn = await again.post<{ loginSuccess: boolean }>(complementPath(second.accessTicket), {});
  assert.equal(signedIn.body.data.loginSuccess, true);
  assert.equal((await again.get<{ user: { username: string } }>('/api/cas/session')).body.data.user.username, 'jo-sso');
});

test("the provider's email is an existing account's: offered, linked only with its password (and code), then straight in", async () => {
  const BOB = { username: 'bob', password: 'Bob-pass-2024' };
  const created = await admin.post('/api/user', {
    username: BOB.username,
    realName: 'Bob',
    email: 'Bob@Corp.example',
    password: await transformPassword(BOB.password),
    extraProp: {},
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const linkPath = (ticket: string) => `/api/interaction/idp/corp/authorize/after/user/link?access_ticket=${ticket}`;
  type Info = { needComplement: boolean; existingAccount?: { username: string } };

  // An unverified email is not matched (nothing to link to).
  const stranger = server.client();
  const unverified = await ticketFor(stranger, 'sub-u', { email: 'bob@corp.example', email_verified: false });
  assert.equal((await stranger.get<Info>(infoPath(unverified.token, unverified.accessTicket))).body.data.existingAccount, undefined);
  assert.equal((await stranger.post(linkPath(unverified.accessTicket), { password: await transformPassword(BOB.password) })).status, 404);

  // Bob has an authenticator app: linking needs its code too.
  const bob = server.client();
  await bob.login(BOB.username, BOB.password);
  const { uri } = (await bob.post<{ uri: string }>('/api/user/totp', { password: await transformPassword(BOB.password) })).body.data;
  const code = () => (URI.parse(uri) as TOTP).generate({ timestamp: server.clock.now() });
  assert.equal((await bob.post('/api/user/totp/confirm', { code: code() })).status, 200);
  server.clock.advance(30_000);

  const browser = server.client();
  const ticket = await ticketFor(browser, 'sub-bob', { email: 'bob@corp.example', email_verified: true, name: 'Bobby' });
  const info = await browser.get<Info>(infoPath(ticket.token, ticket.accessTicket));
  assert.equal(info.body.data.needComplement, true);
  assert.deepEqual(info.body.data.existingAccount, { username: 'bob' });

  const wrong = await browser.post<{ fields: unknown[] }>(linkPath(ticket.accessTicket), { password: await transformPassword('Not-his-1') });
  assert.equal(wrong.status, 400);
  assert.deepEqual(wrong.body.data.fields, [{ field: 'password', rule: 'rule.wrongPassword' }]);
  const noCode = await browser.post<{ fields: unknown[] }>(linkPath(ticket.accessTicket), { password: await transformPassword(BOB.password) });
  assert.deepEqual(noCode.body.data.fields, [{ field: 'code', rule: 'rule.totpCode' }]);
  const linked = await browser.post<{ loginSuccess: boolean }>(linkPath(ticket.accessTicket), {
    password: await transformPassword(BOB.password),
    code: code(),
  });
  assert.equal(linked.body.data.loginSuccess, true, JSON.stringify(linked.body));
  assert.equal((await browser.get<{ user: { username: string } }>('/api/cas/session')).body.data.user.username, 'bob');
  assert.equal((await browser.post(linkPath(ticket.accessTicket), { password: await transformPassword(BOB.password) })).status, 404, 'the ticket is used up');

  // Next time: the link is remembered, straight in.
  const nextBrowser = server.client();
  const next = await ticketFor(nextBrowser, 'sub-bob', { email: 'bob@corp.example', email_verified: true });
  const again = await nextBrowser.get<Info>(infoPath(next.token, next.accessTicket));
  assert.equal(again.body.data.needComplement, false);
  assert.equal(again.body.data.existingAccount, undefined);
});

test('failed link attempts count towards the account lockout', async () => {
  await admin.post('/api/user', {
    username: 'carol',
    realName: 'Carol',
    email: 'carol@corp.example',
    password: await transformPassword('Carol-pass-1'),
    extraProp: {},
  });
  const browser = server.client();
  const ticket = await ticketFor(browser, 'sub-carol', { email: 'carol@corp.example', email_verified: true });
  const path = `/api/interaction/idp/corp/authorize/after/user/link?access_ticket=${ticket.accessTicket}`;
  const statuses: number[] = [];
  for (let attempt = 0; attempt < 6; attempt += 1) statuses.push((await browser.post(path, { password: await transformPassword(`Wrong-${attempt}x`) })).status);
  assert.ok(statuses.includes(429), `locked after repeated failures: ${statuses.join(',')}`);
  assert.equal((await browser.post(path, { password: await transformPassword('Carol-pass-1') })).status, 429, 'the right password waits for the lock');
  assert.equal((await server.client().login('carol', 'Carol-pass-1')).status, 429, 'the sign-in form is locked too');
});

test('administrators list every provider with its settings but never its secret, and edit it (a blank secret keeps the stored one)', async () => {
  type Detail = { code: string; name: string; enabled: boolean; issuer: string; clientId: string; scopes: string; hasClientSecret: boolean };
  const secret = 'admin-list-secret-1';
  const added = await admin.post('/api/idps', {
    code: 'hr-sso',
    name: 'HR SSO',
    type: 'OIDC',
    enabled: false,
    config: { issuer: 'https://hr.example.com/oidc', clientId: 'iam-hr', clientSecret: secret, scopes: 'openid email' },
  });
  assert.equal(added.status, 200, JSON.stringify(added.body));
  const detail = async () => {
    const list = await admin.get<Detail[]>('/api/idps/all');
    assert.equal(list.status, 200);
    assert.ok(!JSON.stringify(list.body).includes('hidden') && !JSON.stringify(list.body).includes('admin-list-secret'), 'no secret answered');
    return list.body.data.find((idp) => idp.code === 'hr-sso');
  };
  assert.deepEqual(await detail(), {
    code: 'hr-sso',
    name: 'HR SSO',
    type: 'OIDC',
    enabled: false,
    icon: null,
    issuer: 'https://hr.example.com/oidc',
    clientId: 'iam-hr',
    scopes: 'openid email',
    hasClientSecret: true,
  });
  assert.ok(!(await server.client().get<{ code: string }[]>('/api/idps')).body.data.some((idp) => idp.code === 'hr-sso'), 'disabled: not on the sign-in page');
  const storedSecret = async () =>
    (
      JSON.parse((await server.app.ctx.db.selectFrom('idps').select('config').where('code', '=', 'hr-sso').executeTakeFirstOrThrow()).config) as {
        clientSecret: string;
      }
    ).clientSecret;

  // A blank secret keeps the stored one; a new one replaces it.
  const edited = await admin.put('/api/idps/hr-sso', {
    name: 'HR login',
    enabled: true,
    config: { issuer: 'https://hr.example.com/oidc2', clientId: 'iam-hr2', clientSecret: '', scopes: 'openid profile' },
  });
  assert.equal(edited.status, 200, JSON.stringify(edited.body));
  assert.deepEqual(await detail(), {
    code: 'hr-sso',
    name: 'HR login',
    type: 'OIDC',
    enabled: true,
    icon: null,
    issuer: 'https://hr.example.com/oidc2',
    clientId: 'iam-hr2',
    scopes: 'openid profile',
    hasClientSecret: true,
  });
  assert.equal(await storedSecret(), secret);
  assert.equal((await admin.put('/api/idps/hr-sso', { config: { clientSecret: 'admin-list-secret-2' } })).status, 200);
  assert.equal(await storedSecret(), 'admin-list-secret-2');
  assert.ok(
    (await server.client().get<{ code: string }[]>('/api/idps')).body.data.some((idp) => idp.code === 'hr-sso'),
    'enabled: on the sign-in page',
  );

  // Field errors: the issuer must be an http(s) URL, the code the safe-code rule, scopes plain names.
  const refused = await admin.post<{ fields: { field: string; rule: string }[] }>('/api/idps', {
    code: '1bad code',
    name: 'Bad',
    type: 'OIDC',
    config: { issuer: 'ftp://x.example.com', scopes: 'openid <script>' },
  });
  assert.equal(refused.status, 400);
  assert.deepEqual(refused.body.data.fields.map((entry) => `${entry.field}:${entry.rule}`).sort(), [
    'code:rule.safeCodeSpace',
    'config.issuer:rule.url',
    'config.scopes:rule.scopes',
  ]);
  const noIssuer = await admin.post<{ fields: { field: string; rule: string }[] }>('/api/idps', {
    code: 'no-issuer',
    name: 'No issuer',
    type: 'OIDC',
    config: { clientId: 'x' },
  });
  assert.deepEqual(noIssuer.body.data.fields, [{ field: 'config.issuer', rule: 'rule.required' }]);
  const badUpdate = await admin.put<{ fields: { field: string; rule: string }[] }>('/api/idps/hr-sso', { config: { issuer: 'javascript:alert(1)' } });
  assert.deepEqual(badUpdate.body.data.fields, [{ field: 'config.issuer', rule: 'rule.url' }]);

  // Unknown provider: 404; a caller without the settings permission: 403 on every administration call.
  assert.equal((await admin.put('/api/idps/nobody-here', { name: 'Nobody' })).status, 404);
  assert.equal((await admin.delete('/api/idps/nobody-here')).status, 404);
  assert.equal(
    (await admin.post('/api/user', { username: 'dora', realName: 'Dora', password: await transformPassword('Dora-pass-1'), extraProp: {} })).status,
    200,
  );
  const dora = server.client();
  await dora.login('dora', 'Dora-pass-1');
  assert.equal((await dora.get('/api/idps/all')).status, 403);
  assert.equal((await dora.put('/api/idps/hr-sso', { name: 'Mine' })).status, 403);
  assert.equal((await dora.post('/api/idps', { code: 'mine', name: 'Mine', type: 'OIDC', config: { issuer: 'https://x.example.com' } })).status, 403);
  assert.equal((await dora.delete('/api/idps/hr-sso')).status, 403);

  assert.equal((await admin.delete('/api/idps/hr-sso')).status, 200);
  const audit = await server.app.ctx.db
    .selectFrom('auditLog')
    .select(['action', 'detail'])
    .where('targetType', '=', 'idp')
    .where('targetId', '=', 'hr-sso')
    .orderBy('id')
    .execute();
  assert.equal(audit.length, 4, 'add, two updates, delete recorded');
  assert.ok(!JSON.stringify(audit).includes('admin-list-secret'), 'no secret in the audit log');
});

test('first-time people racing for one username or email: each loser is answered 400 on its field and keeps its ticket', async () => {
  type Refusal = { fields?: { field: string; rule: string }[] };
  for (const [field, body] of [
    ['username', (n: number) => ({ username: 'racer', realName: `Racer_${n}` })],
    ['email', (n: number) => ({ username: `racer-${n}`, realName: `Racer_${n}`, email: 'Racer@Corp.example' })],
  ] as const) {
    const browsers = Array.from({ length: 6 }, () => server.client());
    const tickets = await Promise.all(
      browsers.map((browser, n) => ticketFor(browser, `race-${field}-${n}`, { email: 'racer@corp.example', email_verified: true })),
    );
    const answers = await Promise.all(browsers.map((browser, n) => browser.post<Refusal>(complementPath(tickets[n]!.accessTicket), body(n))));
    assert.deepEqual(
      answers.map((answer) => answer.status).sort(),
      [200, 400, 400, 400, 400, 400],
      JSON.stringify(answers.map((answer) => [answer.status, answer.body])),
    );
    for (const [n, answer] of answers.entries()) {
      if (answer.status === 200) continue;
      assert.deepEqual(answer.body.data.fields?.[0]?.field, field, JSON.stringify(answer.body));
      // The refusal used nothing up: the same ticket makes the account with a free name.
      const again = await browsers[n]!.post<{ loginSuccess: boolean }>(complementPath(tickets[n]!.accessTicket), {
        username: `again-${field}-${n}`,
        realName: 'Racer',
      });
      assert.equal(again.body.data.loginSuccess, true, JSON.stringify(again.body));
    }
  }
});

test('the complement stores the email the provider vouched for; another typed address is sent a code and waits for it', async () => {
  const vouched = server.client();
  const first = await ticketFor(vouched, 'sub-vouched', { email: 'Vouched@Corp.example', email_verified: true });
  const made = await vouched.post<{ loginSuccess: boolean; message: string }>(complementPath(first.accessTicket), {
    username: 'vouched',
    realName: 'Vouched',
    email: 'vouched@corp.example',
  });
  assert.equal(made.body.data.loginSuccess, true, JSON.stringify(made.body));
  assert.equal((made.body.data as { codeSentTo?: unknown }).codeSentTo, undefined, 'nothing to prove');
  const row = await server.app.ctx.db.selectFrom('users').select(['id', 'email']).where('username', '=', 'vouched').executeTakeFirstOrThrow();
  assert.equal(row.email, 'vouched@corp.example');

  const typist = server.client();
  const second = await ticketFor(typist, 'sub-typist', { email: 'typist@corp.example' });
  const typed = await typist.post<{ loginSuccess: boolean; message: string; codeSentTo?: string[] }>(complementPath(second.accessTicket), {
    username: 'typist',
    realName: 'Typist',
    email: 'typist@corp.example',
  });
  assert.equal(typed.body.data.loginSuccess, true, JSON.stringify(typed.body));
  assert.match(typed.body.data.message, /A code was sent/);
  assert.deepEqual(typed.body.data.codeSentTo, ['email'], 'the page is told which address waits for its code');
  const user = await server.app.ctx.db.selectFrom('users').select(['id', 'email']).where('username', '=', 'typist').executeTakeFirstOrThrow();
  assert.equal(user.email, null, 'the provider did not vouch for the address: not stored');
  // Nothing lost: the code sent to the typed address makes it the account's, as a change of address.
  const sent = await server.app.ctx.db.selectFrom('messages').select('content').where('recipientId', '=', user.id).executeTakeFirstOrThrow();
  const code = /(\d{6})/.exec(sent.content)![1]!;
  const confirmed = await typist.post<{ email: string }>('/api/user/profile/contact/confirm', { channel: 'email', code });
  assert.equal(confirmed.body.data.email, 'typist@corp.example', JSON.stringify(confirmed.body));
});

test('expired tickets and removed providers answer 404', async () => {
  const late = server.client();
  const ticket = await ticketFor(late, 'sub-2', {});
  server.clock.advance(11 * 60_000);
  assert.equal((await late.get(infoPath(ticket.token, ticket.accessTicket))).status, 404);
  admin = await server.admin();
  const browser = server.client();
  const fresh = await ticketFor(browser, 'sub-3', {});
  assert.equal((await admin.delete('/api/idps/corp')).status, 200);
  assert.equal((await browser.get(infoPath(fresh.token, fresh.accessTicket))).status, 404);
});
