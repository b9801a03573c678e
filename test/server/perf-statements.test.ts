// Statements per request, counted where they reach the database driver (better-sqlite3's
// statements, pg's client queries): a signed-in GET /cas/session is ONE statement (session, user,
// tenant path and administered apps together), plus the idle-timestamp write at most once a minute;
// an anonymous request that needs no database (GET /cas/login from a browser) runs none.
// The actor that one statement yields is checked too: permissions, tenant scope and owned apps.
// The user search's statements and their query plans over 20 000 users, on both engines: the count
// reads the search index's range only; a page of a broad search walks the order's index (SQLite is
// told to, PostgreSQL's planner finds it), a narrow one reads the search index.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { CompiledQuery } from 'kysely';
import { startServer, transform, type Client, type TestServer } from './harness';
import type { SessionAnswer } from '../../src/core/types';
import { Permission } from '../../src/core/permission-codes';
import { RelyingParty } from './oidc-rp';
import { runStatements } from './driver-statements';

let server: TestServer;
let admin: Client;

async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  return (await runStatements(work)).map((statement) => statement.text);
}

/**
 * The equalities of `text`'s conditions whose bound value is a bare parameter (`x = ?`, `x in (?)`):
 * SQLite 3.54 re-prepares a joined statement with one on every run (server/db/literal-limits.ts).
 * An UPDATE's assignments (`set x = ?`) are no condition.
 */
function bareEqualities(text: string): string[] {
  const conditions = text.replace(/^update .*? set .*? where /, 'where ');
  return conditions.match(/(?:=|\bis) \?|\bin \(\?\)/g) ?? [];
}

async function sessionOf(client: Client) {
  const answer = await client.get<SessionAnswer>('/api/cas/session');
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data;
}

before(async () => {
  server = await startServer();
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

test('a session check is one statement; the idle timestamp adds one write at most once a minute', async () => {
  const checks = await runStatements(() => sessionOf(admin));
  assert.equal(checks.length, 1, checks.map((statement) => statement.text).join('\n'));
  assert.match(checks[0]!.text, /from "sessions" inner join "users"/);
  // On PostgreSQL a named prepared statement: parsed and planned once per connection.
  assert.equal(checks[0]!.prepared, server.app.ctx.engine === 'postgres');
  if (server.app.ctx.engine === 'sqlite') {
    // SQLite runs on the event loop: its commits must not wait for an fsync (WAL, synchronous NORMAL = 1).
    const { rows } = await server.app.ctx.db.executeQuery(CompiledQuery.raw('pragma synchronous'));
    assert.deepEqual(rows, [{ synchronous: 1 }]);
    // Compiled once and kept compiled: its secret digest is bound as `+?`, not `?`.
    assert.deepEqual(bareEqualities(checks[0]!.text), [], checks[0]!.text);
  }

  const tenSeconds = await statementsOf(async () => {
    for (let index = 0; index < 10; index += 1) await sessionOf(admin);
  });
  // Only the statements on sessions count: a background worker (outbox, sweeper) may run a
  // statement of its own meanwhile on a slow machine.
  const checkStatements = tenSeconds.filter((text) => /"sessions"/.test(text));
  assert.equal(checkStatements.length, 10, `ten checks, ten statements, no write:\n${tenSeconds.join('\n')}`);
  assert.ok(
    checkStatements.every((text) => /^select/.test(text)),
    checkStatements.join('\n'),
  );

  server.clock.advance(61_000);
  const later = await statementsOf(() => sessionOf(admin));
  const sessionStatements = later.filter((text) => /"sessions"/.test(text));
  assert.equal(sessionStatements.length, 2, later.join('\n'));
  assert.match(sessionStatements[1]!, /^update "sessions" set "last_seen_at"/);
});

test("a request that needs no database runs no statement: an anonymous GET /api/cas/login, with or without a browser's headers", async () => {
  const browserHeaders = { accept: 'application/json', 'accept-language': 'zh-CN', 'sec-fetch-mode': 'cors', 'user-agent': 'Bench/1', referer: server.base };
  for (const headers of [{}, browserHeaders]) {
    const run = await runStatements(async () => {
      const answer = await fetch(`${server.base}/api/cas/login?redirect=%2Fusers`, { headers });
      assert.equal(answer.status, 200);
      assert.equal(((await answer.json()) as { data: { loginSuccess: boolean } }).data.loginSuccess, false);
    });
    assert.deepEqual(
      run.map((statement) => statement.text),
      [],
      JSON.stringify(headers),
    );
  }
  // A header that may be the token header (any name the setting could give) is looked up under the
  // setting in force: the settings version query runs then, as it must.
  const withToken = await statementsOf(async () => {
    const answer = await fetch(`${server.base}/api/cas/login`, { headers: { token: 'not-a-session' } });
    assert.equal(answer.status, 200);
  });
  assert.ok(
    withToken.some((text) => /from "settings"/.test(text)),
    withToken.join('\n'),
  );
});

test('the session statement, read at once on SQLite while the connection is free, waits for a change in progress: it never sees what the change wrote and then rolled back', async () => {
  const { ctx } = server.app;
  const secret = admin.cookies.get('iam_session')!;
  const { id } = (await sessionOf(admin)).user;
  let wrote!: () => void;
  const written = new Promise<void>((resolve) => (wrote = resolve));
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const change = ctx.audit
    .change(async () => {
      await ctx.db.updateTable('users').set({ availabilityStatus: 0 }).where('id', '=', id).execute();
      wrote();
      await held;
      throw new Error('rolled back');
    })
    .catch((error: Error) => error.message);
  await written;
  // Asked while the change holds the connection with the person disabled, answered once it rolled back.
  const during = ctx.sessions.resolve(secret, 'cookie');
  release();
  assert.equal(await change, 'rolled back');
  assert.equal((await during)?.user.id, id, 'the session stands: its person was never disabled');
  assert.equal((await admin.get('/api/cas/session')).status, 200);
});

test('the one statement yields the whole actor: tenant administrator of a subtree, administrator of two apps', async () => {
  const tree = await admin.get<{ id: string; parentId: string | null }[]>('/api/tenants/tree');
  const rootId = tree.body.data.find((row) => row.parentId === null)!.id;
  const tenant = await admin.post<{ id: string }>('/api/tenants', { parentId: rootId, name: 'Statements_T', type: 'company' });
  assert.equal(tenant.status, 200, JSON.stringify(tenant.body));
  const created = await admin.post<{ id: string }>('/api/user', {
    username: 'stmt-ta',
    realName: 'Statement_Admin',
    password: transform('Secret123'),
    tenantId: tenant.body.data.id,
    isAdmin: true,
    extraProp: { intProperty1: 1 },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  for (const name of ['Stmt_Zeta', 'Stmt_Alpha']) {
    const app = await admin.post<{ id: string }>('/api/apps', { name });
    assert.equal(app.status, 200, JSON.stringify(app.body));
    const admins = await admin.put(`/api/apps/${app.body.data.id}/admins`, { userIds: [created.body.data.id] });
    assert.equal(admins.status, 200, JSON.stringify(admins.body));
  }
  const tenantAdmin = server.client();
  assert.equal((await tenantAdmin.login('stmt-ta', 'Secret123')).body.data.loginSuccess, true);
  let session: SessionAnswer | undefined;
  const checks = await statementsOf(async () => {
    session = await sessionOf(tenantAdmin);
  });
  assert.equal(checks.length, 1, checks.join('\n'));
  assert.deepEqual(
    session!.user.ownedApps.map((app) => app.name),
    ['Stmt_Alpha', 'Stmt_Zeta'],
    'by name',
  );
  assert.deepEqual(session!.administeredApps, session!.user.ownedApps);
  assert.deepEqual(session!.user.permissions, [Permission.SelfService, Permission.Apps, Permission.Users, Permission.Operations]);
  assert.equal(session!.user.tenantId, tenant.body.data.id);

  // Tenant scope comes from the same statement: the user list holds the tenant's users only.
  const list = await tenantAdmin.get<{ list: { username: string }[] }>('/api/user?size=50');
  assert.equal(list.status, 200, JSON.stringify(list.body));
  assert.deepEqual(
    list.body.data.list.map((user) => user.username),
    ['stmt-ta'],
  );
});

/** What each statement of the provider's storage is, by its text. */
function ssoStatement(text: string): string {
  if (/from "apps" inner join "oidc_clients" .* left join \(select .* from "oidc_payloads" as "t" left join "oidc_payloads" as "g"/.test(text))
    return 'client with token';
  if (/from "apps" inner join "oidc_clients"/.test(text)) return 'client';
  if (/from "oidc_payloads" as "t" left join "oidc_payloads" as "g"/.test(text)) return 'token with grant and session';
  if (/^select .* from "oidc_payloads" where "model" = \S+ and "id" = /.test(text)) return 'token alone';
  if (/^select .* from "users" where "id" = /.test(text)) return 'person';
  if (/^update "oidc_payloads" set "consumed_at"/.test(text)) return 'consume';
  if (/^insert into "oidc_payloads"/.test(text)) return 'write';
  return text;
}

test('single sign-on: an introspection is 2 statements (the grant, session and person come with the token), a refresh 3 (the client read with the token, then its consume and its two new tokens in one write, in one transaction); prepared on PostgreSQL; the uid index holds no token', async () => {
  const app = await RelyingParty.register(server, admin, 'Stmt_Sso');
  const bound = await app.signIn(admin);
  const offline = await app.signIn(admin, 'openid offline_access', { prompt: 'consent' });
  const postgres = server.app.ctx.engine === 'postgres';

  const introspection = await runStatements(async () => assert.equal((await app.introspect(bound.access_token, 'access_token')).active, true));
  // The client and the access token (its grant, provider session and person's state in the same
  // statement); the machine-token lookup the provider asks for too is not read once the access
  // token is found.
  assert.deepEqual(introspection.map((statement) => ssoStatement(statement.text)).sort(), ['client', 'token with grant and session']);
  assert.ok(
    introspection.every((statement) => statement.prepared === postgres),
    'prepared on PostgreSQL',
  );

  let rotated: Awaited<ReturnType<typeof app.refresh>> | undefined;
  const refresh = await runStatements(async () => {
    rotated = await app.refresh(offline.refresh_token!);
  });
  assert.ok(rotated && 'refresh_token' in rotated && rotated.refresh_token !== offline.refresh_token, JSON.stringify(rotated));
  // The server's own refresh grant (server/oidc/refresh-grant.ts): the client with the token, its
  // grant, session and person; then the consume and the write in one transaction (one commit, and
  // the new tokens stored only by the request that consumed the old one).
  assert.deepEqual(
    refresh.map((statement) => ssoStatement(statement.text)),
    ['client with token', 'begin', 'consume', 'write', 'commit'],
  );
  // The new refresh token and the access token, written together after the consume.
  const write = refresh.find((statement) => ssoStatement(statement.text) === 'write')!;
  assert.equal(write.text.match(/\), \(/g)?.length, 1, `two rows in one write: ${write.text}`);
  assert.ok(
    refresh.every((statement) => ['begin', 'commit'].includes(ssoStatement(statement.text)) || statement.prepared === postgres),
    "prepared on PostgreSQL (all but the transaction's begin and commit)",
  );
  // SQLite re-prepares a statement whose LIMIT is bound, or (3.54, Node.js 22 and later) a joined
  // one with an equality on a bare parameter, on every run (server/db/literal-limits.ts).
  if (!postgres)
    assert.deepEqual(
      [...introspection, ...refresh].map((statement) => statement.text).filter((text) => /limit \?/i.test(text) || bareEqualities(text).length),
      [],
    );

  // The uid index holds only the rows that have a uid (sessions, interactions): a token's write
  // adds no entry to it, and the session joined to a token is still found through it.
  const { db } = server.app.ctx;
  const definition = postgres
    ? await db.executeQuery<{ sql: string }>(CompiledQuery.raw("select indexdef as sql from pg_indexes where indexname = 'oidc_payloads_uid'"))
    : await db.executeQuery<{ sql: string }>(CompiledQuery.raw("select sql from sqlite_master where name = 'oidc_payloads_uid'"));
  assert.match(definition.rows[0]?.sql ?? '', /where \(?"?uid"? is not null\)?$/i);
  // SQLite's plans do not depend on the table's size (PostgreSQL's would: a table of a few rows is read whole).
  if (!postgres) {
    for (const kind of ['token with grant and session', 'client with token']) {
      const joined = [...introspection, ...refresh].find((statement) => ssoStatement(statement.text) === kind)!;
      assert.match(await planOf(joined), /SEARCH s USING INDEX oidc_payloads_uid \(uid=\?\)/, kind);
    }
    const byUid = { text: 'select "payload" from "oidc_payloads" where "model" = ? and "uid" = ? limit 1', parameters: ['Session', 'x'] };
    assert.match(await planOf(byUid), /USING INDEX oidc_payloads_uid \(uid=\?\)/);
  }
});

test('SQLite: a whole-number LIMIT is written into the statement, anything else stays bound (PostgreSQL binds every limit)', () => {
  const { db, engine } = server.app.ctx;
  const whole = db.selectFrom('users').select('id').limit(3).offset(20).compile();
  const fraction = db.selectFrom('users').select('id').limit(2.5).compile();
  if (engine === 'postgres') {
    assert.match(whole.sql, /limit \$1 offset \$2$/);
    assert.deepEqual(whole.parameters, [3, 20]);
  } else {
    assert.match(whole.sql, /limit 3 offset \?$/);
    assert.deepEqual(whole.parameters, [20]);
    assert.match(fraction.sql, /limit \?$/);
  }
  assert.deepEqual(fraction.parameters, [2.5]);
});

test('SQLite: an equality with a bound value is written `+?` (never re-prepared on a run), other comparisons and assignments keep `?`', () => {
  const { db, engine } = server.app.ctx;
  const select = db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.userId')
    .select('users.id')
    .where('sessions.secretHash', '=', 'digest')
    .where('users.id', 'in', ['one'])
    .where('users.tenantId', 'in', ['a', 'b'])
    .where('users.username', 'like', 'ad%')
    .where('users.createdAt', '>', 5)
    .where('users.email', 'is', null)
    .compile();
  const update = db.updateTable('sessions').set({ lastSeenAt: 7 }).where('id', '=', 'x').compile();
  if (engine === 'postgres') {
    assert.match(select.sql, /"secret_hash" = \$1 and "users"\."id" in \(\$2\) and "users"\."tenant_id" in \(\$3, \$4\) and "users"\."username" like \$5/);
  } else {
    assert.match(
      select.sql,
      /"secret_hash" = \+\? and "users"\."id" in \(\+\?\) and "users"\."tenant_id" in \(\?, \?\) and "users"\."username" like \? and "users"\."created_at" > \? and "users"\."email" is null$/,
    );
    assert.match(update.sql, /set "last_seen_at" = \? where "id" = \+\?$/);
  }
  // The same values, bound in the same order, whatever the text.
  assert.deepEqual(select.parameters, ['digest', 'one', 'a', 'b', 'ad%', 5]);
  assert.deepEqual(update.parameters, [7, 'x']);
});

const BULK = 20_000;
/** Username prefixes: a search for one of them matches an eighth of the users (like a common surname). */
const GROUPS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];

/** The plan the engine picks for `statement`, as text lines. */
async function planOf(statement: { text: string; parameters: unknown[] }): Promise<string> {
  const { db, engine } = server.app.ctx;
  const explain = engine === 'postgres' ? 'explain ' : 'explain query plan ';
  const { rows } = await db.executeQuery(CompiledQuery.raw(explain + statement.text, statement.parameters));
  return rows.map((row) => String((row as Record<string, unknown>).detail ?? (row as Record<string, unknown>)['QUERY PLAN'])).join('\n');
}

/** The count and the page statement of one user search by username. */
async function searchStatements(value: string) {
  const run = await runStatements(async () => {
    const answer = await admin.get<{ pager: { total: number } }>(`/api/user?page=1&size=10&searchProp=username&searchValue=${value}`);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
  });
  const count = run.find((statement) => /^select count\(\*\) as "total" from "users"/.test(statement.text));
  const page = run.find((statement) => /^select "users"\.\* from "users" where "users"\."id" in \(select/.test(statement.text));
  assert.ok(count && page, run.map((statement) => statement.text).join('\n'));
  return { count, page };
}

test("user search plans over 20 000 users: count from the index range, a broad search's page without sorting its 2 500 matches", async () => {
  const { db, engine } = server.app.ctx;
  const root = await db.selectFrom('tenants').select('id').where('parentId', 'is', null).executeTakeFirstOrThrow();
  const now = Date.now();
  for (let at = 0; at < BULK; at += 1_000) {
    await db
      .insertInto('users')
      .values(
        Array.from({ length: 1_000 }, (_, offset) => {
          const index = at + offset;
          return {
            id: `bulk-${index}`,
            username: `${GROUPS[index % GROUPS.length]}bulk-${String(index).padStart(5, '0')}`,
            realName: `Bulk ${index}`,
            email: null,
            mobilePhone: null,
            description: null,
            availabilityStatus: 1,
            avatar: null,
            extraProp: '{}',
            userType: 1,
            tenantId: root.id,
            isAdmin: 0,
            isMaster: 0,
            passwordHash: 'x',
            passwordChangedAt: now,
            version: 1,
            createdAt: now - index * 1_000,
            updatedAt: now,
          };
        }),
      )
      .execute();
  }
  await db.executeQuery(CompiledQuery.raw(engine === 'postgres' ? 'vacuum analyze users' : 'analyze'));

  const broad = await searchStatements('CBULK-');
  const countPlan = await planOf(broad.count);
  // Either index of the lowered username answers the count from its range alone: the search's own
  // (users_lower_username) or the one that keeps usernames unique in any letter case (users_username_folded).
  if (engine === 'postgres') assert.match(countPlan, /Index Only Scan using users_(lower_username|username_folded)/, countPlan);
  else assert.match(countPlan, /COVERING INDEX users_(lower_username|username_folded)/, countPlan);
  const broadPlan = await planOf(broad.page);
  assert.match(broadPlan, /users_created_at/, broadPlan);
  assert.doesNotMatch(broadPlan, /users_lower_username/, broadPlan);

  // The walk finds the same page, in the same order: the newest of group c are indexes 2, 10, 18 …
  const second = await admin.get<{ list: { username: string }[]; pager: { total: number } }>('/api/user?page=2&size=3&searchProp=username&searchValue=CBULK-');
  assert.equal(second.body.data.pager.total, BULK / GROUPS.length);
  assert.deepEqual(
    second.body.data.list.map((user) => user.username),
    ['cbulk-00026', 'cbulk-00034', 'cbulk-00042'],
  );

  const narrow = await searchStatements('cbulk-0004');
  const narrowPlan = await planOf(narrow.page);
  assert.match(narrowPlan, /users_lower_username/, narrowPlan);
  assert.doesNotMatch(narrowPlan, /users_created_at/, narrowPlan);
});
