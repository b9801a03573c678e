// Shared by the server tests of sign-in steps: the login settings, a person's authenticator app (codes of the test
// server's clock) and a third-party provider registered for a test, with one trip through it.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { ADMIN, transform, type Answer, type Client, type TestServer } from './harness';
import { signInAtProvider, startIdentityProvider, type IdentityProvider, type Person } from './identity-provider';
import { until } from './receivers';

/** `admin` changes the login settings (at their current version). */
export async function setLogin(admin: Client, changes: Record<string, unknown>): Promise<void> {
  const current = await admin.get<{ version: number }>('/api/settings/login');
  const saved = await admin.put('/api/settings/login', { ...changes, version: current.body.data.version });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
}

/** A maker of people with `password` and a phone of their own, created by `admin()` (read at each
 *  call: the administrator signs in after the tests' module is loaded): `<label>-person-N`. */
export function peopleMaker(admin: () => Client, label: string, password: string, firstPhone: number) {
  let people = 0;
  return async (fields: Record<string, unknown> = {}): Promise<{ id: string; username: string; phone: string }> => {
    people += 1;
    const username = `${label.toLowerCase()}-person-${people}`;
    const phone = `1390000${String(firstPhone + people)}`;
    const created = await admin().post<{ id: string }>('/api/user', {
      username,
      realName: `${label}_${people}`,
      password: transform(password),
      mobilePhone: phone,
      ...fields,
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return { id: created.body.data.id, username, phone };
  };
}

/** An authenticator app holding `secret`: each code of a later time step than the one before
 *  (never earlier than the server's clock), the server's clock moved to that step. */
export function authenticator(server: TestServer, secret: string): () => string {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  let last = 0;
  return () => {
    last = Math.max(last + 1, Math.floor(server.clock.now() / 30_000));
    server.clock.offset = Math.max(server.clock.offset, last * 30_000 - Date.now());
    return totp.generate({ timestamp: last * 30_000 });
  };
}

/** The person `client` is signed in as turns their authenticator app on (through the API, with
 *  their `password`): its next code. */
export async function withAuthenticator(server: TestServer, client: Client, password: string): Promise<() => string> {
  const enrolment = await client.post<{ secret: string }>('/api/user/totp', { password: transform(password) });
  assert.equal(enrolment.status, 200, JSON.stringify(enrolment.body));
  const code = authenticator(server, enrolment.body.data.secret);
  assert.equal((await client.post('/api/user/totp/confirm', { code: code() })).status, 200);
  return code;
}

/** Turns the authenticator app on for `username`, a person a third-party sign-in created (no
 *  password, and setting up an app takes one): `admin` gives them `password` (which ends their other
 *  sessions), they sign in with it in a new browser and set the app up. Answers the app's next code. */
export async function withAuthenticatorOfPasswordless(server: TestServer, admin: Client, username: string, password: string): Promise<() => string> {
  const { id } = await server.app.ctx.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow();
  const given = await admin.post(`/api/user/${id}/password`, { id, password: transform(password), opUserPassword: transform(ADMIN.password) });
  assert.equal(given.status, 200, JSON.stringify(given.body));
  const browser = server.client();
  assert.equal((await browser.login(username, password)).body.data?.loginSuccess, true);
  return withAuthenticator(server, browser, password);
}

/** One trip through a provider: the sign-in's answer to the complement call, and the browser that took it. */
export type ProviderTrip<T> = { answer: Answer<T>; browser: Client };

/** An OpenID Connect provider `code` on this machine vouching for `person`, registered by `admin`;
 *  `viaProvider` takes one trip through it in a new browser, completing with `body`. */
export async function registeredProvider(
  server: TestServer,
  admin: Client,
  code: string,
  person: Person,
): Promise<{ idp: IdentityProvider; viaProvider: <T>(body: Record<string, unknown>) => Promise<ProviderTrip<T>> }> {
  const idp = await startIdentityProvider(`${server.base}/api/interaction/idp/${code}/authorize/callback`, person);
  const created = await admin.post('/api/idps', {
    code,
    name: `${code} SSO`,
    type: 'OIDC',
    config: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret },
  });
  if (created.status !== 200) await idp.stop();
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const viaProvider = async <T>(body: Record<string, unknown>): Promise<ProviderTrip<T>> => {
    const browser = server.client();
    const ticket = (await signInAtProvider(browser, code)).searchParams.get('access_ticket')!;
    const answer = await browser.post<T>(`/api/interaction/idp/${code}/authorize/after/user/complement?access_ticket=${ticket}`, body);
    return { answer, browser };
  };
  return { idp, viaProvider };
}

/** The six-digit code last sent to `address` for `userId` since `since` (the outbox writes it just
 *  after the answer, so it is polled for, up to `waitMs`); undefined when none came. A caller that
 *  expects no code (an attack refused) may wait less: there a late code only passes unnoticed. */
export async function codeSentTo(server: TestServer, userId: string, address: string, since: number, waitMs = 10_000): Promise<string | undefined> {
  const sent = await until(
    async () => {
      const rows = await server.app.ctx.db
        .selectFrom('messages')
        .select(['content', 'address'])
        .where('recipientId', '=', userId)
        .where('createdAt', '>=', since)
        .orderBy('createdAt', 'desc')
        .execute();
      return rows.find((row) => row.address === address);
    },
    `a code to ${address}`,
    waitMs,
  ).catch(() => undefined);
  return sent && /(\d{6})/.exec(sent.content)?.[1];
}

/** Asks for a phone sign-in code for `who` (a minute after the last one, on the test clock) and answers it. */
async function phoneSignInCode(server: TestServer, who: { id: string; phone: string }): Promise<string> {
  server.clock.advance(61_000);
  const asked = server.clock.now();
  assert.equal((await server.client().post('/api/authc/login/code', { phone: who.phone })).status, 200);
  const code = await codeSentTo(server, who.id, who.phone, asked);
  assert.ok(code, 'no code was sent');
  return code;
}

/** The first factor by phone, in `browser`: the sign-in's answer. */
export async function signInByPhone<T>(server: TestServer, who: { id: string; phone: string }, browser = server.client()): Promise<Answer<T>> {
  return browser.post<T>('/api/authc/login', { username: who.phone, code: await phoneSignInCode(server, who) });
}

/**
 * A password sign-in of `username` overtaken by `meanwhile`: held at its last step before the
 * session's transaction (the replaced cookie's revocation), where the KDF's time holds it in
 * production, so that `meanwhile` (a reset, a disable) commits between the password check and the
 * session's write for certain. Answers the sign-in's answer and its browser.
 */
export async function signInOvertakenBy(server: TestServer, username: string, password: string, meanwhile: () => Promise<unknown>) {
  const marker = `held-${randomUUID()}`;
  const sessions = server.app.ctx.sessions;
  const revokeSecret = sessions.revokeSecret.bind(sessions);
  let reached!: () => void;
  const atSession = new Promise<void>((resolve) => (reached = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  sessions.revokeSecret = async (secret) => {
    if (secret === marker) {
      reached();
      await released;
    }
    return revokeSecret(secret);
  };
  try {
    const browser = server.client();
    browser.cookies.set('iam_session', marker);
    const signingIn = browser.login(username, password);
    await Promise.race([atSession, signingIn.then((answer) => assert.fail(`the sign-in ended first: ${JSON.stringify(answer.body)}`))]);
    await meanwhile();
    release();
    return { answer: await signingIn, browser };
  } finally {
    release();
    sessions.revokeSecret = revokeSecret;
  }
}
