// Opens the database: SQLite in the data dir (WAL, foreign keys) or PostgreSQL from a URL.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { CamelCasePlugin, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
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

export async function openDatabase(options: { dataDir: string; databaseUrl: string | undefined }): Promise<Db> {
  let kysely: Kysely<Database>;
  let engine: Engine;
  if (options.databaseUrl) {
    engine = 'postgres';
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10, types: pgTypes });
    kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [new CamelCasePlugin()] });
  } else {
    engine = 'sqlite';
    mkdirSync(options.dataDir, { recursive: true });
    const sqlite = new SQLite(join(options.dataDir, 'iam.sqlite'));
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }), plugins: [new CamelCasePlugin()] });
  }
  await migrate(kysely as unknown as Kysely<unknown>, engine);
  return { kysely, engine, close: () => kysely.destroy() };
}
