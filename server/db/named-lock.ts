// A lock by name for the rest of a change's transaction, where a check and the write it guards must
// not interleave with another change's (one plan per app, the tenant tree's paths). PostgreSQL takes
// a transaction-scoped advisory lock; SQLite's write transaction holds the whole database already.
import { sql } from 'kysely';
import type { Ctx } from '../context';

export async function lockByName(ctx: Ctx, name: string): Promise<void> {
  if (ctx.engine === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${`iam-console ${name}`}))`.execute(ctx.db);
}
