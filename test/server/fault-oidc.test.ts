// The OpenID Connect provider and the whole API while the database is away, and input PostgreSQL
// cannot store:
//  - the provider is built at its first request (keys read or made in the database): a build that
//    failed because the database was away is tried again once it is back, instead of every later
//    provider request answering 500 until the process restarts;
//  - a database that refuses connections (an operator's ALLOW_CONNECTIONS false, PostgreSQL's
//    55000) answers 503 with Retry-After, the API's calls and the provider's own endpoints alike;
//  - a NUL character in a JSON string or in a URL is refused with a 400 (on PostgreSQL it once
//    reached a query and answered 500).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import pg from 'pg';
import { SQLite } from '../../server/db/sqlite-driver';
import { createTestDatabase, startServer, type TestDatabase, type TestServer } from './harness';

const onPostgres = process.env.IAM_TEST_DB === 'postgres';
const discovery = '/api/oidc/.well-known/openid-configuration';

/** Makes the database refuse (or accept again) this server's connections, the way an operator
 *  or a failover would: new connections are refused and the open ones ended. SQLite: another
 *  process holds the write lock. Answers the function that gives the database back. */
async function takeDatabaseAway(database: TestDatabase): Promise<() => Promise<void>> {
  if (database.options.databaseUrl) {
    const name = new URL(database.options.databaseUrl).pathname.slice(1);
    const admin = new pg.Client({ connectionString: process.env.IAM_TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
    return async () => {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      await admin.end();
    };
  }
  const holder = new SQLite(join(database.options.dataDir!, 'iam.sqlite'));
  holder.exec('BEGIN IMMEDIATE');
  return async () => {
    holder.exec('ROLLBACK');
    holder.close();
  };
}

async function answerOf(server: TestServer, path: string, init?: RequestInit) {
  const response = await fetch(server.base + path, init);
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Record<string, unknown> };
}

describe('the database away', () => {
  let database: TestDatabase;
  let server: TestServer;

  before(async () => {
    database = await createTestDatabase();
    server = await startServer(database.options);
  });
  after(async () => {
    await server.stop();
    await database.drop();
  });

  test('a provider build that failed while the database was away is tried again once it is back', async () => {
    const giveBack = await takeDatabaseAway(database);
    let away;
    try {
      away = await answerOf(server, discovery);
    } finally {
      await giveBack();
    }
    assert.equal(away.status, 503, `the first provider request meets the database away: ${JSON.stringify(away.body)}`);
    assert.equal(away.retryAfter, '2');
    const back = await answerOf(server, discovery);
    assert.equal(back.status, 200, `once the database is back the provider is built: ${JSON.stringify(back.body)}`);
    assert.equal(back.body.issuer, `${server.base}/api/oidc`);
  });

  test(
    'a database refusing connections: 503 with Retry-After from the API and from the provider, never 500',
    { skip: !onPostgres && 'PostgreSQL only: SQLite has no connections to refuse' },
    async () => {
      assert.equal((await answerOf(server, discovery)).status, 200, 'the provider is built');
      const giveBack = await takeDatabaseAway(database);
      const answers = [];
      try {
        for (const path of ['/api/config', '/api/settings/login/public', '/api/oidc/auth?client_id=some-app&response_type=code&scope=openid']) {
          answers.push({ path, ...(await answerOf(server, path)) });
        }
        // The introspection the server answers itself (an app's secret in the Authorization header).
        const introspection = '/api/oidc/token/introspection';
        const headers = {
          authorization: `Basic ${Buffer.from('some-app:some-secret').toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        };
        answers.push({ path: introspection, ...(await answerOf(server, introspection, { method: 'POST', headers, body: 'token=some-token' })) });
      } finally {
        await giveBack();
      }
      for (const answer of answers) {
        assert.equal(answer.status, 503, `${answer.path}: ${JSON.stringify(answer.body)}`);
        assert.equal(answer.retryAfter, '2', answer.path);
      }
      for (const answer of answers.filter(({ path }) => path.startsWith('/api/oidc/'))) assert.equal(answer.body.error, 'temporarily_unavailable', answer.path);
      assert.equal((await answerOf(server, '/api/config')).status, 200, 'serving again once it is back');
    },
  );
});

describe('NUL characters', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.stop();
  });

  test('a NUL in a JSON string or in a URL is a 400 in the envelope, signed in or not', async () => {
    const admin = await server.admin();
    const answers = {
      'sign-in name': await server.client().post('/api/authc/login', { username: 'ad\u0000min', password: 'x'.repeat(64) }),
      'expired-password change': await server
        .client()
        .put('/api/authc/password/expired', { username: 'ad\u0000min', password: 'x'.repeat(64), newPassword: 'y'.repeat(64) }),
      'message title': await admin.post('/api/messages', { title: 'Hello\u0000', content: 'Body', recipientIds: [] }),
      'user search': await admin.get('/api/user?search=a%00b'),
      'provider client id': await server.client().get('/api/oidc/auth?client_id=a%00b&response_type=code&scope=openid'),
    };
    for (const [what, answer] of Object.entries(answers)) {
      assert.equal(answer.status, 400, `${what}: ${JSON.stringify(answer.body)}`);
      assert.match(answer.body.message, /NUL/, what);
    }
    // An escaped backslash followed by the letters u0000 is no NUL: not refused for that.
    const text = await admin.post('/api/messages', { title: 'Path C:\\u0000', content: 'Body', recipientIds: [] });
    assert.notEqual(text.status, 500);
    assert.doesNotMatch(text.body.message, /NUL/);
  });
});
