// Test harness: a real server on 127.0.0.1 over its own database (a temp SQLite dir, or a fresh
// PostgreSQL database, a copy of the migrated template, when IAM_TEST_DB=postgres), and a small HTTP client that behaves like a
// browser (keeps cookies, sends Origin on state-changing calls).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildApp, type App } from '../../server/app';
import { openDatabase } from '../../server/db/connect';
import type { ServerOptions } from '../../server/config';
import assert from 'node:assert/strict';
import type { Envelope, User } from '../../src/core/types';

export const ADMIN = { username: 'admin', password: 'Admin123!' };

export const transform = (password: string) => createHash('sha256').update(password.trim()).digest('hex');
/** The platform administrator's re-check (a SCIM token takes the maker's current password). */
export const ADMIN_PROOF = { currentPassword: transform(ADMIN.password) };

export interface TestDatabase {
  options: Pick<ServerOptions, 'dataDir' | 'databaseUrl'>;
  drop(): Promise<void>;
}

/**
 * A test database: a temp SQLite dir, or on PostgreSQL a new database copied from the migrated
 * template (`empty`: a database without tables, for what must run the migrations itself).
 */
export async function createTestDatabase({ empty = false }: { empty?: boolean } = {}): Promise<TestDatabase> {
  if (process.env.IAM_TEST_DB === 'postgres') {
    const adminUrl = process.env.IAM_TEST_DATABASE_URL;
    if (!adminUrl) throw new Error('IAM_TEST_DATABASE_URL is not set');
    const copyOf = empty ? '' : await migratedTemplate(adminUrl);
    const name = `iam_${randomBytes(6).toString('hex')}`;
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`CREATE DATABASE ${name}${copyOf}`);
    await client.end();
    return {
      options: { databaseUrl: databaseUrl(adminUrl, name) },
      async drop() {
        const dropper = new pg.Client({ connectionString: adminUrl });
        await dropper.connect();
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await dropper.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'iam-server-test-'));
  return { options: { dataDir: dir }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
}

/** This process's clause copying the template (migratedTemplate), made once. */
let template: Promise<string> | undefined;

/**
 * The PostgreSQL database every test database is copied from (CREATE DATABASE … TEMPLATE): all the
 * migrations run once on the cluster instead of once per server, which cost most of a PostgreSQL
 * server's start. Named by a digest of server/db/migrations.ts, so a changed migration gets a new
 * template (older ones stay on a long-lived cluster, unused). The first process builds it under an
 * advisory lock while the others wait; it is built under another name and renamed when complete,
 * then closed to connections (a copy fails while anyone is connected to its template). Answers the
 * clause that copies it: by its files (PostgreSQL 15's default, WAL_LOG, wrote every block through
 * the WAL and cost the cluster about twice the CPU per copy; older versions only copy files).
 */
function migratedTemplate(adminUrl: string): Promise<string> {
  template ??= (async () => {
    const migrations = readFileSync(new URL('../../server/db/migrations.ts', import.meta.url));
    const name = `iam_template_${createHash('sha256').update(migrations).digest('hex').slice(0, 16)}`;
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    let version: number;
    try {
      version = Number((await client.query<{ server_version_num: string }>('SHOW server_version_num')).rows[0]!.server_version_num);
      await client.query(`SELECT pg_advisory_lock(hashtext('iam test template'))`);
      const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (!found.rowCount) {
        const building = `${name}_building`;
        await client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
        await client.query(`CREATE DATABASE ${building}`);
        const db = await openDatabase({ dataDir: '', databaseUrl: databaseUrl(adminUrl, building) });
        await db.close();
        await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
        await client.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
      }
    } finally {
      await client.end();
    }
    return ` TEMPLATE ${name}${version >= 150_000 ? ' STRATEGY FILE_COPY' : ''}`;
  })();
  return template;
}

/** A clock the tests can move forward (session timeouts, lockout expiry, license expiry). */
class TestClock {
  offset = 0;
  now = () => Date.now() + this.offset;
  advance(ms: number) {
    this.offset += ms;
  }
}

export interface TestServer {
  app: App;
  base: string;
  clock: TestClock;
  stop(): Promise<void>;
  /** A fresh browser-like client. */
  client(options?: { origin?: string }): Client;
  /** A client signed in as the first administrator. */
  admin(): Promise<Client>;
}

export async function startServer(options: ServerOptions = {}): Promise<TestServer> {
  const database = await createTestDatabase();
  const clock = new TestClock();
  const app = await buildApp({
    ...database.options,
    adminUsername: ADMIN.username,
    adminPassword: ADMIN.password,
    clock,
    rateLimits: { login: { max: 1000, timeWindow: 60_000 }, captcha: { max: 1000, timeWindow: 60_000 }, upload: { max: 1000, timeWindow: 60_000 } },
    // Every answer is held against its route's response schema: a drift from the wire contract fails the test.
    checkAnswers: true,
    ...options,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const base = `http://127.0.0.1:${address.port}`;
  const server: TestServer = {
    app,
    base,
    clock,
    async stop() {
      await app.close();
      await database.drop();
    },
    client: (clientOptions) => new Client(base, clientOptions?.origin ?? base),
    async admin() {
      const client = server.client();
      await client.login(ADMIN.username, ADMIN.password);
      return client;
    },
  };
  return server;
}

/** The newest audit record's id: what is recorded after it belongs to the step under test. */
export async function lastAuditId(server: TestServer): Promise<number> {
  const { last } = await server.app.ctx.db
    .selectFrom('auditLog')
    .select((eb) => eb.fn.max('id').as('last'))
    .executeTakeFirstOrThrow();
  return Number(last ?? 0);
}

/** The data of a 200 answer; anything else fails the test with the answer (after `what`, if given). */
export async function ok<T>(answer: Promise<{ status: number; body: { data: T } }>, what?: string): Promise<T> {
  const { status, body } = await answer;
  assert.equal(status, 200, what ? `${what}: ${JSON.stringify(body)}` : JSON.stringify(body));
  return body.data;
}

/** A person the administrator `admin` creates, signed in from a browser-like client of their own. */
export async function signedInPerson(
  server: TestServer,
  admin: Client,
  { username, realName, password = 'Secret123' }: { username: string; realName: string; password?: string },
) {
  const created = await admin.post<User>('/api/user', { username, realName, password: transform(password) });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const browser = server.client();
  assert.equal((await browser.login(username, password)).body.data?.loginSuccess, true);
  return { user: created.body.data, browser, username };
}

export interface Answer<T = unknown> {
  status: number;
  body: Envelope<T>;
  headers: Headers;
}

export class Client {
  cookies = new Map<string, string>();
  headers: Record<string, string> = {};

  constructor(
    readonly base: string,
    readonly origin: string | null,
  ) {}

  async request<T = unknown>(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<Answer<T>> {
    const response = await this.raw(method, path, body, extraHeaders);
    const text = await response.text();
    let parsed: Envelope<T>;
    try {
      parsed = JSON.parse(text) as Envelope<T>;
    } catch {
      throw new Error(`${method} ${path}: not JSON (${response.status}): ${text.slice(0, 200)}`);
    }
    return { status: response.status, body: parsed, headers: response.headers };
  }

  async raw(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<Response> {
    const headers: Record<string, string> = { ...this.headers, ...extraHeaders };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (method !== 'GET' && this.origin && !('origin' in headers)) headers.origin = this.origin;
    let payload: BodyInit | undefined;
    if (body instanceof FormData || body instanceof URLSearchParams) payload = body;
    else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(this.base + path, { method, headers, body: payload, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  get<T = unknown>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, undefined, headers);
  }
  post<T = unknown>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body ?? {}, headers);
  }
  put<T = unknown>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PUT', path, body ?? {}, headers);
  }
  delete<T = unknown>(path: string, headers?: Record<string, string>) {
    return this.request<T>('DELETE', path, undefined, headers);
  }

  login(username: string, password: string, extra: Record<string, unknown> = {}, headers?: Record<string, string>) {
    return this.post<Record<string, unknown>>('/api/authc/login', { username, password: transform(password), ...extra }, headers);
  }
}
