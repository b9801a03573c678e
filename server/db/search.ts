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

/**
 * How the matches of a search are read. 'range': the prefix range of the search index, then sorted
 * into the list's order (cheap for a few hundred matches, a sort of thousands for a broad prefix).
 * 'walk': the index of the list's order, filtered row by row; a page of a broad search is found
 * after a few hundred rows, with no sort (but a narrow one would visit every row).
 */
export type SearchPlan = 'range' | 'walk';

/** Below this many matches a sort costs next to nothing: no need to weigh the plans. */
const SORT_IS_CHEAP = 500;

/**
 * The cheaper plan for a page ending at row `pageEnd` of `matches` matches among `population` rows:
 * a walk visits about pageEnd × population / matches rows, a range sorts `matches` entries.
 * SQLite's planner always takes the range (it cannot weigh the sort against a LIMIT), so it is
 * told; PostgreSQL's planner weighs both from its statistics (see the seed's ANALYZE) and is left to it.
 */
export async function searchPlan(engine: Engine, matches: number, pageEnd: number, population: () => Promise<number>): Promise<SearchPlan> {
  if (engine === 'postgres' || matches < SORT_IS_CHEAP) return 'range';
  return (pageEnd * (await population())) / matches < matches ? 'walk' : 'range';
}

/** Users whose `prop` starts with `value`, ASCII letters in either case (an index range, or with
 *  plan 'walk' on SQLite a condition no index answers, so that the order's index is walked). */
export function userStartsWith(engine: Engine, prop: UserSearchProp, value: string, plan: SearchPlan = 'range'): Expression<SqlBool> {
  const lowered = engine === 'sqlite' && plan === 'walk' ? sql`lower(+${sql.ref(`users.${prop}`)})` : loweredUserColumn(engine, prop);
  const low = engine === 'postgres' ? sql`lower(cast(${value} as text) collate "C")` : sql`lower(${value})`;
  return sql<SqlBool>`(${lowered} >= ${low} and ${lowered} < ${low} || ${TOP})`;
}
