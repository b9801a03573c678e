// Server-side paging and search (§7 list calls): page/size from the shared pageQuery, a total, and
// a case-insensitive "contains" search on one indexed column.
import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { PagedList } from '../../src/core/types';
import type { Engine } from '../db/connect';

export interface PageRequest {
  page: number;
  size: number;
  searchProp?: string;
  searchValue?: string;
}

/** `column` contains `value` (LIKE wildcards in the value are taken literally). */
export function contains(engine: Engine, column: string, value: string): Expression<SqlBool> {
  const pattern = `%${value.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  const operator = engine === 'postgres' ? sql`ilike` : sql`like`;
  return sql<SqlBool>`${sql.ref(column)} ${operator} ${pattern} escape '\\'`;
}

// Kysely's builder types are too deep to carry generically here; the callers keep theirs.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyQuery = SelectQueryBuilder<any, any, any>;

/**
 * One page of `query` and the total of its matches. With `key` (the row's unique column, e.g.
 * 'users.id') the page is read in two steps: the keys of the page first (an index can answer
 * filter, order and key without touching rows, so thousands of matches sort cheaply), then
 * those rows by key, in the same order.
 */
export async function paginate<Row, Item>(
  query: AnyQuery,
  request: PageRequest,
  toItem: (row: Row) => Item | Promise<Item>,
  key?: string,
): Promise<PagedList<Item>> {
  const counted = await query.clearSelect().clearOrderBy().select((eb) => eb.fn.countAll().as('total')).executeTakeFirst();
  const total = Number((counted as { total?: unknown } | undefined)?.total ?? 0);
  const page = query.limit(request.size).offset((request.page - 1) * request.size);
  let rows: Row[];
  if (key) {
    const keys = (await page.clearSelect().select(sql.ref(key).as('key')).execute()).map((row) => (row as { key: unknown }).key);
    rows = keys.length ? ((await query.clearWhere().where(sql.ref(key), 'in', keys).execute()) as Row[]) : [];
  } else {
    rows = (await page.execute()) as Row[];
  }
  return {
    list: await Promise.all(rows.map(toItem)),
    query: {
      ...(request.searchProp ? { searchProp: request.searchProp } : {}),
      ...(request.searchValue ? { searchValue: request.searchValue } : {}),
    },
    pager: { page: request.page, size: request.size, total },
  };
}
