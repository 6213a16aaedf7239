/**
 * A page of the Users or Rooms list (docs/product/admin.md ADM4, ADM6). The server searches, filters, counts and
 * pages over every row; the tab asks for the page it shows: the search 300 ms after the last key, a new search or
 * filter from page 1, and the same page again when the dashboard reloads the list after an action. An answer to an
 * earlier question is dropped, so a slow answer never replaces a newer one.
 */
import { useEffect, useRef, useState } from 'react';
import type { AdminResult, ListQuery } from '../../lib/adminApi.ts';
import { t } from '../../i18n/i18n.ts';
import { errorText } from '../../i18n/errorText.ts';

const SEARCH_DEBOUNCE_MS = 300;

/** `value` once it has not changed for `ms` */
export function useDebounced<T>(value: T, ms = SEARCH_DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The page number of a search and its filters: back to 1 whenever they change. */
export function usePageOf(filters: string): [number, (page: number) => void] {
  const [paging, setPaging] = useState({ filters, page: 1 });
  return [paging.filters === filters ? paging.page : 1, (page) => setPaging({ filters, page })];
}

export interface PagedList<P> {
  answer: P | null;
  failed: string | null;
  loading: boolean;
}

/** Asks `load(query)` whenever the query (or `refresh`: the dashboard's reload) changes. */
export function usePagedList<P>(
  load: (query: ListQuery) => Promise<AdminResult<P>>,
  query: ListQuery,
  refresh: unknown,
): PagedList<P> {
  const [state, setState] = useState<PagedList<P>>({ answer: null, failed: null, loading: true });
  const asked = useRef(0);
  const key = JSON.stringify(query);
  useEffect(() => {
    const mine = ++asked.current;
    setState((s) => ({ ...s, loading: true }));
    void load(JSON.parse(key) as ListQuery).then((r) => {
      if (mine !== asked.current) return;
      setState((s) =>
        r.ok
          ? { answer: r.data, failed: null, loading: false }
          : {
              answer: s.answer,
              failed: r.message === null ? t('admin.listFailed') : errorText(null, r.message),
              loading: false,
            },
      );
    });
  }, [load, key, refresh]);
  return state;
}
