// One person, one username whatever its letter case (server/auth/usernames.ts): every way of making a
// person (console/API, SCIM, CSV import, first sign-in through a provider) refuses a name another
// account has in another case; sign-in by any case finds the one person and counts one lockout; the
// SCIM filter `userName eq` finds exactly one. Migration 0032_username_case on a database that
// already holds case twins keeps them working (each by its exact spelling), names them at start, and
// lets the database itself refuse any new spelling.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import { buildApp } from '../../server/app';
import { hashPassword } from '../../server/auth/kdf';
import { isUniqueViolation } from '../../server/db/errors';
import { ADMIN, Client, createTestDatabase, startServer, transform, type TestServer } from './harness';
import { signInAtProvider, startIdentityProvider, type IdentityProvider } from './identity-provider';
import { provisionedTenant, USER_SCHEMA } from './scim-support';
import { until } from './receivers';

const PASSWORD = 'Case1234x';
let server: TestServer;
let admin: Client;
let idp: IdentityProvider;
let personId: string;

before(async () => {
  // The test identity provider listens on loopback, which the outbound guard refuses unless listed.
  server = await startServer({ outboundAllow: ['127.0.0.1'] });
  admin = await server.admin();
  const created = await admin.post<{ id: string }>('/api/user', { username: 'Case_Person', realName: 'Case_Person', password: transform(PASSWORD) });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  personId = created.body.data.id;
  idp = await startIdentityProvider(`${server.base}/api/interaction/idp/corp/authorize/callback`, {
    sub: 'corp-case',
    preferred_username: 'CASE_PERSON',
    name: 'Case',
    email: 'case@corp.example',
  });
  const provider = await admin.post('/api/idps', {
    code: 'corp',
    name: 'Corp SSO',
    type: 'OIDC',
    config: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret },
  });
  assert.equal(provider.status, 200, JSON.stringify(provider.body));
});
after(async () => {
  await idp.stop();
  await server.stop();
});

const refusedAsTaken = (answer: { status: number; body: unknown }, what: string) => {
  assert.equal(answer.status, 400, `${what}: ${JSON.stringify(answer.body)}`);
  assert.deepEqual((answer.body as { data?: { fields?: unknown } }).data?.fields, [{ field: 'username', rule: 'rule.usernameTaken' }], what);
};

describe('one username whatever its letter case', () => {
  test('the console and API, SCIM and a first sign-in through a provider refuse a name another account has in another case', async () => {
    for (const username of ['case_person', 'CASE_PERSON', 'case_PERSON']) {
      refusedAsTaken(await admin.post('/api/user', { username, realName: 'Twin_Try', password: transform(PASSWORD) }), `API ${username}`);
    }
    const { scim } = await provisionedTenant(server, admin, 'Case_Tenant');
    const viaScim = await scim<{ scimType: string }>('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'CASE_person', name: { formatted: 'Twin_Try' } });
    assert.equal(viaScim.status, 409, JSON.stringify(viaScim.body));
    assert.equal(viaScim.body.scimType, 'uniqueness');
    // The platform's own `admin` cannot get an `Admin` beside it either.
    assert.equal((await scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'Admin', name: { formatted: 'Fake_Admin' } })).status, 409);

    const browser = server.client();
    const landed = await signInAtProvider(browser, 'corp');
    const ticket = landed.searchParams.get('access_ticket')!;
    const complement = await browser.post(`/api/interaction/idp/corp/authorize/after/user/complement?access_ticket=${ticket}`, {
      username: 'CASE_PERSON',
      realName: 'Case',
      email: 'case@corp.example',
    });
    refusedAsTaken(complement, 'provider sign-up');
    const users = await admin.get<{ list: { id: string }[] }>('/api/user?searchProp=username&searchValue=case_person');
    assert.deepEqual(
      users.body.data.list.map((user) => user.id),
      [personId],
      'still one person of that name',
    );
  });

  test('the CSV import updates the person of that name in any case instead of making a second one', async () => {
    const form = new FormData();
    form.append(
      'file',
      new Blob(['username,realName\nCASE_PERSON,Case_Renamed\nnew_csv_one,New_One\nNEW_CSV_ONE,New_Again\n'], { type: 'text/csv' }),
      'users.csv',
    );
    const started = await admin.request<{ id: string }>('POST', '/api/user/import?mode=apply', form);
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const job = await until(
      async () => {
        const answer = await admin.get<{
          status: string;
          created: number;
          updated: number;
          failed: number;
          problems: { row: number; field: string; rule: string }[];
        }>(`/api/user/import/${started.body.data.id}`);
        return answer.body.data.status === 'running' ? undefined : answer.body.data;
      },
      'the import',
      30_000,
    );
    assert.deepEqual([job.created, job.updated, job.failed], [1, 1, 1], JSON.stringify(job));
    assert.deepEqual([job.problems[0]?.field, job.problems[0]?.rule], ['username', 'rule.duplicate'], 'the same name twice in one file, in another case');
    const person = (await admin.get<{ username: string; realName: string }>(`/api/user/${personId}`)).body.data;
    assert.deepEqual([person.username, person.realName], ['Case_Person', 'Case_Renamed'], 'the username keeps its spelling');
  });

  test('sign-in by any case finds the one person; failures under every spelling count against one lockout', async () => {
    for (const username of ['case_person', 'CASE_PERSON', 'Case_Person']) {
      const client = server.client();
      assert.equal((await client.login(username, PASSWORD)).body.data?.loginSuccess, true, username);
      assert.equal((await client.get<{ user: { id: string } }>('/api/cas/session')).body.data.user.id, personId);
    }
    const { scim } = await provisionedTenant(server, admin, 'Case_Lookup');
    const found = await scim<{ totalResults: number }>('GET', `/Users?filter=${encodeURIComponent('userName eq "locked_case"')}`);
    assert.equal(found.body.totalResults, 0);
    const created = await scim<{ id: string }>('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'Locked_Case', name: { formatted: 'Locked_Case' } });
    assert.equal(created.status, 201);
    const byFilter = await scim<{ totalResults: number }>('GET', `/Users?filter=${encodeURIComponent('userName eq "LOCKED_CASE"')}`);
    assert.equal(byFilter.body.totalResults, 1, 'userName eq finds exactly one');
    await admin.post(`/api/user/${created.body.id}/password`, {
      id: created.body.id,
      password: transform(PASSWORD),
      opUserPassword: transform(ADMIN.password),
    });
    // The policy locks after 5 failures: 5 wrong passwords under 5 spellings.
    for (const username of ['locked_case', 'LOCKED_CASE', 'Locked_case', 'lOCKED_CASE', 'locked_CASE']) await server.client().login(username, 'Wrong1234x');
    const right = await server.client().login('Locked_Case', PASSWORD);
    assert.notEqual(right.body.data?.loginSuccess, true, `the right password after 5 failures under other spellings: ${JSON.stringify(right.body)}`);
  });
});

test('migration 0032 on a database with case twins: kept, named at start, each signs in by its spelling; no new spelling', async () => {
  const database = await createTestDatabase();
  const options = { ...database.options, adminUsername: ADMIN.username, adminPassword: ADMIN.password };
  try {
    // A database as it was before 0032, holding twins: built, 0032 undone, twins written.
    const first = await buildApp(options);
    const db = first.ctx.db;
    await sql`drop index users_username_folded`.execute(db);
    await sql`delete from kysely_migration where name = '0032_username_case'`.execute(db);
    const hash = await hashPassword(transform(PASSWORD));
    const person = (id: string, username: string, createdAt: number) => ({
      id,
      username,
      realName: 'Twin',
      email: null,
      mobilePhone: null,
      description: null,
      availabilityStatus: 1,
      avatar: null,
      extraProp: '{}',
      userType: 1,
      tenantId: null,
      isAdmin: 0,
      isMaster: 0,
      passwordHash: hash,
      passwordChangedAt: createdAt,
      version: 1,
      createdAt,
      updatedAt: createdAt,
    });
    await db
      .insertInto('users')
      .values([person('twin-old', 'entra_x', 1000), person('twin-new', 'ENTRA_X', 2000), person('admin-twin', 'Admin', Date.now() + 1000)])
      .execute();
    await first.close();

    const lines: string[] = [];
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n')));
    const again = await buildApp({ ...options, logger: true, logStream: stream });
    try {
      await again.listen({ port: 0, host: '127.0.0.1' });
      const address = again.server.address();
      const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const warning = lines.find((line) => line.includes('differ only in letter case'));
      assert.ok(warning?.includes('entra_x / ENTRA_X') && warning.includes('admin / Admin'), `the start names the twins: ${warning ?? lines.join('\n')}`);
      const idOf = async (username: string) => {
        const client = new Client(base, base);
        const answer = await client.login(username, username.toLowerCase() === 'admin' ? ADMIN.password : PASSWORD);
        return answer.body.data?.loginSuccess ? (await client.get<{ user: { id: string } }>('/api/cas/session')).body.data.user.id : undefined;
      };
      assert.equal(await idOf('entra_x'), 'twin-old');
      assert.equal(await idOf('ENTRA_X'), 'twin-new');
      assert.equal(await idOf('Entra_X'), undefined, 'a third spelling is ambiguous between twins: nobody');
      assert.ok(await idOf('admin'), 'the platform administrator still signs in');
      const insert = again.ctx.db.insertInto('users').values(person('late', 'Entra_x', 3000));
      await assert.rejects(insert.execute(), (error: unknown) => isUniqueViolation(error), 'the database refuses a new spelling');
      await assert.rejects(
        again.ctx.db
          .insertInto('users')
          .values(person('late2', 'fresh_name', 3000))
          .execute()
          .then(() =>
            again.ctx.db
              .insertInto('users')
              .values(person('late3', 'FRESH_NAME', 3001))
              .execute(),
          ),
        (error: unknown) => isUniqueViolation(error),
      );
    } finally {
      await again.close();
    }
  } finally {
    await database.drop();
  }
});
