// The PostgreSQL side of the database connection (connect.ts): pg's pool with our type parsing,
// prepared statements, timeouts and error handling. Imported only when the server runs on
// PostgreSQL, so a server on SQLite never loads pg.
import pg from 'pg';
import { CamelCasePlugin, Kysely } from 'kysely';
import type { Database } from './tables';
import { ResilientPostgresDialect } from './resilient-driver';
import { UnitOfWorkDialect } from './unit-of-work';
import { preparedTexts } from './connect';

const INT8_OID = 20;

/** pg answers BIGINT as text by default; our bigints are epoch milliseconds, safe as numbers. */
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** pg's client, running the texts of preparedOnPostgres as named statements. */
class PreparingClient extends pg.Client {
  // pg's query() has a dozen overloads; Kysely calls query(text, values).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const [text, values] = args as [unknown, unknown[] | undefined];
    const name = typeof text === 'string' ? preparedTexts.get(text) : undefined;
    return name ? super.query({ name, text: text as string, values }) : (super.query as (...rest: unknown[]) => unknown)(...args);
  }
}

/** How long a request waits for a connection (a free one, or a new one to an unresponsive server). */
const CONNECT_TIMEOUT_MS = 10_000;

/** What the processes' connections are called in pg_stat_activity. */
const APPLICATION_NAME = 'iam-console';

/**
 * How long one statement may run, and wait for a lock, on the server's connections: a slow or
 * locked table then costs its own requests a 503 (see availability.ts) instead of holding every
 * connection of the pool while all other requests wait for one. Sent with the connection's
 * startup parameters, so they cost no round trip. Migrations run without them.
 */
const STATEMENT_TIMEOUT_MS = 5_000;
const LOCK_TIMEOUT_MS = 3_000;

/**
 * The PostgreSQL pool. A connection that fails (the database restarted, failed over, or terminated
 * it) emits 'error' on its client and, when idle, on the pool; unhandled, either would end the
 * process. They are logged: the pool drops the dead connection and opens new ones on demand.
 */
export function postgresPool(connectionString: string, options: { timeouts: boolean; max: number }): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: options.max,
    types: pgTypes,
    Client: PreparingClient,
    application_name: APPLICATION_NAME,
    keepAlive: true,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    ...(options.timeouts ? { statement_timeout: STATEMENT_TIMEOUT_MS, lock_timeout: LOCK_TIMEOUT_MS } : {}),
  });
  pool.on('connect', (client) =>
    client.on('error', (error: Error & { code?: string }) => console.warn(`database connection lost: ${error.code ?? ''} ${error.message}`)),
  );
  // The pool repeats an idle client's error, which the client's listener above already reported.
  pool.on('error', () => {});
  return pool;
}

/** Kysely over `pool`, with units of work (server/db/unit-of-work.ts) over the resilient driver. */
export function postgresKysely(pool: pg.Pool) {
  const dialect = new UnitOfWorkDialect(new ResilientPostgresDialect({ pool }));
  return { kysely: new Kysely<Database>({ dialect, plugins: [new CamelCasePlugin()] }), dialect };
}
