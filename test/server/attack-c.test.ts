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
import { GROUP_SCHEMA, PATCH_SCHEMA, provisionedTenant, USER_SCHEMA, type Scim } from './scim-support';

let server: TestServer;
let admin: Client;
let trusted: RelyingParty;
let wiki: RelyingParty;
let serial = 0;
let scim: Scim;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  trusted = await RelyingParty.register(server, admin, 'AttackC_Trusted', 'http://127.0.0.1:9/c-trusted');
  assert.equal((await admin.put(`/api/apps/${trusted.appId}/oidc-client`, { trusted: true })).status, 200);
  wiki = await RelyingParty.register(server, admin, 'AttackC_Wiki', 'http://127.0.0.1:9/c-wiki');
  ({ scim } = await provisionedTenant(server, admin, 'AttackC_Scim_Co'));
});
after(async () => {
  await server.stop();
});

function person(label = 'c-victim') {
  return signedInPerson(server, admin, { username: `${label}-${++serial}`, realName: 'Attack-Person' });
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

  test('holds: a silent request for offline_access gets no refresh token (it needs prompt=consent), trusted app or standing grant', async () => {
    const victim = await person();
    for (const app of [trusted, wiki]) {
      if (app === wiki) await wiki.signIn(victim.browser, 'openid');
      const silent = await silently(app, victim.browser, {}, 'openid offline_access');
      assert.ok(silent.code, `${silent.error}`);
      const tokens = await app.exchange(silent.url, silent.request.verifier, silent.request.state);
      assert.equal(tokens.refresh_token, undefined, 'a refresh token without the consent page');
    }
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

interface ScimUserBody {
  id: string;
  userName: string;
  displayName?: string;
  active?: boolean;
  emails?: { value: string; type?: string; primary?: boolean }[];
  phoneNumbers?: { value: string; type?: string }[];
}

async function scimUser(extra: Record<string, unknown> = {}): Promise<ScimUserBody> {
  const name = `c_scim_${++serial}`;
  const answer = await scim<ScimUserBody>('POST', '/Users', { schemas: [USER_SCHEMA], userName: name, name: { formatted: 'Scim Person' }, ...extra });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body;
}

const patchOf = (path: string, operations: unknown[]) => scim('PATCH', path, { schemas: [PATCH_SCHEMA], Operations: operations });

async function stored(userId: string) {
  return server.app.ctx.db
    .selectFrom('users')
    .select(['realName', 'email', 'mobilePhone', 'availabilityStatus', 'tenantId'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}

describe('SCIM as Entra ID and Okta send it', () => {
  // Entra ID's and Okta's people have Latin names and E.164 numbers: the international field rules.
  before(async () => {
    const login = await admin.get<{ version: number }>('/api/settings/login');
    assert.equal((await admin.put('/api/settings/login', { version: login.body.data.version, fieldRules: 'international' })).status, 200);
  });

  test("Okta's group push: 8 PATCHes at once, each adding a different member to one group, all answered 204: all 8 are members", async () => {
    const people = await Promise.all(Array.from({ length: 8 }, () => scimUser()));
    const group = await scim<{ id: string }>('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: `C_Push_${++serial}` });
    assert.equal(group.status, 201, JSON.stringify(group.body));
    const answers = await Promise.all(people.map((user) => patchOf(`/Groups/${group.body.id}`, [{ op: 'add', path: 'members', value: [{ value: user.id }] }])));
    const acknowledged = people.filter((_, index) => answers[index]!.status === 204).map((user) => user.id);
    for (const answer of answers) assert.ok([204, 409].includes(answer.status), `${answer.status} ${JSON.stringify(answer.body)}`);
    const members = ((await scim<{ members?: { value: string }[] }>('GET', `/Groups/${group.body.id}`)).body.members ?? []).map((member) => member.value);
    const lost = acknowledged.filter((id) => !members.includes(id));
    assert.deepEqual(lost, [], `${lost.length} of ${acknowledged.length} acknowledged additions are not members (a lost write)`);
  });

  test('8 PATCHes at once, each removing a different member by members[value eq "…"]: every acknowledged removal is kept', async () => {
    const people = await Promise.all(Array.from({ length: 8 }, () => scimUser()));
    const group = await scim<{ id: string }>('POST', '/Groups', {
      schemas: [GROUP_SCHEMA],
      displayName: `C_Pull_${++serial}`,
      members: people.map((user) => ({ value: user.id })),
    });
    assert.equal(group.status, 201, JSON.stringify(group.body));
    const answers = await Promise.all(people.map((user) => patchOf(`/Groups/${group.body.id}`, [{ op: 'Remove', path: `members[value eq "${user.id}"]` }])));
    const acknowledged = people.filter((_, index) => answers[index]!.status === 204).map((user) => user.id);
    const members = ((await scim<{ members?: { value: string }[] }>('GET', `/Groups/${group.body.id}`)).body.members ?? []).map((member) => member.value);
    const lost = acknowledged.filter((id) => members.includes(id));
    assert.deepEqual(lost, [], `${lost.length} of ${acknowledged.length} acknowledged removals are still members (a lost write)`);
  });

  test('Entra\'s telephoneNumber mapping: a person created with a work phone only, then Replace phoneNumbers[type eq "work"].value: answered 200 and the new number is kept', async () => {
    const user = await scimUser({ phoneNumbers: [{ type: 'work', value: '+44 20 7946 0958' }] });
    assert.equal((await stored(user.id)).mobilePhone, '+442079460958');
    const answer = await patchOf(`/Users/${user.id}`, [{ op: 'Replace', path: 'phoneNumbers[type eq "work"].value', value: '+44 20 7946 0999' }]);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal((await stored(user.id)).mobilePhone, '+442079460999', 'the PATCH answered 200 and the number stayed the old one');
  });

  test('an e-mail of type "other": Replace emails[type eq "other"].value answered 200 and the new address is kept', async () => {
    const user = await scimUser({ emails: [{ type: 'other', value: 'c-old@corp.example' }] });
    assert.equal((await stored(user.id)).email, 'c-old@corp.example');
    const answer = await patchOf(`/Users/${user.id}`, [{ op: 'Replace', path: 'emails[type eq "other"].value', value: 'c-new@corp.example' }]);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal((await stored(user.id)).email, 'c-new@corp.example', 'the PATCH answered 200 and the address stayed the old one');
  });

  test('an Add of emails (no filter) with a new primary address over an existing one: the new primary is kept', async () => {
    const user = await scimUser({ emails: [{ type: 'work', value: 'c-first@corp.example', primary: true }] });
    const answer = await patchOf(`/Users/${user.id}`, [
      { op: 'Add', path: 'emails', value: [{ type: 'work', value: 'c-second@corp.example', primary: 'True' }] },
    ]);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal((await stored(user.id)).email, 'c-second@corp.example', 'the PATCH answered 200 and the address stayed the old one');
  });

  test('a Replace of name.givenName and name.familyName (a mapping without name.formatted): the real name follows', async () => {
    const user = await scimUser({ name: { givenName: 'Ada', familyName: 'Lovelace' } });
    assert.equal((await stored(user.id)).realName, 'Ada Lovelace');
    const answer = await patchOf(`/Users/${user.id}`, [
      { op: 'Replace', path: 'name.givenName', value: 'Augusta' },
      { op: 'Replace', path: 'name.familyName', value: 'King' },
    ]);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal((await stored(user.id)).realName, 'Augusta King', 'the PATCH answered 200 and the name stayed the old one');
  });

  test('two PATCHes of one person at once (active off, a new e-mail): each answered 200 is kept', async () => {
    for (let round = 0; round < 3; round++) {
      const user = await scimUser({ emails: [{ type: 'work', value: `c-race-${serial}@corp.example`, primary: true }] });
      const address = `c-raced-${serial}@corp.example`;
      const [disabled, moved] = await Promise.all([
        patchOf(`/Users/${user.id}`, [{ op: 'Replace', path: 'active', value: 'False' }]),
        patchOf(`/Users/${user.id}`, [{ op: 'Replace', path: 'emails[type eq "work"].value', value: address }]),
      ]);
      const row = await stored(user.id);
      if (disabled.status === 200) assert.equal(row.availabilityStatus, Status.Disabled, `round ${round}: the disable answered 200 and was lost`);
      if (moved.status === 200) assert.equal(row.email, address, `round ${round}: the e-mail answered 200 and was lost`);
      for (const answer of [disabled, moved]) assert.ok([200, 409, 412].includes(answer.status), `${answer.status} ${JSON.stringify(answer.body)}`);
    }
  });
});

describe('the audit trail of what the protocols change', () => {
  async function recordsSince(from: number) {
    return server.app.ctx.db
      .selectFrom('auditLog')
      .select(['action', 'actorId', 'targetId', 'detail', 'success'])
      .where('id', '>', from)
      .orderBy('id')
      .execute();
  }

  test('a refresh token replayed (a stolen copy): the whole grant ends, and that security change is recorded naming the person and the app', async () => {
    const victim = await person();
    const tokens = await wiki.signIn(victim.browser, 'openid offline_access', { prompt: 'consent' });
    const rotated = await wiki.refresh(tokens.refresh_token!);
    assert.ok('access_token' in rotated);
    const from = await lastAuditId(server);
    assert.deepEqual(await wiki.refresh(tokens.refresh_token!), { error: 'invalid_grant' });
    assert.deepEqual(await wiki.refresh((rotated as { refresh_token: string }).refresh_token), { error: 'invalid_grant' }, 'the grant did not end');
    const records = (await recordsSince(from)).filter((row) => row.targetId === wiki.appId || row.detail.includes(wiki.appId));
    assert.ok(
      records.some((row) => row.detail.includes(victim.user.id) || row.actorId === victim.user.id),
      `no record of the grant ended by a replayed refresh token: ${JSON.stringify(await recordsSince(from))}`,
    );
  });

  test("an app revoking a person's grant at the revocation endpoint: recorded, naming the person and the app", async () => {
    const victim = await person();
    const tokens = await wiki.signIn(victim.browser, 'openid offline_access', { prompt: 'consent' });
    const from = await lastAuditId(server);
    const response = await oauth.revocationRequest(wiki.as, wiki.client, oauth.ClientSecretBasic(wiki.secret!), tokens.refresh_token!, {
      [oauth.allowInsecureRequests]: true,
    });
    await oauth.processRevocationResponse(response);
    assert.deepEqual(await wiki.refresh(tokens.refresh_token!), { error: 'invalid_grant' });
    const records = await recordsSince(from);
    assert.ok(
      records.some(
        (row) => (row.targetId === wiki.appId || row.detail.includes(wiki.appId)) && (row.actorId === victim.user.id || row.detail.includes(victim.user.id)),
      ),
      `no record of the ended grant: ${JSON.stringify(records)}`,
    );
  });

  test('holds: a SCIM PATCH of an e-mail: one user.update record naming the field, the SCIM create record carries no password', async () => {
    const from = await lastAuditId(server);
    const user = await scimUser({ password: 'Plain-Text-Secret-9' });
    const address = `c-audited-${serial}@corp.example`;
    assert.equal((await patchOf(`/Users/${user.id}`, [{ op: 'replace', path: 'emails[type eq "work"].value', value: address }])).status, 200);
    const records = await recordsSince(from);
    assert.ok(!JSON.stringify(records).includes('Plain-Text-Secret-9'), 'the password reached the audit log');
    const updates = records.filter((row) => row.action === 'user.update' && row.targetId === user.id);
    assert.equal(updates.length, 1, JSON.stringify(records));
    assert.ok(updates[0]!.detail.includes('email'), updates[0]!.detail);
  });
});

describe('SCIM lookups as Entra ID and Okta send them', () => {
  test('userName eq / externalId eq / displayName eq with a value holding quotes and a backslash (JSON-escaped, as RFC 7644 §3.4.2.2 says) find exactly the one match', async () => {
    const externalId = `ext "quoted" \\ back-${++serial}`;
    const user = await scimUser({ externalId });
    const find = async (path: string, filter: string) =>
      scim<{ totalResults: number; Resources?: { id: string }[] }>('GET', `${path}?filter=${encodeURIComponent(filter)}`);
    const quoted = (text: string) => JSON.stringify(text);
    for (const filter of [`userName eq ${quoted(user.userName.toUpperCase())}`, `externalId eq ${quoted(externalId)}`]) {
      const answer = await find('/Users', filter);
      assert.equal(answer.status, 200, `${filter}: ${JSON.stringify(answer.body)}`);
      assert.deepEqual(
        answer.body.Resources?.map((row) => row.id),
        [user.id],
        filter,
      );
    }
    const displayName = `C Group "Quoted" ${String.fromCharCode(65 + (serial % 26))}`;
    const group = await scim<{ id: string }>('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName });
    if (group.status === 201) {
      const answer = await find('/Groups', `displayName eq ${quoted(displayName)}`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(
        answer.body.Resources?.map((row) => row.id),
        [group.body.id],
      );
    } else assert.ok(group.status >= 400 && group.status < 500, JSON.stringify(group.body));
  });
});
