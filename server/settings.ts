// Settings kept as JSON documents in the `settings` table (login policy, console config, the
// installation id, the license), each with a version for optimistic concurrency.
import type { Kysely } from 'kysely';
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

/** Reads are cached briefly (every request needs the token header name); a write here clears
 *  the cache at once, other processes see it within CACHE_MS. */
const CACHE_MS = 2_000;

export class SettingsStore {
  private cache = new Map<string, { at: number; entry: Versioned<unknown> }>();

  constructor(private readonly db: Kysely<Database>, private readonly now: () => number) {}

  async get<K extends keyof Documents>(key: K): Promise<Versioned<Documents[K]>> {
    const cached = this.cache.get(key);
    if (cached && this.now() - cached.at < CACHE_MS) return cached.entry as Versioned<Documents[K]>;
    const row = await this.db.selectFrom('settings').select(['value', 'version']).where('key', '=', key).executeTakeFirst();
    // Stored documents are merged over the defaults, so settings added later get their default.
    const value = row ? { ...defaults[key](), ...JSON.parse(row.value) } : defaults[key]();
    const entry = { value, version: row?.version ?? 1 };
    this.cache.set(key, { at: this.now(), entry });
    return entry;
  }

  /** Replaces the document when `expectedVersion` is current; 409 otherwise. */
  async put<K extends keyof Documents>(key: K, value: Documents[K], expectedVersion: number): Promise<Versioned<Documents[K]>> {
    this.cache.delete(key);
    const json = JSON.stringify(value);
    const updatedAt = this.now();
    const updated = await this.db.updateTable('settings')
      .set({ value: json, version: expectedVersion + 1, updatedAt })
      .where('key', '=', key).where('version', '=', expectedVersion)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      const exists = await this.db.selectFrom('settings').select('key').where('key', '=', key).executeTakeFirst();
      if (exists || expectedVersion !== 1) throw conflict();
      await this.db.insertInto('settings').values({ key, value: json, version: 2, updatedAt }).execute();
    }
    return { value, version: expectedVersion + 1 };
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
