// `iam-console-server backup <file>` (npm run backup -- <file>): a consistent copy of the embedded
// SQLite database, taken while the server runs. `VACUUM INTO` reads one snapshot (the WAL's commits
// included, which a copy of iam.sqlite alone misses) and writes a compact database file; it is
// written beside the target under a temporary name, readable by its owner only (it holds the OIDC
// signing key, the cookie keys and webhook secrets), then renamed. PostgreSQL is backed up with its
// own tools (pg_dump -Fc; docs/deployment.md, "Backups").
import { closeSync, existsSync, openSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SQLite } from './db/sqlite-driver';

interface BackupResult {
  file: string;
  /** Files the server needs besides the database that exist in the data directory: keep them with the backup. */
  besides: string[];
}

function backupSqlite(dataDir: string, target: string): BackupResult {
  const source = join(dataDir, 'iam.sqlite');
  if (!existsSync(source)) throw new Error(`no database at ${source}: set IAM_DATA_DIR to the server's data directory`);
  const file = resolve(target);
  if (existsSync(file)) throw new Error(`${file} exists: name a new file`);
  const partial = `${file}.partial`;
  // VACUUM INTO writes into an empty file it finds: created here with the owner-only mode.
  closeSync(openSync(partial, 'wx', 0o600));
  const database = new SQLite(source, { fileMustExist: true });
  try {
    // The server process may hold the write lock for a moment.
    database.pragma('busy_timeout = 5000');
    database.prepare('VACUUM INTO ?').run(partial);
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    database.close();
  }
  const besides = ['license-public.pem'].map((name) => join(dataDir, name)).filter((path) => existsSync(path));
  return { file, besides };
}

/** The command: one line on success or failure, exit code 0 or 1. */
export function backupCommand(args: string[], config: { dataDir: string; databaseUrl: string | undefined }): number {
  if (config.databaseUrl) {
    process.stderr.write('Cannot back up: DATABASE_URL is set; back up PostgreSQL with pg_dump -Fc (docs/deployment.md, "Backups")\n');
    return 1;
  }
  const [target] = args;
  if (!target || args.length > 1) {
    process.stderr.write('Usage: iam-console-server backup <file>   (the SQLite database of IAM_DATA_DIR, taken while the server runs)\n');
    return 1;
  }
  try {
    const { file, besides } = backupSqlite(config.dataDir, target);
    const also = besides.length ? `; keep beside it: ${besides.join(', ')}` : '';
    process.stdout.write(`Backup written to ${file} (mode 0600: it holds the signing keys${also})\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`Cannot back up: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}\n`);
    return 1;
  }
}
