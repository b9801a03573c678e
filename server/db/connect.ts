// Opens the database: SQLite in the data dir (WAL, foreign keys) or PostgreSQL from a URL.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { CamelCasePlugin, Kysely, SqliteDialect, type SqliteDatabase } from 'kysely';
import type { Database } from './tables';
import { migrate, pendingMigrations } from './migrations';
import { ResilientPostgresDialect } from './resilient-driver';

export type Engine = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  engine: Engine;
  /** Whether the database answers a trivial query within `timeoutMs` (the readiness check). */
  reachable(timeoutMs: number): Promise<boolean>;
  /** The migrations this server knows that the database has not run (another process may be running them). */
  pendingMigrations(): Promise<string[]>;
  close(): Promise<void>;
}

const INT8_OID = 20;

/** pg answers BIGINT as text by default; our bigints are epoch milliseconds, safe as numbers. */
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** SQL texts that run as named prepared statements on PostgreSQL, by name (see preparedOnPostgres). */
const preparedTexts = new Map<string, string>();

/**
 * Makes `sqlText` a named prepared statement on PostgreSQL: each connection parses and plans it once
 * (on its first runs) instead of on every run, where planning the session lookup cost several times
 * its execution. For the hottest statements only, and with their columns listed rather than `*`
 * (a prepared `*` fails once another process's migration adds a column).
 */
export function preparedOnPostgres(sqlText: string): void {
  if (!preparedTexts.has(sqlText)) preparedTexts.set(sqlText, `iam_prepared_${preparedTexts.size + 1}`);
}

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

/** How many compiled SQLite statements are kept (the server's distinct query texts number in the hundreds). */
const STATEMENT_CACHE_SIZE = 1_000;

/**
 * better-sqlite3 compiles SQL on every prepare(), and Kysely prepares each query anew; this keeps
 * the compiled statement per SQL text (the parameters are bound at each run) in an LRU. Safe
 * because Kysely's SQLite driver runs one query at a time on its single connection and reads each
 * statement to the end before the next, so one statement is never in use twice at once.
 */
export function reusingStatements(database: SQLite.Database, capacity = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement) statements.delete(sql);
      else {
        statement = database.prepare(sql);
        if (statements.size >= capacity) statements.delete(statements.keys().next().value as string);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
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
function postgresPool(connectionString: string, options: { timeouts: boolean; max: number }): pg.Pool {
  const pool = new pg.Pool({
    connectionString, max: options.max, types: pgTypes, Client: PreparingClient,
    application_name: APPLICATION_NAME, keepAlive: true, connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    ...(options.timeouts ? { statement_timeout: STATEMENT_TIMEOUT_MS, lock_timeout: LOCK_TIMEOUT_MS } : {}),
  });
  pool.on('connect', (client) => client.on('error', (error: Error & { code?: string }) => console.warn(`database connection lost: ${error.code ?? ''} ${error.message}`)));
  // The pool repeats an idle client's error, which the client's listener above already reported.
  pool.on('error', () => {});
  return pool;
}

/** Resolves to whether `check` settles without error within `timeoutMs`. */
async function within(timeoutMs: number, check: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(false), timeoutMs); });
  const answered = check().then(() => true, () => false);
  try {
    return await Promise.race([answered, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const postgresKysely = (pool: pg.Pool) => new Kysely<Database>({ dialect: new ResilientPostgresDialect({ pool }), plugins: [new CamelCasePlugin()] });

export async function openDatabase(options: { dataDir: string; databaseUrl: string | undefined }): Promise<Db> {
  let kysely: Kysely<Database>;
  let engine: Engine;
  let sqliteFile: SQLite.Database | undefined;
  let reachable: Db['reachable'];
  if (options.databaseUrl) {
    engine = 'postgres';
    const pool = postgresPool(options.databaseUrl, { timeouts: true, max: 10 });
    kysely = postgresKysely(pool);
    // Straight to the pool, without the driver's retries: the answer is about now.
    reachable = (timeoutMs) => within(timeoutMs, () => pool.query('select 1'));
  } else {
    engine = 'sqlite';
    mkdirSync(options.dataDir, { recursive: true });
    const sqlite = new SQLite(join(options.dataDir, 'iam.sqlite'));
    // The busy timeout first: another process may hold the file while this one switches to WAL.
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('journal_mode = WAL');
    // Commits do not wait for the disk (WAL's recommended setting): better-sqlite3 runs on the event
    // loop, and with the default FULL every write (a sign-in makes several) blocked it for an fsync,
    // 1-2 ms typically and tens of ms on a busy disk. Committed data survives a crash of the process;
    // an OS crash or power loss may lose the last commits, never the database's consistency.
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqliteFile = sqlite;
    reachable = async () => sqlite.prepare('select 1').get() !== undefined;
    kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: reusingStatements(sqlite) }), plugins: [new CamelCasePlugin()] });
  }
  if (sqliteFile) {
    // Kysely takes no migration lock on SQLite: processes starting together on a fresh file would
    // both create the tables. One write transaction around the migrations makes the others wait.
    sqliteFile.exec('BEGIN IMMEDIATE');
    try {
      await migrate(kysely as unknown as Kysely<unknown>, engine);
      sqliteFile.exec('COMMIT');
    } catch (error) {
      if (sqliteFile.inTransaction) sqliteFile.exec('ROLLBACK');
      throw error;
    }
  } else {
    // On a connection of its own without the timeouts: a migration may rewrite or index a big
    // table, and waits for another process's migrations on a lock.
    const migrating = postgresKysely(postgresPool(options.databaseUrl!, { timeouts: false, max: 1 }));
    try {
      await migrate(migrating as unknown as Kysely<unknown>, engine);
    } finally {
      await migrating.destroy();
    }
  }
  const pending = () => pendingMigrations(kysely as unknown as Kysely<unknown>, engine);
  return { kysely, engine, reachable, pendingMigrations: pending, close: () => kysely.destroy() };
}
