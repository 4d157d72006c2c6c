/**
 * A list page's search text, kept in the address as `?q=` (so a reload or a shared link keeps it):
 * the text as typed, its deferred value to filter with, and the setter.
 */
import { useDeferredValue, useState } from 'react';
import { useSearchParams } from 'react-router';

export function useSearchQuery(): { query: string; deferred: string; changeQuery: (value: string) => void } {
  const [params, setParams] = useSearchParams();
  const [query, setQuery] = useState(() => params.get('q') ?? '');
  const deferred = useDeferredValue(query);
  const changeQuery = (value: string) => {
    setQuery(value);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value.trim()) next.set('q', value);
        else next.delete('q');
        return next;
      },
      { replace: true },
    );
  };
  return { query, deferred, changeQuery };
}
