// A data table: a caption for assistive technology, sortable column headers (aria-sort), and the
// loading, error (with retry) and empty states in place of the rows. Rows come from the server page.
import { useRef, type ReactNode } from 'react';
import { useT } from '../../i18n';
import { Icon } from '../Icon';
import * as ui from '../ui.css';
import * as styles from './admin.css';
import { useOverflowing } from './useOverflowing';

type Order = 'asc' | 'desc';
export interface Sort<K extends string = string> {
  key: K;
  order: Order;
}

export interface Column<T, K extends string = string> {
  id: string;
  header: string;
  /** What the header cell shows instead of `header` (e.g. a "select all" checkbox named by it). */
  headerCell?: ReactNode;
  /** The cell's name, when its content would name it otherwise (a row's checkbox beside the value). */
  cellName?: (row: T) => string;
  cell: (row: T) => ReactNode;
  /** Sortable by this server-side key. */
  sortKey?: K;
  align?: 'end';
  /** Long free text that may wrap (other cells stay on one line). */
  wrap?: boolean;
}

export interface DataTableProps<T, K extends string = string> {
  caption: string;
  columns: readonly Column<T, K>[];
  rows: readonly T[] | undefined;
  rowKey: (row: T) => string;
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
  emptyText: string;
  sort?: Sort<K>;
  onSort?: (sort: Sort<K>) => void;
  /** On a phone, each row as a card (cells labelled by their column) instead of a wide table. */
  stackOnPhone?: boolean;
  /** Keep the last column (the row actions) in view when the table is wider than its box. */
  stickyActions?: boolean;
}

export function SortHeader<K extends string>({
  label,
  sortKey,
  sort,
  onSort,
}: {
  label: string;
  sortKey: K;
  sort?: Sort<K>;
  onSort?: (sort: Sort<K>) => void;
}) {
  const t = useT();
  const active = sort?.key === sortKey;
  const next: Order = active && sort?.order === 'asc' ? 'desc' : 'asc';
  return (
    <button
      type="button"
      className={styles.sortButton}
      onClick={() => onSort?.({ key: sortKey, order: next })}
      title={t(`admin:table.sort.${next}`, { column: label })}
    >
      {label}
      {active && <Icon name="chevronDown" className={`${styles.sortMark} ${sort?.order === 'asc' ? styles.sortMarkUp : ''}`} />}
    </button>
  );
}

export function DataTable<T, K extends string = string>({
  caption,
  columns,
  rows,
  rowKey,
  loading,
  failed,
  onRetry,
  emptyText,
  sort,
  onSort,
  stackOnPhone,
  stickyActions,
}: DataTableProps<T, K>) {
  const t = useT();
  const wrap = useRef<HTMLDivElement>(null);
  const overflowing = useOverflowing(wrap);
  const state = failed ? (
    <>
      {t('admin:table.failed')}{' '}
      <button type="button" className={ui.button.ghost} onClick={onRetry}>
        {t('console:status.retry')}
      </button>
    </>
  ) : !rows ? (
    t('console:loading')
  ) : !rows.length ? (
    emptyText
  ) : undefined;
  return (
    <div
      ref={wrap}
      className={styles.tableWrap}
      {...(overflowing ? { tabIndex: 0, role: 'region', 'aria-label': t('admin:table.scrollable', { caption }) } : {})}
    >
      <table className={`${styles.table} ${stackOnPhone ? styles.stacked : ''}`} aria-busy={loading || undefined}>
        <caption className={ui.visuallyHidden}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th
                key={column.id}
                scope="col"
                className={`${styles.th} ${column.align === 'end' ? styles.thEnd : ''} ${stickyActions && index === columns.length - 1 ? styles.stickyEnd : ''}`}
                aria-sort={column.sortKey && sort?.key === column.sortKey ? (sort.order === 'asc' ? 'ascending' : 'descending') : undefined}
              >
                {column.headerCell ??
                  (column.sortKey ? <SortHeader label={column.header} sortKey={column.sortKey} sort={sort} onSort={onSort} /> : column.header)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {state !== undefined ? (
            <tr>
              <td className={styles.stateCell} colSpan={columns.length} role={failed ? 'alert' : 'status'}>
                <div className={styles.stateText}>{state}</div>
              </td>
            </tr>
          ) : (
            rows?.map((row) => (
              <tr key={rowKey(row)} className={styles.row}>
                {columns.map((column, index) => (
                  <td
                    key={column.id}
                    className={`${styles.td} ${column.wrap ? '' : styles.nowrap} ${stickyActions && index === columns.length - 1 ? styles.stickyEnd : ''}`}
                    data-label={stackOnPhone ? column.header : undefined}
                    aria-label={column.cellName?.(row)}
                  >
                    {column.align === 'end' ? <div className={styles.rowActions}>{column.cell(row)}</div> : column.cell(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
