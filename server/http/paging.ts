// Server-side paging and search (list calls): page/size from the shared pageQuery, a total, and
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

export interface PageOptions {
  /** The row's unique column (e.g. 'users.id'): the page is read as "rows whose key is among the
   *  page's keys", so an index can answer filter, order and key without touching the other rows. */
  key?: string;
  /** The query whose page is read, when it should differ from the counted one once the total is
   *  known (the same rows, read by another plan: see server/db/search.ts). */
  pageQuery?: (total: number) => AnyQuery | Promise<AnyQuery>;
}

/**
 * One page of `query` and the total of its matches: the count, then (unless the page is past the
 * end) the page's rows in one statement.
 */
export async function paginate<Row, Item>(
  query: AnyQuery,
  request: PageRequest,
  toItem: (row: Row) => Item | Promise<Item>,
  options: PageOptions = {},
): Promise<PagedList<Item>> {
  const counted = await query
    .clearSelect()
    .clearOrderBy()
    .select((eb) => eb.fn.countAll().as('total'))
    .executeTakeFirst();
  const total = Number((counted as { total?: unknown } | undefined)?.total ?? 0);
  const offset = (request.page - 1) * request.size;
  let rows: Row[] = [];
  if (offset < total) {
    const page = (options.pageQuery ? await options.pageQuery(total) : query).limit(request.size).offset(offset);
    const { key } = options;
    rows = await (key ? query.clearWhere().where(sql.ref(key), 'in', page.clearSelect().select(sql.ref(key).as('key'))) : page).execute();
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
