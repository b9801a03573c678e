// A change, its audit record and its webhook deliveries are one transaction: when writing the
// record fails, the answer is a 5xx and nothing was stored (no user without its record, no retry
// told "username taken" for its own user). On PostgreSQL the fault is a real one, another session
// holding `lock table audit_log in access exclusive mode` (the server's lock_timeout answers 503);
// on SQLite a trigger planted on audit_log refuses the record's insert. A client that retries with
// the same Idempotency-Key then creates once, and learns the outcome on later retries; the key with
// another body answers 422, and keys are per caller.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { sql } from 'kysely';
import { startServer, transform, type Client, type TestServer } from './harness';

const onPostgres = process.env.IAM_TEST_DB === 'postgres';

let server: TestServer;
let admin: Client;
let receiver: Server;
let serial = 0;

before(async () => {
  receiver = createServer((_request, response) => response.writeHead(204).end());
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  server = await startServer({ outboundAllowPrivate: true });
  admin = await server.admin();
  const hook = await admin.post('/api/webhooks', {
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
    events: ['user.created', 'user.updated'],
  });
  assert.equal(hook.status, 200, JSON.stringify(hook.body));
});

after(async () => {
  await server?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

const db = () => server.app.ctx.db;

async function usersNamed(username: string) {
  return db().selectFrom('users').select(['id', 'realName']).where('username', '=', username).execute();
}

async function recordsAbout(action: string, targetId: string) {
  return db().selectFrom('auditLog').select('id').where('action', '=', action).where('targetId', '=', targetId).execute();
}

async function deliveriesOf(eventType: string, targetId: string) {
  const rows = await db().selectFrom('webhookDeliveries').select('payload').where('eventType', '=', eventType).execute();
  return rows.filter((row) => (JSON.parse(row.payload) as { data: { target?: { id?: string } } }).data.target?.id === targetId);
}

/**
 * Runs `during` while writing an audit record fails: on PostgreSQL another session holds an
 * exclusive lock on audit_log; on SQLite a trigger refuses inserts into it.
 */
async function withAuditBlocked<T>(during: () => Promise<T>): Promise<T> {
  if (onPostgres) {
    const locker = new pg.Client({ connectionString: server.app.ctx.config.databaseUrl });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table audit_log in access exclusive mode');
      return await during();
    } finally {
      await locker.query('rollback');
      await locker.end();
    }
  }
  await sql`create trigger planted_audit_fault before insert on audit_log begin select raise(abort, 'planted fault'); end`.execute(db());
  try {
    return await during();
  } finally {
    await sql`drop trigger planted_audit_fault`.execute(db());
  }
}

const newUser = () => ({ username: `atomic-${++serial}`, realName: 'Atomic_User', password: transform('Atomic123') });

describe('one transaction per change', () => {
  test('POST /api/user while its audit record cannot be written: a 5xx and no user; the retry with the same Idempotency-Key creates it once', async () => {
    const body = newUser();
    const key = `create-${serial}`;
    const refused = await withAuditBlocked(() => admin.post('/api/user', body, { 'idempotency-key': key }));
    assert.equal(refused.status, onPostgres ? 503 : 500, JSON.stringify(refused.body));
    if (onPostgres) assert.ok(refused.headers.get('retry-after'), 'a 503 says when to try again');
    assert.deepEqual(await usersNamed(body.username), [], 'nothing was stored with the 5xx');

    const created = await admin.post<{ id: string }>('/api/user', body, { 'idempotency-key': key });
    assert.equal(created.status, 200, `the retry creates the user, not "username taken": ${JSON.stringify(created.body)}`);
    const id = created.body.data.id;
    assert.equal((await recordsAbout('user.create', id)).length, 1, 'with its audit record');
    assert.equal((await deliveriesOf('user.created', id)).length, 1, 'and its webhook delivery');

    const again = await admin.post<{ id: string }>('/api/user', body, { 'idempotency-key': key });
    assert.equal(again.status, 200, 'a later retry learns the outcome');
    assert.equal(again.body.data.id, id, 'the first answer again');
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal((await usersNamed(body.username)).length, 1, 'created once');
    assert.equal((await recordsAbout('user.create', id)).length, 1, 'recorded once');
  });

  test('PUT /api/user/:id while its audit record cannot be written: a 5xx and the user unchanged; the retry saves it with its record', async () => {
    const body = newUser();
    const created = await admin.post<{ id: string; version: number }>('/api/user', body);
    assert.equal(created.status, 200);
    const { id, version } = created.body.data;
    const change = { realName: 'Renamed_User', version };
    const refused = await withAuditBlocked(() => admin.put(`/api/user/${id}`, change));
    assert.equal(refused.status, onPostgres ? 503 : 500, JSON.stringify(refused.body));
    assert.equal((await usersNamed(body.username))[0]?.realName, 'Atomic_User', 'the change was not stored');
    assert.equal((await recordsAbout('user.update', id)).length, 0);

    const saved = await admin.put(`/api/user/${id}`, change);
    assert.equal(saved.status, 200, `the retry is not a version conflict: ${JSON.stringify(saved.body)}`);
    assert.equal((await recordsAbout('user.update', id)).length, 1, 'with its audit record');
    assert.equal((await deliveriesOf('user.updated', id)).length, 1, 'and its webhook delivery');
  });

  test('an Idempotency-Key with another body answers 422; keys are per caller; a malformed key answers 400', async () => {
    const body = newUser();
    const key = `reuse-${serial}`;
    assert.equal((await admin.post('/api/user', body, { 'idempotency-key': key })).status, 200);
    const other = await admin.post('/api/user', newUser(), { 'idempotency-key': key });
    assert.equal(other.status, 422, JSON.stringify(other.body));
    assert.match(other.body.message, /different request/);

    // Another administrator's request with the same key is theirs alone.
    const second = newUser();
    const made = await admin.post<{ id: string }>('/api/user', { ...second, isAdmin: true, isMaster: true, extraProp: { intProperty1: 2 } });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const colleague = server.client();
    await colleague.login(second.username, 'Atomic123');
    const theirs = await colleague.post('/api/user', newUser(), { 'idempotency-key': key });
    assert.equal(theirs.status, 200, `another caller's key does not collide: ${JSON.stringify(theirs.body)}`);

    const malformed = await admin.post('/api/user', newUser(), { 'idempotency-key': 'a key with spaces' });
    assert.equal(malformed.status, 400);
  });

  test('the OpenAPI document names the Idempotency-Key header and its 422 on the creates', async () => {
    const doc = (await (await fetch(`${server.base}/api/openapi.json`)).json()) as {
      paths: Record<string, { post?: { parameters?: { in: string; name: string }[]; responses: Record<string, unknown> } }>;
    };
    for (const path of ['/api/user', '/api/tenants', '/api/apps', '/api/menu-plans']) {
      const post = doc.paths[path]?.post;
      assert.ok(
        post?.parameters?.some((parameter) => parameter.in === 'header' && parameter.name === 'idempotency-key'),
        path,
      );
      assert.ok(post?.responses['422'], `${path} documents 422`);
    }
  });

  test('two requests racing with one Idempotency-Key create once', async () => {
    const body = newUser();
    const key = `race-${serial}`;
    const answers = await Promise.all([1, 2, 3].map(() => admin.post<{ id: string }>('/api/user', body, { 'idempotency-key': key })));
    const created = answers.filter((answer) => answer.status === 200);
    assert.ok(created.length >= 1, JSON.stringify(answers.map((answer) => answer.body)));
    for (const answer of answers) assert.ok(answer.status === 200 || answer.status === 409, `${answer.status}: ${JSON.stringify(answer.body)}`);
    assert.equal(new Set(created.map((answer) => answer.body.data.id)).size, 1, 'one user, answered alike');
    assert.equal((await usersNamed(body.username)).length, 1);
  });
});
