// A store for @fastify/rate-limit kept in the database, so that every server process on it counts
// the same hits: one atomic upsert per hit (a new window starts when the stored one has ended),
// and expired rows are deleted now and then.
import { sql, type Kysely } from 'kysely';
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { Database } from '../db/tables';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** At most this often a process deletes the rows whose window has ended. */
const CLEAN_EVERY_MS = 60_000;

/** What @fastify/rate-limit hands a store's child(): the route's merged options, its route in `routeInfo`. */
type RouteOptions = Parameters<FastifyRateLimitStore['child']>[0] & { routeInfo?: { method?: string | string[]; url?: string } };

/** The store class @fastify/rate-limit instantiates (`store` option), bound to one database. */
export function databaseRateLimitStore(db: Kysely<Database>, now: () => number) {
  let nextClean = 0;

  async function hit(key: string, timeWindow: number): Promise<{ current: number; ttl: number }> {
    const at = now();
    const ends = at + timeWindow;
    const ended = sql<boolean>`rate_limits.window_ends <= ${at}`;
    const row = await db
      .insertInto('rateLimits')
      .values({ key, hits: 1, windowEnds: ends })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          hits: sql`case when ${ended} then 1 else rate_limits.hits + 1 end`,
          windowEnds: sql`case when ${ended} then ${ends} else rate_limits.window_ends end`,
        }),
      )
      .returning(['hits', 'windowEnds'])
      .executeTakeFirstOrThrow();
    if (at >= nextClean) {
      nextClean = at + CLEAN_EVERY_MS;
      await db.deleteFrom('rateLimits').where('windowEnds', '<=', at).execute();
    }
    return { current: Number(row.hits), ttl: Number(row.windowEnds) - at };
  }

  async function peek(key: string): Promise<{ current: number; ttl: number }> {
    const at = now();
    const row = await db.selectFrom('rateLimits').select(['hits', 'windowEnds']).where('key', '=', key).where('windowEnds', '>', at).executeTakeFirst();
    return row ? { current: Number(row.hits), ttl: Number(row.windowEnds) - at } : { current: 0, ttl: 0 };
  }

  return class DatabaseRateLimitStore implements FastifyRateLimitStore {
    /** Hits are counted per route: the client address is prefixed with the route's method and URL. */
    constructor(
      _options?: unknown,
      private readonly prefix = '',
    ) {}

    incr(address: string, callback: Callback, timeWindow: number): void {
      hit(this.prefix + address, timeWindow).then((result) => callback(null, result), callback);
    }

    read(address: string, callback: Callback): void {
      peek(this.prefix + address).then((result) => callback(null, result), callback);
    }

    child(options: RouteOptions): DatabaseRateLimitStore {
      const method = [options.routeInfo?.method ?? ''].flat().join(',');
      return new DatabaseRateLimitStore(undefined, `${method} ${options.routeInfo?.url ?? ''} `);
    }
  };
}
