// Settings kept as JSON documents in the `settings` table (login policy, console config, the
// installation id, the license), each with a version for optimistic concurrency.
import { ScopedValue } from './async-scope';
import { PostgresAdapter, type Kysely } from 'kysely';
import type { Database } from './db/tables';
import { preparedOnPostgres } from './db/connect';
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
const documentKeys = Object.keys(defaults) as (keyof Documents)[];

interface Parsed {
  version: number;
  entry: Versioned<unknown>;
}

/** The stored document merged over the defaults, so settings added later get their default. */
function parse<K extends keyof Documents>(key: K, row: { value: string; version: number } | undefined): Versioned<Documents[K]> {
  return { value: row ? { ...defaults[key](), ...JSON.parse(row.value) } : defaults[key](), version: row?.version ?? 1 };
}

type Versions = Map<string, number>;

/** The stored versions one request has seen: read at its first settings read, shared by the rest. */
const requestScope = new ScopedValue<{ versions?: Promise<Versions> }>('settings snapshot');

/** Runs one API request's work: its settings reads check the stored versions once, at the first. */
export function withSettingsSnapshot<T>(work: () => Promise<T>): Promise<T> {
  return requestScope.run({}, work);
}

/**
 * Reads check the stored versions of the documents (one primary-key query, once per request) and
 * reuse the parsed document while its version is unchanged, so a save through any process is
 * followed by every process from the next request it starts. Saves merge into the stored document
 * inside one transaction.
 */
export class SettingsStore {
  private parsed = new Map<string, Parsed>();
  /** Asked at least once per request: compiled once (and prepared on PostgreSQL). */
  private readonly versionsQuery;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number,
  ) {
    this.versionsQuery = db.selectFrom('settings').select(['key', 'version']).where('key', 'in', documentKeys).compile();
    preparedOnPostgres(this.versionsQuery.sql);
  }

  async get<K extends keyof Documents>(key: K): Promise<Versioned<Documents[K]>> {
    // A document never saved has no row: version 1, the defaults.
    const version = (await this.versions()).get(key) ?? 1;
    const cached = this.parsed.get(key);
    if (cached && cached.version === version) return cached.entry as Versioned<Documents[K]>;
    const row = await this.db.selectFrom('settings').select(['value', 'version']).where('key', '=', key).executeTakeFirst();
    const entry = parse(key, row);
    this.parsed.set(key, { version: entry.version, entry });
    return entry;
  }

  /** The document as last read by this process, unchecked against the stored version: a guess that
   *  the caller must confirm with get() before acting on it (server/auth/gate.ts). */
  lastRead<K extends keyof Documents>(key: K): Versioned<Documents[K]> | undefined {
    return this.parsed.get(key)?.entry as Versioned<Documents[K]> | undefined;
  }

  /** The stored versions as another statement of this request read them (null: no row yet), when
   *  the request has not read them itself: its later reads check against these, as they would
   *  against the version query's. The session lookup reads them (server/auth/sessions.ts), so a
   *  signed-in request runs no version query of its own. */
  adoptVersions(versions: Record<keyof Documents, number | null>): void {
    const scope = requestScope.getStore();
    if (!scope || scope.versions) return;
    const known: Versions = new Map();
    for (const key of documentKeys) if (versions[key] !== null) known.set(key, versions[key]);
    scope.versions = Promise.resolve(known);
  }

  private versions(): Promise<Versions> {
    const scope = requestScope.getStore();
    if (!scope) return this.readVersions();
    scope.versions ??= this.readVersions();
    return scope.versions;
  }

  private async readVersions(): Promise<Versions> {
    const { rows } = await this.db.executeQuery(this.versionsQuery);
    return new Map(rows.map((row) => [row.key, row.version]));
  }

  /**
   * Applies `change` to the document as stored now, when `expectedVersion` is its version; 409
   * otherwise. One transaction: the row is created when missing (so two first saves meet on one
   * row), locked, merged into and written with the version checked by the writing statement.
   */
  async update<K extends keyof Documents>(key: K, expectedVersion: number, change: (current: Documents[K]) => Documents[K]): Promise<Versioned<Documents[K]>> {
    const updatedAt = this.now();
    return this.db
      .transaction()
      .execute(async (trx) => {
        await trx
          .insertInto('settings')
          .values({ key, value: '{}', version: 1, updatedAt })
          .onConflict((oc) => oc.column('key').doNothing())
          .execute();
        // FOR UPDATE on PostgreSQL; SQLite's write transaction already holds the database.
        let locked = trx.selectFrom('settings').select(['value', 'version']).where('key', '=', key);
        if (trx.getExecutor().adapter instanceof PostgresAdapter) locked = locked.forUpdate();
        const stored = parse(key, await locked.executeTakeFirstOrThrow());
        if (stored.version !== expectedVersion) throw conflict();
        const value = change(stored.value);
        const written = await trx
          .updateTable('settings')
          .set({ value: JSON.stringify(value), version: expectedVersion + 1, updatedAt })
          .where('key', '=', key)
          .where('version', '=', expectedVersion)
          .executeTakeFirst();
        if (Number(written.numUpdatedRows) === 0) throw conflict();
        return { value, version: expectedVersion + 1 };
      })
      .finally(() => {
        // Later reads in this request see the document as saved (or as another process saved it).
        const scope = requestScope.getStore();
        if (scope) scope.versions = undefined;
      });
  }

  /** Plain values that are not edited through the API (installation id, license text). */
  async getRaw(key: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value;
  }

  async setRaw(key: string, value: string): Promise<void> {
    const updatedAt = this.now();
    await this.db
      .insertInto('settings')
      .values({ key, value, version: 1, updatedAt })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updatedAt }))
      .execute();
  }
}
