// Opens the database: SQLite in the data dir (WAL, foreign keys) or PostgreSQL from a URL.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { CamelCasePlugin, Kysely, SqliteDialect, type CompiledQuery, type SqliteDatabase } from 'kysely';
import { LiteralLimitsPlugin } from './literal-limits';
import type { Database } from './tables';
import { migrate, pendingMigrations } from './migrations';
import { SQLite } from './sqlite-driver';
import { UnitOfWorkDialect, unitOfWork, type UnitOfWork } from './unit-of-work';

export type Engine = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  engine: Engine;
  /** Runs a change in one transaction, whichever Kysely instance its queries use. */
  unitOfWork: UnitOfWork;
  /** Whether the database answers a trivial query within `timeoutMs` (the readiness check). */
  reachable(timeoutMs: number): Promise<boolean>;
  /** The migrations this server knows that the database has not run (another process may be running them). */
  pendingMigrations(): Promise<string[]>;
  /**
   * The rows of one compiled read, each column under its SQL name (no plugin maps them). On SQLite,
   * while no transaction holds the connection, the statement runs at once: better-sqlite3 answers on
   * the event loop, so it runs as it would once through the driver's queue for the one connection,
   * without the queue's dozen promise hops (the session check's statement, on every signed-in request).
   * Otherwise (a transaction open, PostgreSQL) it runs as any query.
   */
  readRows<R>(query: CompiledQuery<R>): Promise<R[]>;
  close(): Promise<void>;
}

/** SQL texts that run as named prepared statements on PostgreSQL, by name (see preparedOnPostgres). */
export const preparedTexts = new Map<string, string>();

/**
 * Makes `sqlText` a named prepared statement on PostgreSQL: each connection parses and plans it once
 * (on its first runs) instead of on every run, where planning the session lookup cost several times
 * its execution. For the hottest statements only, and with their columns listed rather than `*`
 * (a prepared `*` fails once another process's migration adds a column).
 */
export function preparedOnPostgres(sqlText: string): void {
  if (!preparedTexts.has(sqlText)) preparedTexts.set(sqlText, `iam_prepared_${preparedTexts.size + 1}`);
}

/** How many compiled SQLite statements are kept (the server's distinct query texts number in the hundreds). */
const STATEMENT_CACHE_SIZE = 1_000;

/**
 * better-sqlite3 compiles SQL on every prepare(), and Kysely prepares each query anew; this keeps
 * the compiled statement per SQL text (the parameters are bound at each run) in an LRU. Safe
 * because Kysely's SQLite driver runs one query at a time on its single connection and reads each
 * statement to the end before the next, so one statement is never in use twice at once.
 */
function reusingStatements(database: BetterSqlite3.Database, capacity = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const statements = new Map<string, BetterSqlite3.Statement>();
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

/** The SQLite database file and the two files beside it that WAL mode keeps while it is open. */
const DATABASE_FILE = 'iam.sqlite';
const DATABASE_FILES = [DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`];

/**
 * The data directory holds what a backup holds (signing keys, password hashes, webhook secrets,
 * sessions), so it is kept to its owner like a backup (docs/deployment.md): a directory created
 * here is 0700 and the database files are 0600 whatever the umask. The database file is created
 * (or narrowed) before SQLite opens it because SQLite gives the -wal and -shm files it creates the
 * database file's mode; ones left by an earlier run are narrowed too. A directory the operator made
 * keeps its own mode.
 */
function ownerOnlyDatabase(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, DATABASE_FILE);
  closeSync(openSync(file, 'a', 0o600));
  for (const name of DATABASE_FILES) {
    const path = join(dataDir, name);
    if (existsSync(path) && statSync(path).mode & 0o077) chmodSync(path, 0o600);
  }
  return file;
}

/** Resolves to whether `check` settles without error within `timeoutMs`. */
async function within(timeoutMs: number, check: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const answered = check().then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([answered, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Db.readRows on SQLite: at once while the connection is in no transaction (a unit of work or a
 *  transaction holds it with its transaction open, and a read then waits for it in the queue). */
function readingAtOnce(file: BetterSqlite3.Database, statements: SqliteDatabase, queued: Db['readRows']): Db['readRows'] {
  return async <R>(query: CompiledQuery<R>) => (file.inTransaction ? queued(query) : (statements.prepare(query.sql).all(query.parameters) as R[]));
}

export async function openDatabase(options: { dataDir: string; databaseUrl: string | undefined }): Promise<Db> {
  let kysely: Kysely<Database>;
  let dialect: UnitOfWorkDialect;
  let engine: Engine;
  let sqliteFile: BetterSqlite3.Database | undefined;
  let reachable: Db['reachable'];
  let statements: SqliteDatabase | undefined;
  if (options.databaseUrl) {
    engine = 'postgres';
    // pg is loaded only for a PostgreSQL database (see server/lazy.ts).
    const { postgresPool, postgresKysely } = await import('./postgres');
    const pool = postgresPool(options.databaseUrl, { timeouts: true, max: 10 });
    ({ kysely, dialect } = postgresKysely(pool));
    // Straight to the pool, without the driver's retries: the answer is about now.
    reachable = (timeoutMs) => within(timeoutMs, () => pool.query('select 1'));
  } else {
    engine = 'sqlite';
    const sqlite = new SQLite(ownerOnlyDatabase(options.dataDir));
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
    statements = reusingStatements(sqlite);
    dialect = new UnitOfWorkDialect(new SqliteDialect({ database: statements }), 'begin immediate');
    kysely = new Kysely<Database>({
      dialect,
      plugins: [new CamelCasePlugin(), new LiteralLimitsPlugin()],
    });
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
    const { postgresPool, postgresKysely } = await import('./postgres');
    const { kysely: migrating } = postgresKysely(postgresPool(options.databaseUrl!, { timeouts: false, max: 1 }));
    try {
      await migrate(migrating as unknown as Kysely<unknown>, engine);
    } finally {
      await migrating.destroy();
    }
  }
  const pending = () => pendingMigrations(kysely as unknown as Kysely<unknown>, engine);
  const plain = kysely.withoutPlugins();
  const queued = async <R>(query: CompiledQuery<R>) => (await plain.executeQuery(query)).rows;
  const readRows = sqliteFile && statements ? readingAtOnce(sqliteFile, statements, queued) : queued;
  return { kysely, engine, unitOfWork: unitOfWork(dialect), reachable, pendingMigrations: pending, readRows, close: () => kysely.destroy() };
}
