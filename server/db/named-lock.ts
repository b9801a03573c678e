// A lock by name for the rest of a change's transaction, where a check and the write it guards must
// not interleave with another change's (one plan per app, the tenant tree's paths), and locks of
// users' rows. PostgreSQL takes a transaction-scoped advisory lock or the rows' locks; SQLite's write
// transaction holds the whole database already.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from './tables';
import type { Ctx } from '../context';

export async function lockByName(ctx: Ctx, name: string): Promise<void> {
  if (ctx.engine === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${`iam-console ${name}`}))`.execute(ctx.db);
}

/** Locks the users `where` finds for the rest of the change's transaction (PostgreSQL: FOR UPDATE,
 *  in id order, so two lockers never wait on each other crosswise; SQLite as above): changes that
 *  read them first run one after the other, each reading what the one before committed, where a
 *  version read before the change would answer 409 and a check read before another's move would
 *  pass on what is no longer so. */
export async function lockUsers(ctx: Ctx, where: (eb: ExpressionBuilder<Database, 'users'>) => Expression<SqlBool>): Promise<void> {
  if (ctx.engine === 'postgres') await ctx.db.selectFrom('users').select('id').where(where).orderBy('id').forUpdate().execute();
}
