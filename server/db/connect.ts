// Opens the database: SQLite in the data dir (WAL, foreign keys) or PostgreSQL from a URL.
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { CamelCasePlugin, Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import type { Database } from './tables';
import { migrate } from './migrations';

export type Engine = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  engine: Engine;
  close(): Promise<void>;
}

const INT8_OID = 20;

/** pg answers BIGINT as text by default; our bigints are epoch milliseconds, safe as numbers. */
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** How often the checkpointer runs; and the WAL size (pages) at which the server's own connection
 *  checkpoints anyway, should the checkpointer not keep up (SQLite's default is 1 000). */
const CHECKPOINT_EVERY_MS = 1_000;
const FALLBACK_CHECKPOINT_PAGES = 10_000;

/** The checkpointer's code: its own connection to the file, a PASSIVE checkpoint on a timer. */
const CHECKPOINTER = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file);
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => { try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy: next time */ } }, workerData.every);
parentPort.once('message', () => { clearInterval(timer); db.close(); parentPort.close(); });
`;

/**
 * Checkpoints the WAL from a worker thread. SQLite's automatic checkpoint runs inside a commit, here
 * on the event loop, copying the WAL into the database file and fsyncing it: 10-120 ms every few
 * hundred writes on this machine's disk. A PASSIVE checkpoint never blocks readers or writers.
 * Answers the function that stops it.
 */
function startCheckpointer(file: string): () => Promise<void> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(CHECKPOINTER, { eval: true, workerData: { file, driver, every: CHECKPOINT_EVERY_MS } });
  let running = true;
  worker.once('exit', () => { running = false; });
  // Should it fail, the server's connection checkpoints by itself (FALLBACK_CHECKPOINT_PAGES).
  worker.on('error', () => {});
  worker.unref();
  return async () => {
    if (!running) return;
    worker.postMessage('stop');
    await once(worker, 'exit');
  };
}

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

export async function openDatabase(options: { dataDir: string; databaseUrl: string | undefined }): Promise<Db> {
  let kysely: Kysely<Database>;
  let engine: Engine;
  let sqliteFile: SQLite.Database | undefined;
  let sqlitePath: string | undefined;
  if (options.databaseUrl) {
    engine = 'postgres';
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10, types: pgTypes, Client: PreparingClient });
    kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [new CamelCasePlugin()] });
  } else {
    engine = 'sqlite';
    mkdirSync(options.dataDir, { recursive: true });
    const file = join(options.dataDir, 'iam.sqlite');
    const sqlite = new SQLite(file);
    // The busy timeout first: another process may hold the file while this one switches to WAL.
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('journal_mode = WAL');
    // Commits do not wait for the disk (WAL's recommended setting): better-sqlite3 runs on the event
    // loop, and with the default FULL every write (a sign-in makes several) blocked it for an fsync,
    // 1-2 ms typically and tens of ms on a busy disk. Committed data survives a crash of the process;
    // an OS crash or power loss may lose the last commits, never the database's consistency.
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
    sqlite.pragma('foreign_keys = ON');
    sqliteFile = sqlite;
    sqlitePath = file;
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
  } else await migrate(kysely as unknown as Kysely<unknown>, engine);
  const stopCheckpointer = sqlitePath ? startCheckpointer(sqlitePath) : undefined;
  return {
    kysely, engine,
    async close() {
      await stopCheckpointer?.();
      await kysely.destroy();
    },
  };
}
