// One person, one username, whatever its letter case: `Alice` and `alice` are one name. Every place
// that makes a person (the console and API, SCIM, the CSV import, the first sign-in through a
// third-party provider) asks usernameTaken first, and the database refuses a second one itself (the
// unique index of migration 0032_username_case), so two parallel writes cannot both win. Sign-in
// finds a person by their name in any case.
//
// Letter case is folded for ASCII letters only, as the user search folds (server/db/search.ts):
// SQLite's lower() folds ASCII only; on PostgreSQL the C collation makes lower() do the same, so both
// databases and this module agree on which names are one.
//
// Databases from before 0032 may hold case twins (`Admin` beside `admin`). They are kept, each
// signing in with its own exact spelling (a name typed in another case finds no one then: it would
// be ambiguous), and the server names them in a warning at every start (reportUsernameTwins) so that
// an administrator can delete or replace one of each pair.
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Ctx } from '../context';
import type { Database } from '../db/tables';
import type { Engine } from '../db/connect';
import { loweredUserColumn } from '../db/search';
import type { UserRow } from './actor';

/** A username with its ASCII letters in lower case: the key under which names are one (as the database folds). */
export const usernameKey = (username: string) => username.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

/** "users.username is `username` in any letter case", answered from the index of lower(username). */
function sameUsername(engine: Engine, username: string): RawBuilder<SqlBool> {
  const value = engine === 'postgres' ? sql`lower(cast(${username} as text) collate "C")` : sql`lower(${username})`;
  return sql<SqlBool>`${loweredUserColumn(engine, 'username')} = ${value}`;
}

/** Whether an account has `username` in any letter case. */
export async function usernameTaken(ctx: Ctx, username: string): Promise<boolean> {
  return !!(await ctx.db.selectFrom('users').select('id').where(sameUsername(ctx.engine, username)).limit(1).executeTakeFirst());
}

/** The account whose username is `username`: spelt exactly, else the only one in another letter case. */
export async function accountByUsername(ctx: Ctx, username: string): Promise<UserRow | undefined> {
  const rows = await ctx.db.selectFrom('users').selectAll().where(sameUsername(ctx.engine, username)).limit(3).execute();
  return rows.find((row) => row.username === username) ?? (rows.length === 1 ? rows[0] : undefined);
}

/** The usernames that differ only in letter case, in groups (each group one folded name, oldest first). */
async function usernameTwins(db: Kysely<Database>, engine: Engine): Promise<string[][]> {
  const folded = loweredUserColumn(engine, 'username');
  const rows = await db
    .selectFrom('users')
    .select(['username', folded.as('key')])
    .where(
      folded,
      'in',
      db
        .selectFrom('users')
        .select(folded.as('key'))
        .groupBy(folded)
        .having((eb) => eb.fn.countAll(), '>', 1),
    )
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  const groups = new Map<string, string[]>();
  for (const row of rows) groups.set(String(row.key), [...(groups.get(String(row.key)) ?? []), row.username]);
  return [...groups.values()];
}

/** A warning naming the case twins an older database holds (none: nothing is logged). */
export async function reportUsernameTwins(db: Kysely<Database>, engine: Engine, log: FastifyBaseLogger): Promise<void> {
  const twins = await usernameTwins(db, engine);
  if (!twins.length) return;
  log.warn(
    { usernameTwins: twins },
    `Usernames that differ only in letter case (kept from before usernames were unique in any case; each signs in with its exact spelling): ${twins.map((group) => group.join(' / ')).join('; ')}. Delete or replace one of each group in the console`,
  );
}
