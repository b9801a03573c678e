// A server-paged list (usePagedList) as a data table with its pager below, the pager once the
// first page has come. A failed reload keeps the rows shown (the HTTP client has said why); only
// a list that never loaded shows the error with its retry.
import { DataTable, type DataTableProps } from './DataTable';
import { Pager } from './Pager';
import type { PagedListState, PageQuery } from './usePagedList';

export type PagedTableProps<T, Q extends PageQuery, K extends string = string> = Omit<DataTableProps<T, K>, 'rows' | 'loading' | 'failed' | 'onRetry'> & {
  list: PagedListState<T, Q>;
};

export function PagedTable<T, Q extends PageQuery, K extends string = string>({ list, ...table }: PagedTableProps<T, Q, K>) {
  return (
    <>
      <DataTable {...table} rows={list.data?.list} loading={list.loading} failed={list.failed && !list.data} onRetry={list.reload} />
      {list.data && <Pager page={list.query.page} size={list.query.size} total={list.data.pager.total} onChange={list.turn} />}
    </>
  );
}
