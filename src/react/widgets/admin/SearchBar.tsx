// Search by field: which field, and the text, sent after the search debounce (50 ms) of typing.
import { useEffect, useId, useRef, useState } from 'react';
import { TIMING } from '../../../core/config';
import { useT } from '../../i18n';
import * as ui from '../ui.css';
import * as styles from './admin.css';

export interface SearchBarProps<P extends string> {
  /** The fields to search by, with their labels; one field needs no choice. */
  fields: readonly { value: P; label: string }[];
  onSearch: (field: P, text: string) => void;
}

export function SearchBar<P extends string>({ fields, onSearch }: SearchBarProps<P>) {
  const t = useT();
  const id = useId();
  const [field, setField] = useState<P | undefined>(fields[0]?.value);
  const [text, setText] = useState('');
  const report = useRef(onSearch);
  report.current = onSearch;
  const first = useRef(true);

  useEffect(() => {
    // Nothing typed yet: the list is already loading its first page.
    if (first.current) {
      first.current = false;
      return;
    }
    const timer = setTimeout(() => field && report.current(field, text.trim()), TIMING.searchDebounceMs);
    return () => clearTimeout(timer);
  }, [field, text]);

  return (
    <div className={styles.inline} role="search">
      {fields.length > 1 && (
        <div className={styles.control}>
          <label htmlFor={`${id}-field`} className={styles.controlLabel}>
            {t('admin:search.field')}
          </label>
          <select id={`${id}-field`} className={styles.select} value={field} onChange={(event) => setField(event.currentTarget.value as P)}>
            {fields.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className={styles.control}>
        <label htmlFor={`${id}-text`} className={styles.controlLabel}>
          {t('admin:search.label')}
        </label>
        <input
          id={`${id}-text`}
          type="search"
          className={`${ui.input} ${styles.searchInput}`}
          value={text}
          placeholder={t('admin:search.placeholder', { field: fields.find((option) => option.value === field)?.label ?? '' })}
          onChange={(event) => setText(event.currentTarget.value)}
        />
      </div>
    </div>
  );
}
