// Outsider round 5: hostile tests against the newest surface (SCIM, webhooks, CSV import/export,
// recovery codes, the administrators' strong-factor policy). Each test asserts the secure
// behaviour and fails on the code it was written against; races run on PostgreSQL too
// (IAM_TEST_DB=postgres).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DummyDriver, Kysely, sql, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import { filterCondition } from '../../server/scim/filter';
import { startServer, transform, type Client, type TestServer } from './harness';
import { assertScimError, PATCH_SCHEMA, provisionedTenant, USER_SCHEMA } from './scim-support';
import { registeredProvider, setLogin, withAuthenticator, withAuthenticatorOfPasswordless } from './sign-in-support';

const PASSWORD = 'Round5pass1';

let server: TestServer;
let admin: Client;

before(async () => {
  // The test identity provider listens on loopback, which the outbound guard refuses unless listed.
  server = await startServer({ outboundAllow: ['127.0.0.1'] });
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

let people = 0;
async function person(fields: Record<string, unknown> = {}): Promise<{ id: string; username: string }> {
  people += 1;
  const username = `r5-person-${people}`;
  const created = await admin.post<{ id: string }>('/api/user', { username, realName: `R5_${people}`, password: transform(PASSWORD), ...fields });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return { id: created.body.data.id, username };
}

/** The latest code sent in a message to `userId` (written after the answer: waited for). */
async function latestCode(userId: string): Promise<string> {
  for (let tries = 0; tries < 50; tries += 1) {
    const message = await server.app.ctx.db
      .selectFrom('messages')
      .select(['content'])
      .where('recipientId', '=', userId)
      .orderBy('createdAt', 'desc')
      .executeTakeFirst();
    if (message) return /(\d{6})/.exec(message.content)![1]!;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no code was sent');
}

test("signing in with a phone code does not skip the authenticator app of a person who turned it on, nor the administrators' strong-factor policy", async () => {
  const phone = '13900000051';
  const tenantAdmin = await person({ mobilePhone: phone, isAdmin: true });
  const browser = server.client();
  assert.equal((await browser.login(tenantAdmin.username, PASSWORD)).body.data?.loginSuccess, true);
  await withAuthenticator(server, browser, PASSWORD);
  await setLogin(admin, { loginMethod: 'PHONE_CAPTCHA', adminStrongFactor: true });
  try {
    assert.equal((await server.client().post('/api/authc/login/code', { phone })).status, 200);
    const code = await latestCode(tenantAdmin.id);
    const attacker = server.client();
    const answer = await attacker.post<{ loginSuccess: boolean; nextStep?: string }>('/api/authc/login', { username: phone, code });
    assert.notEqual(
      answer.body.data?.loginSuccess,
      true,
      `an administrator with an authenticator app signed in with an SMS code alone: ${JSON.stringify(answer.body)}`,
    );
  } finally {
    await setLogin(admin, { loginMethod: 'USERNAME_PASSWORD', adminStrongFactor: false });
  }
});

test('a third-party sign-in of a linked person with an authenticator app still asks for its code', async () => {
  const subject = { sub: 'r5-corp-carol', preferred_username: 'r5carol', name: 'Carol', email: 'r5carol@corp.example' };
  const { idp, viaProvider } = await registeredProvider(server, admin, 'r5corp', subject);
  try {
    const first = await viaProvider<{ loginSuccess: boolean }>({ username: 'r5carol', realName: 'Carol', email: subject.email });
    assert.equal(first.answer.body.data?.loginSuccess, true, JSON.stringify(first.answer.body));
    // Carol turns her authenticator app on (setting one up takes a password: an administrator
    // gives her one first); a later sign-in through the provider must still ask for it.
    await withAuthenticatorOfPasswordless(server, admin, 'r5carol', PASSWORD);
    const later = await viaProvider<{ loginSuccess: boolean }>({});
    assert.notEqual(later.answer.body.data?.loginSuccess, true, `signed in without the authenticator app: ${JSON.stringify(later.answer.body)}`);
  } finally {
    await idp.stop();
  }
});

test("one person's sign-in does not clear the failure count of another person's identifier (a username equal to someone's phone number)", async () => {
  const victimPhone = '13900000061';
  await person({ mobilePhone: victimPhone });
  // Anyone who picks their own username (a first-time third-party sign-in, a SCIM client, an
  // administrator) may take the digits of someone's phone number.
  const attackerPhone = '13900000062';
  const attackerCreated = await admin.post('/api/user', {
    username: victimPhone,
    realName: 'R5_Mallory',
    mobilePhone: attackerPhone,
    password: transform(PASSWORD),
  });
  assert.equal(attackerCreated.status, 200, JSON.stringify(attackerCreated.body));
  await setLogin(admin, { loginMethod: 'PHONE_PASSWORD', maxFailures: 3, captchaAfterFailures: 0, captchaEnabled: false });
  try {
    const statuses: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      for (let guess = 0; guess < 2; guess += 1) statuses.push((await server.client().login(victimPhone, `Wrong${round}${guess}x1`)).status);
      // The attacker's own sign-in clears the keys of the attacker's account, its username among them.
      assert.equal((await server.client().login(attackerPhone, PASSWORD)).body.data?.loginSuccess, true);
    }
    const right = await server.client().login(victimPhone, PASSWORD);
    assert.notEqual(
      right.body.data?.loginSuccess,
      true,
      `6 wrong passwords for ${victimPhone} past maxFailures 3 (answers ${statuses.join(',')}), and the right one still signs in: the lockout was reset by another person's sign-in`,
    );
  } finally {
    await setLogin(admin, { loginMethod: 'USERNAME_PASSWORD', maxFailures: 5, captchaAfterFailures: 3 });
    await server.app.ctx.db.deleteFrom('loginThrottle').execute();
  }
});

test('a short SCIM filter whose parentheses would multiply out is answered without stalling the server', async () => {
  const { scim } = await provisionedTenant(server, admin, 'R5FilterCo');
  // 460 characters, well under the filter's length limit; 16 AND-ed pairs expand to 65 536 alternatives.
  const filter = Array.from({ length: 16 }, () => '(id eq "a" or id eq "b")').join(' and ');
  const answer = await scim('GET', `/Users?filter=${encodeURIComponent(filter)}`);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  // Read as a tree (server/scim/filter.ts), nothing is multiplied out: the SQL holds the 32
  // comparisons once each (counted, not timed: the machine's load would decide a timing).
  const compiled = new Kysely<Record<string, never>>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  })
    .selectNoFrom(sql<number>`1`.as('one'))
    .where(filterCondition(filter, { id: { kind: 'text', column: 'users.id', caseExact: true } }))
    .compile();
  assert.equal(compiled.parameters.length, 32, compiled.sql.slice(0, 200));
});

test('a SCIM attribute list with an empty name (attributes=userName, or a trailing comma) is a SCIM 400, not a 500', async () => {
  const { scim } = await provisionedTenant(server, admin, 'R5AttrCo');
  const created = await scim<{ id: string }>('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'r5attr1', name: { formatted: 'Attr_One' } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  for (const path of ['/Users?attributes=userName,', '/Users?excludedAttributes=,userName', `/Users/${created.body.id}?attributes=userName,,name`]) {
    const answer = await scim('GET', path);
    assert.ok(answer.status < 500, `${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
});

test('a SCIM PATCH answered with an error changes nothing (no deactivation behind a 400)', async () => {
  const { scim } = await provisionedTenant(server, admin, 'R5PatchCo');
  const created = await scim<{ id: string }>('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'r5patch1', name: { formatted: 'Patch_One' } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const answer = await scim('PATCH', `/Users/${created.body.id}`, {
    schemas: [PATCH_SCHEMA],
    Operations: [{ op: 'replace', value: { active: false, externalId: 'x'.repeat(300) } }],
  });
  assertScimError(answer, 400);
  const after = await scim<{ active: boolean }>('GET', `/Users/${created.body.id}`);
  assert.equal(
    after.body.active,
    true,
    'the PATCH was refused with 400, yet the person was deactivated (the client believes nothing changed and will not retry the rest)',
  );
});

test('a SCIM create answered with an error creates nobody (a retry is not refused as a duplicate)', async () => {
  const { scim } = await provisionedTenant(server, admin, 'R5CreateCo');
  const refused = await scim('POST', '/Users', {
    schemas: [USER_SCHEMA],
    userName: 'r5create1',
    name: { formatted: 'Create_One' },
    externalId: 'x'.repeat(300),
  });
  assertScimError(refused, 400);
  const retry = await scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'r5create1', name: { formatted: 'Create_One' }, externalId: 'ext-1' });
  assert.equal(retry.status, 201, `the refused create left the person behind: ${JSON.stringify(retry.body)}`);
});
