// Indexed user search: "starts with", case-insensitive for ASCII letters, as a range on an index of
// lower(column) (migration 0007_user_search_indexes), so that a search over 100 000 users and its
// count read only the matching index entries instead of every row (a `LIKE '%x%'` cannot use an index).
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Engine } from './connect';

/** The searchable user properties (each column has a lower(column) index). */
export type UserSearchProp = 'username' | 'realName' | 'email' | 'mobilePhone';

/** Sorts after every character, so [prefix, prefix + TOP) holds every string that starts with prefix. */
const TOP = '\u{10FFFF}';

/**
 * The column of this user property, lower-cased the way its index is: SQLite's lower() folds ASCII
 * only; on PostgreSQL the C collation makes lower() fold ASCII only too and compare code points, the
 * order a prefix range needs (the database's own collation may order by language rules).
 */
export function loweredUserColumn(engine: Engine, prop: UserSearchProp) {
  const column = sql.ref(`users.${prop}`);
  return engine === 'postgres' ? sql`lower(${column} collate "C")` : sql`lower(${column})`;
}

/** Users whose `prop` starts with `value`, ASCII letters in either case (an index range). */
export function userStartsWith(engine: Engine, prop: UserSearchProp, value: string): Expression<SqlBool> {
  const lowered = loweredUserColumn(engine, prop);
  const low = engine === 'postgres' ? sql`lower(cast(${value} as text) collate "C")` : sql`lower(${value})`;
  return sql<SqlBool>`(${lowered} >= ${low} and ${lowered} < ${low} || ${TOP})`;
}
