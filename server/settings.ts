// Settings kept as JSON documents in the `settings` table (login policy, console config, the
// installation id, the license), each with a version for optimistic concurrency.
import { PostgresAdapter, type Kysely } from 'kysely';
import type { Database } from './db/tables';
import { resolveConfig, type IamConfig } from '../src/core/config';
import { defaultLoginSettings, type LoginSettings } from '../src/core/schemas/settings';
import { conflict } from './http/errors';

export interface Versioned<T> {
  value: T;
  version: number;
}

interface Documents {
  login: LoginSettings;
  config: IamConfig;
}

const defaults: { [K in keyof Documents]: () => Documents[K] } = {
  login: () => ({ ...defaultLoginSettings }),
  config: () => resolveConfig(),
};

interface Parsed {
  version: number;
  entry: Versioned<unknown>;
}

/** The stored document merged over the defaults, so settings added later get their default. */
function parse<K extends keyof Documents>(key: K, row: { value: string; version: number } | undefined): Versioned<Documents[K]> {
  return { value: row ? { ...defaults[key](), ...JSON.parse(row.value) } : defaults[key](), version: row?.version ?? 1 };
}

/**
 * Every read asks the database for the document's version (one primary-key lookup) and reuses
 * the parsed document while it is unchanged, so a save through any process is followed by every
 * process from its next request on. Saves merge into the stored document inside one transaction.
 */
export class SettingsStore {
  private parsed = new Map<string, Parsed>();

  constructor(private readonly db: Kysely<Database>, private readonly now: () => number) {}

  async get<K extends keyof Documents>(key: K): Promise<Versioned<Documents[K]>> {
    const current = await this.db.selectFrom('settings').select('version').where('key', '=', key).executeTakeFirst();
    const cached = this.parsed.get(key);
    // A document never saved has no row: version 1, the defaults.
    if (cached && cached.version === (current?.version ?? 1)) return cached.entry as Versioned<Documents[K]>;
    const row = await this.db.selectFrom('settings').select(['value', 'version']).where('key', '=', key).executeTakeFirst();
    const entry = parse(key, row);
    this.parsed.set(key, { version: entry.version, entry });
    return entry;
  }

  /**
   * Applies `change` to the document as stored now, when `expectedVersion` is its version; 409
   * otherwise. One transaction: the row is created when missing (so two first saves meet on one
   * row), locked, merged into and written with the version checked by the writing statement.
   */
  async update<K extends keyof Documents>(key: K, expectedVersion: number, change: (current: Documents[K]) => Documents[K]): Promise<Versioned<Documents[K]>> {
    const updatedAt = this.now();
    return this.db.transaction().execute(async (trx) => {
      await trx.insertInto('settings').values({ key, value: '{}', version: 1, updatedAt })
        .onConflict((oc) => oc.column('key').doNothing()).execute();
      // FOR UPDATE on PostgreSQL; SQLite's write transaction already holds the database.
      let locked = trx.selectFrom('settings').select(['value', 'version']).where('key', '=', key);
      if (trx.getExecutor().adapter instanceof PostgresAdapter) locked = locked.forUpdate();
      const stored = parse(key, await locked.executeTakeFirstOrThrow());
      if (stored.version !== expectedVersion) throw conflict();
      const value = change(stored.value);
      const written = await trx.updateTable('settings')
        .set({ value: JSON.stringify(value), version: expectedVersion + 1, updatedAt })
        .where('key', '=', key).where('version', '=', expectedVersion)
        .executeTakeFirst();
      if (Number(written.numUpdatedRows) === 0) throw conflict();
      return { value, version: expectedVersion + 1 };
    });
  }

  /** Plain values that are not edited through the API (installation id, license text). */
  async getRaw(key: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value;
  }

  async setRaw(key: string, value: string): Promise<void> {
    const updatedAt = this.now();
    await this.db.insertInto('settings').values({ key, value, version: 1, updatedAt })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updatedAt }))
      .execute();
  }
}
