// Attack C: an outside tester where a customer's own systems meet the product: silent sign-in
// (prompt=none) from the console session, SCIM as Entra ID and Okta send it, the audit trail of
// what those write. Every test asserts the secure or correct behaviour, so a failing test shows a
// fault; tests named "holds:" are attacks that did not work, kept as cheap regression guards.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import { lastAuditId, signedInPerson, startServer, type Client, type TestServer } from './harness';
import { RelyingParty } from './oidc-rp';
import { oidcDb } from '../../server/oidc/tables';
import { Status } from '../../src/core/enums';

let server: TestServer;
let admin: Client;
let trusted: RelyingParty;
let wiki: RelyingParty;
let serial = 0;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  trusted = await RelyingParty.register(server, admin, 'AttackC_Trusted', 'http://127.0.0.1:9/c-trusted');
  assert.equal((await admin.put(`/api/apps/${trusted.appId}/oidc-client`, { trusted: true })).status, 200);
  wiki = await RelyingParty.register(server, admin, 'AttackC_Wiki', 'http://127.0.0.1:9/c-wiki');
});
after(async () => {
  await server.stop();
});

function person(label = 'c-victim') {
  return signedInPerson(server, admin, { username: `${label}-${++serial}`, realName: `${label}_${serial}` });
}

/** The app's silent request (prompt=none) in `browser`: the callback's code or error. */
async function silently(app: RelyingParty, browser: Client, extra: Record<string, string> = {}, scope = 'openid') {
  const request = await app.authorization(scope, { prompt: 'none', ...extra });
  const { url } = await app.follow(browser, request.url);
  assert.equal(url.origin + url.pathname, app.callback, url.href);
  return { code: url.searchParams.get('code'), error: url.searchParams.get('error'), url, request };
}

async function consentRecords(personId: string) {
  const rows = await server.app.ctx.db
    .selectFrom('auditLog')
    .select(['id', 'detail'])
    .where('action', '=', 'app.consent')
    .where('actorId', '=', personId)
    .execute();
  return rows.length;
}

async function grantsOf(personId: string) {
  const rows = await oidcDb(server.app.ctx.db).selectFrom('oidcPayloads').select('id').where('model', '=', 'Grant').where('accountId', '=', personId).execute();
  return rows.length;
}

/** Every console session goes idle (the administrator's is made again). */
async function idle() {
  const { value: policy } = await server.app.ctx.settings.get('login');
  server.clock.advance((policy.sessionIdleMinutes + 1) * 60_000);
  admin = await server.admin();
}

describe('silent sign-in (prompt=none) from the console session', () => {
  test("a trusted app's silent request with another person's id_token_hint: login_required, and no grant nor app.consent record for the signed-in person", async () => {
    const other = await person('c-hinted');
    const hinted = await trusted.signIn(other.browser, 'openid');
    const victim = await person();
    const silent = await silently(trusted, victim.browser, { id_token_hint: hinted.id_token! });
    assert.equal(silent.code, null, 'a code for the console person despite a hint naming someone else');
    assert.equal(silent.error, 'login_required');
    assert.deepEqual(
      { grants: await grantsOf(victim.user.id), consents: await consentRecords(victim.user.id) },
      { grants: 0, consents: 0 },
      'a request answered login_required left a grant and an app.consent record claiming the person allowed the app',
    );
  });

  test('holds: an id_token_hint of the signed-in person themselves gets the trusted app its code', async () => {
    const victim = await person();
    const first = await trusted.signIn(victim.browser, 'openid');
    const silent = await silently(trusted, victim.browser, { id_token_hint: first.id_token! });
    assert.ok(silent.code, `${silent.error}`);
  });

  test('holds: a console session that went idle while the provider session lives: no code for a trusted app nor an allowed one', async () => {
    const victim = await person();
    await wiki.signIn(victim.browser, 'openid');
    assert.ok((await silently(trusted, victim.browser)).code);
    await idle();
    for (const app of [trusted, wiki]) {
      const silent = await silently(app, victim.browser);
      assert.equal(silent.code, null, 'a code from a provider session whose console session timed out');
    }
  });

  test('a console session that went idle while the provider session lives: the app is told login_required (docs/sso.md: the browser is not signed in to the console)', async () => {
    const victim = await person();
    await wiki.signIn(victim.browser, 'openid');
    await idle();
    assert.equal((await silently(wiki, victim.browser)).error, 'login_required');
  });

  test('holds: one console session ended by an administrator (its other sessions go on): that browser gets no code', async () => {
    const victim = await person();
    await wiki.signIn(victim.browser, 'openid');
    const sessions = await admin.get<{ id: string }[]>(`/api/user/${victim.user.id}/sessions`);
    assert.equal(sessions.status, 200, JSON.stringify(sessions.body));
    for (const session of sessions.body.data) assert.equal((await admin.delete(`/api/user/${victim.user.id}/sessions/${session.id}`)).status, 200);
    for (const app of [trusted, wiki]) assert.equal((await silently(app, victim.browser)).code, null);
  });

  test('holds: a disabled person gets no code, a deleted one neither', async () => {
    for (const change of ['disable', 'delete'] as const) {
      const victim = await person();
      await wiki.signIn(victim.browser, 'openid');
      if (change === 'disable') {
        const user = await admin.get<{ version: number }>(`/api/user/${victim.user.id}`);
        const saved = await admin.put(`/api/user/${victim.user.id}`, { availabilityStatus: Status.Disabled, version: user.body.data.version });
        assert.ok(saved.status === 200, JSON.stringify(saved.body));
      } else assert.equal((await admin.delete(`/api/user/${victim.user.id}`)).status, 200);
      for (const app of [trusted, wiki]) assert.equal((await silently(app, victim.browser)).code, null, change);
    }
  });

  test('holds: a browser whose console person changed (a shared computer): no code for the first person, the second gets their own', async () => {
    const first = await person();
    await wiki.signIn(first.browser, 'openid');
    const second = await person('c-second');
    // The second person signs in to the console in the first one's browser (the first did not sign out of the apps).
    assert.equal((await first.browser.login(second.username, 'Secret123')).body.data?.loginSuccess, true);
    const silent = await silently(trusted, first.browser);
    if (silent.code) {
      const tokens = await trusted.exchange(silent.url, silent.request.verifier, silent.request.state);
      assert.equal(oauth.getValidatedIdTokenClaims(tokens as oauth.TokenEndpointResponse)?.sub, second.user.id);
    }
    assert.equal((await silently(wiki, first.browser)).code, null, "the first person's grant reached the second person's session");
  });

  test('holds: max_age shorter than the console sign-in: no code from a standing grant (allowed in another browser) nor for a trusted app', async () => {
    const victim = await person();
    await wiki.signIn(victim.browser, 'openid');
    // A second browser with no provider session: its sign-in time is the console session's (on the test clock).
    const later = server.client();
    assert.equal((await later.login(victim.username, 'Secret123')).body.data?.loginSuccess, true);
    server.clock.advance(5_000);
    assert.equal((await silently(wiki, later, { max_age: '2' })).error, 'login_required');
    assert.equal((await silently(trusted, later, { max_age: '2' })).error, 'login_required');
  });

  test('holds: the audit trail names one app.sign_in per silent code, none for a refusal', async () => {
    const victim = await person();
    const before = await lastAuditId(server);
    assert.ok((await silently(trusted, victim.browser)).code);
    assert.equal((await silently(wiki, victim.browser)).error, 'consent_required');
    const rows = await server.app.ctx.db
      .selectFrom('auditLog')
      .select(['action', 'targetId'])
      .where('id', '>', before)
      .where('actorId', '=', victim.user.id)
      .execute();
    const signIns = rows.filter((row) => row.action === 'app.sign_in');
    assert.deepEqual(
      signIns.map((row) => row.targetId),
      [trusted.appId],
    );
  });
});
