// What ends an app's access: a person who no longer qualifies never gets a 500 from the provider
// (the sign-in page, or login_required); a password reset or change, disabling or deleting the
// person, and console sign-out revoke every grant of that person (refresh and access tokens);
// refresh tokens rotate on every use, a reused one (or code) revokes its grant, recorded once in the
// audit log, and only offline_access asks for one.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, lastAuditId, startServer, transform, type Client, type TestServer, signedInPerson } from './harness';
import { RelyingParty, type Tokens } from './oidc-rp';
import type { User } from '../../src/core/types';

let server: TestServer;
let admin: Client;
let wiki: RelyingParty;
let mail: RelyingParty;
let serial = 0;
/** offline_access counts only with prompt=consent (OpenID Connect Core). */
const offline = { prompt: 'consent' };

before(async () => {
  server = await startServer();
  admin = await server.admin();
  wiki = await RelyingParty.register(server, admin, 'Wiki');
  mail = await RelyingParty.register(server, admin, 'Mail', 'http://127.0.0.1:9/mail-callback');
});
after(async () => {
  await server.stop();
});

/** A new person, signed in to the console in a fresh browser. */
function person(password = 'Secret123') {
  return signedInPerson(server, admin, { username: `sso-person-${++serial}`, realName: 'Sso_Person', password: password });
}

async function setStatus(user: User, availabilityStatus: number) {
  const { version } = (await admin.get<User>(`/api/user/${user.id}`)).body.data;
  const answer = await admin.put(`/api/user/${user.id}`, { availabilityStatus, version });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
}

/** Both tokens are dead: the refresh grant answers invalid_grant and userinfo 401. */
async function assertRevoked(app: RelyingParty, tokens: Tokens, why: string) {
  assert.deepEqual(await app.refresh(tokens.refresh_token!), { error: 'invalid_grant' }, `refresh after ${why}`);
  assert.equal((await app.userinfo(tokens.access_token)).status, 401, `access token after ${why}`);
}

/** The grant ends the provider recorded since the audit id `from` (app.grant_revoke): the app, the
 *  person and the reason of each, and whether a person was named as the actor. */
async function grantEndsSince(from: number) {
  const rows = await server.app.ctx.db
    .selectFrom('auditLog')
    .select(['actorId', 'targetId', 'detail'])
    .where('id', '>', from)
    .where('action', '=', 'app.grant_revoke')
    .orderBy('id')
    .execute();
  return rows.map((row) => {
    const detail = JSON.parse(row.detail) as { reason: string; person: { id: string } };
    return { actor: row.actorId, app: row.targetId, person: detail.person.id, reason: detail.reason };
  });
}

async function assertAlive(app: RelyingParty, tokens: Tokens, why: string) {
  assert.equal((await app.userinfo(tokens.access_token)).status, 200, `access token after ${why}`);
}

describe('a person who no longer qualifies', () => {
  for (const [how, end] of [
    ['disabled', async (user: User) => setStatus(user, 2)],
    ['deleted', async (user: User) => assert.equal((await admin.delete(`/api/user/${user.id}`)).status, 200)],
    // Behind the console's back (no revocation ran): the provider itself must not fail.
    [
      'disabled in the database',
      async (user: User) => {
        await server.app.ctx.db.updateTable('users').set({ availabilityStatus: 2 }).where('id', '=', user.id).execute();
      },
    ],
  ] as const) {
    test(`${how}: their browser gets the sign-in page or login_required, never a 500, for any app and after someone else signs in`, async () => {
      const { user, browser } = await person();
      await wiki.signIn(browser, 'openid');
      await end(user);
      for (const app of [wiki, mail]) {
        const asked = await app.follow(browser, (await app.authorization()).url);
        assert.notEqual(asked.response.status, 500, await asked.response.text());
        assert.equal(asked.url.pathname, '/oauth/authorize', `${app.appId}: ${asked.url.href}`);
        const silent = await app.follow(browser, (await app.authorization('openid', { prompt: 'none' })).url);
        assert.notEqual(silent.response.status, 500, await silent.response.text());
        assert.equal(silent.url.searchParams.get('error'), 'login_required', silent.url.href);
      }
      // Another person signs in to the console in that browser: they go through consent and get their own tokens.
      assert.equal((await browser.login(ADMIN.username, ADMIN.password)).body.data?.loginSuccess, true);
      const tokens = await mail.signIn(browser, 'openid profile');
      assert.equal((await mail.userinfo(tokens.access_token)).body.preferred_username, ADMIN.username);
      assert.equal((await browser.get('/api/cas/session')).status, 200, 'the new person stays signed in to the console');
    });
  }
});

describe('events that revoke every grant of the person', () => {
  /** A person with tokens for two apps, and a bystander whose tokens must survive. */
  async function withTokens() {
    const subject = await person();
    const tokens = [await wiki.signIn(subject.browser, 'openid offline_access', offline), await mail.signIn(subject.browser, 'openid offline_access', offline)];
    const bystander = await person();
    const theirs = await wiki.signIn(bystander.browser, 'openid offline_access', offline);
    return { ...subject, tokens, theirs };
  }

  const events: [string, (subject: Awaited<ReturnType<typeof withTokens>>) => Promise<void>][] = [
    [
      'an administrator resets the password',
      async ({ user, username }) => {
        const answer = await admin.post(`/api/user/${user.id}/password`, {
          id: user.id,
          username,
          password: transform('Reset1234'),
          opUserPassword: transform(ADMIN.password),
        });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
      },
    ],
    [
      'the person changes their password',
      async ({ browser }) => {
        const answer = await browser.put('/api/user/password', { password: transform('Changed123'), opUserPassword: transform('Secret123') });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
      },
    ],
    ['the person is disabled', async ({ user }) => setStatus(user, 2)],
    ['the person is deleted', async ({ user }) => assert.equal((await admin.delete(`/api/user/${user.id}`)).status, 200)],
    ['the person signs out of the console', async ({ browser }) => assert.equal((await browser.get('/api/cas/logout')).status, 200)],
  ];
  for (const [event, act] of events) {
    test(`${event}: refresh and access tokens of every app stop working; someone else's do not`, async () => {
      const subject = await withTokens();
      for (const tokens of subject.tokens) await assertAlive(wiki, tokens, 'sign-in');
      await act(subject);
      await assertRevoked(wiki, subject.tokens[0]!, event);
      await assertRevoked(mail, subject.tokens[1]!, event);
      await assertAlive(wiki, subject.theirs, `${event} (bystander)`);
      assert.ok('access_token' in (await wiki.refresh(subject.theirs.refresh_token!)), 'the bystander still refreshes');
    });
  }

  test('re-enabling a disabled person does not revive their old refresh tokens', async () => {
    const { user, tokens } = await withTokens();
    await setStatus(user, 2);
    await setStatus(user, 1);
    await assertRevoked(wiki, tokens[0]!, 're-enabling');
  });
});

describe('refresh tokens', () => {
  test('rotate on every use; a reused one revokes the grant (every token of it)', async () => {
    const { browser, user } = await person();
    const first = await wiki.signIn(browser, 'openid offline_access', offline);
    const from = await lastAuditId(server);
    const second = await wiki.refresh(first.refresh_token!);
    assert.ok('refresh_token' in second && second.refresh_token && second.refresh_token !== first.refresh_token, 'a new refresh token on the first use');
    const third = (await wiki.refresh(second.refresh_token)) as Tokens;
    assert.ok(third.refresh_token && third.refresh_token !== second.refresh_token, 'and on every use');

    // The rotated-out token comes back (stolen): the whole grant dies, the current token too.
    assert.deepEqual(await wiki.refresh(first.refresh_token!), { error: 'invalid_grant' });
    await assertRevoked(wiki, third, 'reuse of a rotated refresh token');
    // Recorded once (the rotations are not), with no actor: the provider ended it, not the person.
    assert.deepEqual(await grantEndsSince(from), [{ actor: null, app: wiki.appId, person: user.id, reason: 'refresh_token_reused' }]);
  });

  test('a parallel burst with one refresh token: at most one succeeds, and the reuse revokes the grant', async () => {
    const { browser, user } = await person();
    const tokens = await wiki.signIn(browser, 'openid offline_access', offline);
    const from = await lastAuditId(server);
    const answers = await Promise.all(Array.from({ length: 8 }, () => wiki.refresh(tokens.refresh_token!)));
    const won = answers.filter((answer): answer is Tokens => 'access_token' in answer);
    assert.ok(won.length <= 1, `${won.length} refreshes succeeded with one token`);
    for (const answer of answers) if ('error' in answer) assert.equal(answer.error, 'invalid_grant');
    for (const tokens of won) await assertRevoked(wiki, tokens, 'a parallel reuse');
    assert.deepEqual(
      await grantEndsSince(from),
      [{ actor: null, app: wiki.appId, person: user.id, reason: 'refresh_token_reused' }],
      'one record of the grant ended',
    );
  });

  test("a rotated-out token replayed while the current one rotates: the rotation's new tokens die with the grant", async () => {
    // The rotation writes its new tokens just before its answer (oidc/adapter.ts); the replay's
    // revocation may land before or after that write: either way nothing of the grant survives.
    for (let round = 0; round < 3; round++) {
      const { browser } = await person();
      const first = await wiki.signIn(browser, 'openid offline_access', offline);
      const current = (await wiki.refresh(first.refresh_token!)) as Tokens;
      const [rotation, replay] = await Promise.all([wiki.refresh(current.refresh_token!), wiki.refresh(first.refresh_token!)]);
      assert.deepEqual(replay, { error: 'invalid_grant' }, 'the replay is refused');
      if ('access_token' in rotation) await assertRevoked(wiki, rotation, 'a replay during the rotation');
      else assert.deepEqual(rotation, { error: 'invalid_grant' }, 'or the rotation came after the revocation');
      await assertRevoked(wiki, current, 'a replay during the rotation');
    }
  });

  test('a parallel burst with one authorization code: at most one exchange succeeds, and the reuse revokes the grant', async () => {
    const { browser, user } = await person();
    const request = await wiki.authorization('openid offline_access', offline);
    const { url } = await wiki.follow(browser, request.url);
    const allowed = await browser.post<{ redirectURL: string }>(`/api/sso/interactions/${url.searchParams.get('uid')}`, { allow: true });
    const landed = await wiki.follow(browser, allowed.body.data.redirectURL);
    const from = await lastAuditId(server);
    const answers = await Promise.allSettled(Array.from({ length: 8 }, () => wiki.exchange(landed.url, request.verifier, request.state)));
    const won = answers.flatMap((answer) => (answer.status === 'fulfilled' ? [answer.value] : []));
    assert.ok(won.length <= 1, `${won.length} exchanges succeeded with one code`);
    for (const tokens of won) await assertRevoked(wiki, tokens, 'a parallel reuse of the code');
    assert.deepEqual(await grantEndsSince(from), [{ actor: null, app: wiki.appId, person: user.id, reason: 'code_reused' }], 'one record of the grant ended');
  });

  test('only offline_access asks for a refresh token', async () => {
    const { browser } = await person();
    const without = await wiki.signIn(browser, 'openid profile');
    assert.equal(without.refresh_token, undefined, 'no refresh token without offline_access');
    const unconfirmed = await wiki.signIn(browser, 'openid offline_access');
    assert.equal(unconfirmed.refresh_token, undefined, 'no refresh token for offline_access without prompt=consent');
    const withIt = await wiki.signIn(browser, 'openid offline_access', offline);
    assert.ok(withIt.refresh_token, 'a refresh token with offline_access and prompt=consent');
  });
});
