// The pager of a server-paged list: the range shown of the total, previous/next, and the page size.
import { useId } from 'react';
import { useT } from '../../i18n';
import * as ui from '../ui.css';
import * as styles from './admin.css';

const PAGE_SIZES = [10, 20, 50, 100] as const;

export interface PagerProps {
  page: number;
  size: number;
  total: number;
  onChange: (page: number, size: number) => void;
  /** The navigation's name when a page has more than one pager (landmarks must differ). */
  label?: string;
}

export function Pager({ page, size, total, onChange, label }: PagerProps) {
  const t = useT();
  const id = useId();
  const pages = Math.max(1, Math.ceil(total / size));
  const first = total ? (page - 1) * size + 1 : 0;
  const last = Math.min(page * size, total);
  return (
    <nav className={styles.pager} aria-label={label ?? t('admin:pager.label')}>
      <span role="status">{t('admin:pager.range', { first, last, total })}</span>
      <label htmlFor={id} className={ui.visuallyHidden}>
        {t('admin:pager.size')}
      </label>
      <select id={id} className={styles.select} value={size} onChange={(event) => onChange(1, Number(event.currentTarget.value))}>
        {PAGE_SIZES.map((option) => (
          <option key={option} value={option}>
            {t('admin:pager.perPage', { size: option })}
          </option>
        ))}
      </select>
      <button type="button" className={ui.button.secondary} disabled={page <= 1} onClick={() => onChange(page - 1, size)}>
        {t('admin:pager.previous')}
      </button>
      <span>{t('admin:pager.page', { page, pages })}</span>
      <button type="button" className={ui.button.secondary} disabled={page >= pages} onClick={() => onChange(page + 1, size)}>
        {t('admin:pager.next')}
      </button>
    </nav>
  );
}
