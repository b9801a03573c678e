// A server-paged list: the query (page 1, size 10 by default, the UI constants), changed by search, sort and
// filters (each going back to page 1), and the latest page the server answered.
import { useCallback, useState } from 'react';
import { PAGING } from '../../../core/config';
import type { PagedList } from '../../../core/types';
import { useResource, type Resource } from '../useResource';
import { useLocale } from '../../i18n';

export interface PageQuery {
  page: number;
  size: number;
}

export interface PagedListState<T, Q extends PageQuery> extends Resource<PagedList<T>> {
  query: Q;
  /** Changes filters, search or sort, and goes back to the first page. */
  refine: (changes: Partial<Omit<Q, 'page' | 'size'>>) => void;
  turn: (page: number, size: number) => void;
}

/** `paused`: nothing is read meanwhile (the screen shows something else in the list's place). */
export function usePagedList<T, Q extends PageQuery>(
  load: (query: Q) => Promise<PagedList<T>>,
  initial: Omit<Q, 'page' | 'size'>,
  paused = false,
): PagedListState<T, Q> {
  const [query, setQuery] = useState<Q>(() => ({ page: PAGING.page, size: PAGING.size, ...initial }) as Q);
  // Answers may carry texts in the reader's language (system messages): a language change asks again.
  const locale = useLocale();
  const resource = useResource<PagedList<T> | undefined>(() => (paused ? Promise.resolve(undefined) : load(query)), [query, locale, paused]);
  const refine = useCallback((changes: Partial<Omit<Q, 'page' | 'size'>>) => setQuery((current) => ({ ...current, ...changes, page: 1 })), []);
  const turn = useCallback((page: number, size: number) => setQuery((current) => ({ ...current, page, size })), []);
  return { ...resource, data: resource.data, query, refine, turn };
}
