import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { routes } from '../../../../../shared/routes';
import { UNIT_PAGE_MAX, unitPageSchema, type UnitListItem, type UnitListSort, type UnitPage } from '../../../../../shared/schemas/units';
import { apiRequest } from '../../../app/api-client';

export interface UnitPageRequest {
  q?: string;
  sort?: UnitListSort;
  limit?: number;
  cursor?: string | null;
  signal?: AbortSignal;
}

/** One page of the units the caller may see (GET /api/v1/user/units?q=&sort=&limit=&cursor=): searched and ordered by the server. */
export function fetchUnitPage({ q, sort, limit, cursor, signal }: UnitPageRequest): Promise<UnitPage> {
  const params = new URLSearchParams();
  if (q?.trim()) params.set('q', q.trim());
  params.set('sort', sort ?? 'name.asc');
  if (limit) params.set('limit', String(limit));
  if (cursor) params.set('cursor', cursor);
  return apiRequest(routes.getUnits.method, `${routes.getUnits.path}?${params.toString()}`, { schema: unitPageSchema, ...(signal ? { signal } : {}) });
}

/** Every unit matching a search, page after page of the largest size (a unit picker's "select all matching"). */
export async function fetchAllUnits(q: string, signal?: AbortSignal): Promise<UnitListItem[]> {
  const units: UnitListItem[] = [];
  let cursor: string | null = null;
  do {
    const page: UnitPage = await fetchUnitPage({ q, limit: UNIT_PAGE_MAX, cursor, ...(signal ? { signal } : {}) });
    units.push(...page.units);
    cursor = page.nextCursor;
  } while (cursor);
  return units;
}

/**
 * Every unit the caller may see, read in pages (each far under the API's answer limit), refreshed
 * while open so "last seen" stays true: for pages that look units up by IMEI.
 */
export function useUnits() {
  return useQuery({
    queryKey: ['units'],
    queryFn: ({ signal }) => fetchAllUnits('', signal),
    refetchInterval: 60_000,
  });
}

/** Rows per page of the units list and the pickers: a screenful or two, quick to answer. */
export const LIST_PAGE = 100;

/** The units list and the pickers: pages of a server-side search, loaded as the user scrolls. */
export function useUnitPages(q: string, sort: UnitListSort = 'name.asc', enabled = true) {
  const query = q.trim().toLowerCase().split(/\s+/).filter(Boolean).join(' ');
  return useInfiniteQuery({
    queryKey: ['units', 'pages', query, sort],
    queryFn: ({ signal, pageParam }) => fetchUnitPage({ q: query, sort, limit: LIST_PAGE, cursor: pageParam, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
    // Keep the rows of the last search on screen while the next one loads.
    placeholderData: (previous) => previous,
    staleTime: 30_000,
    // The pages loaded so far are read again while the list is open, so "last seen" stays true.
    refetchInterval: 60_000,
  });
}
