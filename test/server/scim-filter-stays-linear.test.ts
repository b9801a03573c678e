// A SCIM filter is read as a tree (server/scim/filter.ts), never multiplied out into alternatives:
// a short filter of AND-ed OR pairs is answered, and its SQL holds each comparison once, instead of
// the 2^n alternatives that would hold the event loop (every other request). Counted, not timed:
// the machine's load would decide a timing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DummyDriver, Kysely, sql, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import { filterCondition } from '../../server/scim/filter';
import { startServer, type Client, type TestServer } from './harness';
import { provisionedTenant } from './scim-support';

let server: TestServer;
let admin: Client;

before(async () => {
  server = await startServer();
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

/** The SQL of `filter` over one text attribute, compiled without a database. */
function compiledFilter(filter: string) {
  return new Kysely<Record<string, never>>({
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
}

test('a short SCIM filter whose parentheses would multiply out is answered, its 32 comparisons once each', async () => {
  const { scim } = await provisionedTenant(server, admin, 'FilterCo');
  // 460 characters, well under the filter's length limit; 16 AND-ed pairs expand to 65 536 alternatives.
  const filter = Array.from({ length: 16 }, () => '(id eq "a" or id eq "b")').join(' and ');
  const answer = await scim('GET', `/Users?filter=${encodeURIComponent(filter)}`);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const compiled = compiledFilter(filter);
  assert.equal(compiled.parameters.length, 32, compiled.sql.slice(0, 200));
});
