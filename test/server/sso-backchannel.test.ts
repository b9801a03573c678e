// Back-channel logout: an app that registered a logout URI receives a logout token, signed by the
// provider and verified here with jose (not a dependency of the server) against the published JWKS,
// whenever the person's grants end: RP-initiated logout, console sign-out, disabling, deleting, a
// password reset. A receiver that fails gets the token again later (the outbox retries); an app
// without a URI, or whose person has no grant with it, gets nothing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, decodeJwt, jwtVerify, type JWTPayload } from 'jose';
import { ADMIN, startServer, transform, type Client, type TestServer } from './harness';
import { RelyingParty } from './oidc-rp';
import { until } from './receivers';
import type { User } from '../../src/core/types';

const EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** An app's back-channel logout endpoint: keeps every posted logout token; answers `status`. */
interface Receiver {
  uri: string;
  tokens: string[];
  status: number;
  server: Server;
}

async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { uri: '', tokens: [], status: 200, server: undefined as unknown as Server };
  receiver.server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      if (req.headers['content-type'] === 'application/x-www-form-urlencoded') receiver.tokens.push(new URLSearchParams(body).get('logout_token') ?? '');
      res.writeHead(receiver.status, { 'cache-control': 'no-store' }).end();
    });
  });
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  receiver.uri = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/backchannel-logout`;
  return receiver;
}

let server: TestServer;
let admin: Client;
let ledger: RelyingParty;
let quiet: RelyingParty;
let receiver: Receiver;
let serial = 0;

before(async () => {
  // The receivers listen on 127.0.0.1: the operator allows loopback targets (http/outbound-address.ts).
  server = await startServer({ outboundAllowPrivate: true });
  admin = await server.admin();
  receiver = await startReceiver();
  ledger = await RelyingParty.register(server, admin, 'Ledger');
  quiet = await RelyingParty.register(server, admin, 'Quiet', 'http://127.0.0.1:9/quiet-callback');
  const saved = await admin.put<{ backchannelLogoutUri: string | null }>(`/api/apps/${ledger.appId}/oidc-client`, { backchannelLogoutUri: receiver.uri });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  assert.equal(saved.body.data.backchannelLogoutUri, receiver.uri);
});
after(async () => {
  await server.stop();
  await new Promise((resolve) => receiver.server.close(resolve));
});

/** A new person signed in to the console, and through it to both apps; their ID token at Ledger. */
async function signedInPerson() {
  const username = `bcl-person-${++serial}`;
  const created = await admin.post<User>('/api/user', { username, realName: 'Bcl_Person', password: transform('Secret123') });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const browser = server.client();
  assert.equal((await browser.login(username, 'Secret123')).body.data?.loginSuccess, true);
  const tokens = await ledger.signIn(browser);
  await quiet.signIn(browser);
  return { user: created.body.data, browser, username, idToken: tokens.id_token! };
}

/** The logout token verified as an app must: signature against the JWKS, issuer, audience, type,
 *  the back-channel logout event, a subject, no nonce. */
async function verified(token: string): Promise<JWTPayload> {
  const jwks = createRemoteJWKSet(new URL(ledger.as.jwks_uri!));
  const { payload, protectedHeader } = await jwtVerify(token, jwks, {
    issuer: ledger.as.issuer,
    audience: ledger.appId,
    typ: 'logout+jwt',
    maxTokenAge: '2 minutes',
  });
  assert.equal(protectedHeader.alg, 'RS256');
  assert.deepEqual(payload.events, { [EVENT]: {} });
  assert.equal(payload.nonce, undefined);
  assert.ok(typeof payload.jti === 'string' && payload.jti.length > 0);
  return payload;
}

/** Waits for the token about `personId`; answers its verified claims. */
async function logoutTokenFor(personId: string): Promise<JWTPayload> {
  const token = await until(() => receiver.tokens.find((value) => decodeJwt(value).sub === personId), `a logout token for ${personId}`);
  return verified(token);
}

const sidOf = (idToken: string) => decodeJwt(idToken).sid as string;

test('discovery advertises back-channel logout with sessions; the URI is validated and shown in the app detail', async () => {
  assert.equal(ledger.as.backchannel_logout_supported, true);
  assert.equal(ledger.as.backchannel_logout_session_supported, true);
  for (const bad of ['javascript:alert(1)', 'ftp://127.0.0.1/x', 'http://127.0.0.1/x#frag', 'x'.repeat(2100)]) {
    const refused = await admin.put(`/api/apps/${quiet.appId}/oidc-client`, { backchannelLogoutUri: bad });
    assert.equal(refused.status, 400, `${bad.slice(0, 40)}: ${JSON.stringify(refused.body)}`);
  }
  assert.equal((await server.client().put(`/api/apps/${quiet.appId}/oidc-client`, { backchannelLogoutUri: receiver.uri })).status, 401);
  const status = await admin.get<{ backchannelLogoutUri: string | null }>(`/api/apps/${quiet.appId}/oidc-client`);
  assert.equal(status.body.data.backchannelLogoutUri, null);
});

test('console sign-out: Ledger gets a verified logout token with the person and the session; Quiet (no URI) nothing', async () => {
  const { user, browser, idToken } = await signedInPerson();
  assert.equal((await browser.get('/api/cas/logout')).status, 200);
  const claims = await logoutTokenFor(user.id);
  assert.equal(claims.sub, user.id);
  assert.equal(claims.sid, sidOf(idToken));
  assert.equal(receiver.tokens.filter((token) => decodeJwt(token).sub === user.id).length, 1, 'one token: one session with Ledger');
});

test('RP-initiated logout sends the token for the ended session', async () => {
  const { user, browser, idToken } = await signedInPerson();
  const page = await browser.raw('GET', `/api/oidc/session/end?${new URLSearchParams({ id_token_hint: idToken })}`);
  const html = await page.text();
  const action = new URL(/<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(html)![1]!);
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1]!;
  assert.equal((await browser.raw('POST', action.pathname, new URLSearchParams({ xsrf, logout: 'yes' }))).status, 303);
  const claims = await logoutTokenFor(user.id);
  assert.equal(claims.sid, sidOf(idToken));
});

for (const [how, end] of [
  [
    'disabling the person',
    async (user: User) => {
      const { version } = (await admin.get<User>(`/api/user/${user.id}`)).body.data;
      assert.equal((await admin.put(`/api/user/${user.id}`, { availabilityStatus: 2, version })).status, 200);
    },
  ],
  ['deleting the person', async (user: User) => assert.equal((await admin.delete(`/api/user/${user.id}`)).status, 200)],
  [
    'an administrator resetting the password',
    async (user: User) => {
      const answer = await admin.post(`/api/user/${user.id}/password`, {
        id: user.id,
        username: user.username,
        password: transform('Reset1234'),
        opUserPassword: transform(ADMIN.password),
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
    },
  ],
] as const) {
  test(`${how} sends Ledger a logout token`, async () => {
    const { user, idToken } = await signedInPerson();
    await end(user);
    const claims = await logoutTokenFor(user.id);
    assert.equal(claims.sid, sidOf(idToken));
  });
}

test('a receiver that fails gets the token again later (the outbox retries)', async () => {
  const { user, browser } = await signedInPerson();
  receiver.status = 503;
  try {
    assert.equal((await browser.get('/api/cas/logout')).status, 200);
    await logoutTokenFor(user.id);
    const waiting = await until(
      async () =>
        server.app.ctx.db
          .withTables<{ oidcLogoutDeliveries: { subject: string; attempts: number; status: string; error: string | null } }>()
          .selectFrom('oidcLogoutDeliveries')
          .selectAll()
          .where('subject', '=', user.id)
          .where('status', '=', 'queued')
          .executeTakeFirst(),
      'the failed attempt recorded',
    );
    assert.equal(waiting.attempts, 1);
    assert.match(waiting.error ?? '', /HTTP 503/);
  } finally {
    receiver.status = 200;
  }
  server.clock.advance(60_000);
  await until(() => receiver.tokens.filter((token) => decodeJwt(token).sub === user.id).length === 2, 'the retry');
  await verified(receiver.tokens.filter((token) => decodeJwt(token).sub === user.id)[1]!);
});

test('a person without a grant with Ledger sends it nothing', async () => {
  const username = `bcl-quiet-${++serial}`;
  const created = await admin.post<User>('/api/user', { username, realName: 'Bcl_Quiet', password: transform('Secret123') });
  const browser = server.client();
  assert.equal((await browser.login(username, 'Secret123')).body.data?.loginSuccess, true);
  await quiet.signIn(browser);
  assert.equal((await browser.get('/api/cas/logout')).status, 200);
  // A control person in the same moment proves the outbox ran.
  const control = await signedInPerson();
  assert.equal((await control.browser.get('/api/cas/logout')).status, 200);
  await logoutTokenFor(control.user.id);
  assert.equal(
    receiver.tokens.some((token) => decodeJwt(token).sub === created.body.data.id),
    false,
  );
});
