/** The map page's calls: the base map, the realtime units (in pages, and one in full) and the address of a position. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { routes } from '../../../../../shared/routes';
import { mapConfigSchema, mapUnitsPageSchema, realtimeUnitsSchema, reverseGeocodeSchema, type MapUnit, type MapUnitsPage, type RealtimeUnit } from '../../../../../shared/schemas/tracking';
import { apiRequest } from '../../../app/api-client';
import { getSessionUser, subscribeSession } from '../../../app/session';
import { setPageLoading } from '../../../pwa/page-loads';

/** The first page is small, so that the first markers are drawn early. */
export const MAP_FIRST_PAGE = 1000;
/**
 * The pages after it: small enough that parsing and checking one (JSON and its schema) stays a
 * short task of the main thread, large enough that 100,000 units are 40 requests.
 */
export const MAP_PAGE = 2500;
/** The first page asks for this many chains of pages (docs/api.md, Realtime units in pages)... */
export const MAP_SEGMENTS = 8;
/** ...of which this many are read at once. */
export const MAP_PARALLEL = 4;

/** The base maps this user's map may draw, asked for once per session (and early: early-load.ts). */
export const mapConfigQuery = queryOptions({
  queryKey: ['user', 'map-config'],
  queryFn: ({ signal }) => apiRequest(routes.getMapConfig.method, routes.getMapConfig.path, { schema: mapConfigSchema, signal }),
  staleTime: Infinity,
});

export function useMapConfig() {
  return useQuery(mapConfigQuery);
}

/** One page of the map's view: the first (with `segments`) or the next of a chain (`cursor`). */
export type MapPageFetch = (query: { cursor: string } | { segments: number }, limit: number, signal: AbortSignal) => Promise<MapUnitsPage>;

const fetchMapPage: MapPageFetch = (query, limit, signal) => {
  const params = new URLSearchParams({ view: 'map', limit: String(limit) });
  if ('cursor' in query) params.set('cursor', query.cursor);
  else params.set('segments', String(query.segments));
  return apiRequest(routes.getRealtimeUnits.method, `${routes.getRealtimeUnits.path}?${params.toString()}`, { schema: mapUnitsPageSchema, signal });
};

/** A first page asked for before the map page was shown is used for at most this long after it was asked for. */
export const EARLY_PAGE_MAX_AGE_MS = 10_000;

/** The first page asked for early (prefetchMapUnits), for the session that asked, until a load takes it. */
let early: { user: unknown; at: number; page: Promise<MapUnitsPage>; controller: AbortController; forget(): void } | null = null;

/** The early page, taken out of reach: cancelled unless `keep`. */
function takeOut(keep = false) {
  const taken = early;
  early = null;
  taken?.forget();
  if (taken && !keep) taken.controller.abort();
  return taken;
}

/**
 * Asks for the first page of the map's view now, before the map page is mounted: opening the map
 * directly (a returning user's landing page), the page's modules, its texts and the user's settings
 * are still loading while the server reads the first units. The first load within
 * EARLY_PAGE_MAX_AGE_MS takes the answer instead of asking again. An early page nobody takes is
 * dropped after that time, and at once when the session ends or changes (its units go with it, as
 * the query cache's do); a load never takes another session's.
 */
export function prefetchMapUnits(fetchPage: MapPageFetch = fetchMapPage, now: () => number = Date.now): void {
  if (early && now() - early.at <= EARLY_PAGE_MAX_AGE_MS) return;
  takeOut();
  const controller = new AbortController();
  const page = fetchPage({ segments: MAP_SEGMENTS }, MAP_FIRST_PAGE, controller.signal);
  // A failed early page is asked for again by the load that would have taken it.
  page.catch(() => undefined);
  const user = getSessionUser();
  const dropIfMine = () => {
    if (early?.page === page) takeOut();
  };
  const stopWatching = subscribeSession(() => {
    if (getSessionUser() !== user) dropIfMine();
  });
  const expiry = setTimeout(dropIfMine, EARLY_PAGE_MAX_AGE_MS);
  const forget = () => {
    stopWatching();
    clearTimeout(expiry);
  };
  early = { user, at: now(), page, controller, forget };
}

/** The early first page, once, if it is this session's and fresh; an unused one is cancelled. */
function takeEarlyPage(signal: AbortSignal, now: () => number): Promise<MapUnitsPage> | null {
  const fresh = early !== null && early.user === getSessionUser() && now() - early.at <= EARLY_PAGE_MAX_AGE_MS;
  const taken = takeOut(fresh);
  if (!taken || !fresh) return null;
  signal.addEventListener('abort', () => taken.controller.abort(), { once: true });
  return taken.page;
}

/** Lets the browser draw and handle input between two pages. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Every unit the caller may see in the map's view: a small first page, which also names the
 * chains of pages that hold the rest (`segments`), then those chains, MAP_PARALLEL at a time, each
 * page handed to `onPage` as it arrives. The server's time for a page (most of it reading the
 * database) overlaps with the others' and with the browser's. The first page may have been asked
 * for already (prefetchMapUnits).
 */
export async function loadMapUnitPages(
  onPage: (units: readonly MapUnit[]) => void,
  signal: AbortSignal,
  fetchPage: MapPageFetch = fetchMapPage,
  now: () => number = Date.now,
): Promise<void> {
  const fetchFirst = () => fetchPage({ segments: MAP_SEGMENTS }, MAP_FIRST_PAGE, signal);
  const earlyPage = takeEarlyPage(signal, now);
  const first = earlyPage ? await earlyPage.catch(() => (signal.aborted ? null : fetchFirst())) : await fetchFirst();
  if (signal.aborted || !first) return;
  onPage(first.units);
  const chains = [first.next, ...(first.segments ?? [])].filter((cursor): cursor is string => cursor !== null);
  // One failed page ends the load: the chains still running stop with it.
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  const readChains = async () => {
    for (let cursor = chains.shift(); cursor !== undefined; cursor = chains.shift()) {
      let next: string | null = cursor;
      while (next !== null) {
        const page: MapUnitsPage = await fetchPage({ cursor: next }, MAP_PAGE, stop.signal);
        if (stop.signal.aborted) return;
        onPage(page.units);
        next = page.next;
        await nextTask();
      }
    }
  };
  try {
    await Promise.all(
      Array.from({ length: Math.min(MAP_PARALLEL, chains.length) }, () =>
        readChains().catch((error: unknown) => {
          stop.abort();
          throw error;
        }),
      ),
    );
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

export interface MapUnitsLoad {
  /** A complete load has ended at least once. */
  ready: boolean;
  /** Pages are still coming. */
  loading: boolean;
  /** The last load's failure, until the next load starts. */
  error: unknown;
  /** Loads every page again (a revoked or granted unit, a live channel back after a break). */
  reload(): void;
}

interface LoadTarget {
  beginLoad(): void;
  addPage(units: readonly MapUnit[]): void;
  endLoad(): void;
}

let loadCount = 0;

/** Fills `target` with every unit in the map's view, at once and again on `reload`; a new load cancels the one under way. */
export function useMapUnits(target: LoadTarget): MapUnitsLoad {
  const [state, setState] = useState<{ ready: boolean; loading: boolean; error: unknown }>({ ready: false, loading: true, error: null });
  const [round, setRound] = useState(0);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    abort.current?.abort();
    abort.current = controller;
    setState((s) => ({ ...s, loading: true, error: null }));
    target.beginLoad();
    // Until its pages are in, the service worker's install waits (pwa/page-loads.ts).
    const holder = `map-units-${++loadCount}`;
    setPageLoading(holder, true);
    loadMapUnitPages((units) => target.addPage(units), controller.signal)
      .then(
        () => {
          if (controller.signal.aborted) return;
          target.endLoad();
          setState({ ready: true, loading: false, error: null });
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setState((s) => ({ ...s, loading: false, error }));
        },
      )
      .finally(() => setPageLoading(holder, false));
    return () => controller.abort();
  }, [target, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { ...state, reload };
}

/** One unit in full (driver, outputs, voltages...), fetched when it is selected; null when the caller may no longer see it. */
export function useRealtimeUnit(imei: string | null, hasPosition: boolean) {
  return useQuery({
    // A first position brings state the details show: asked again then.
    queryKey: ['user', 'realtime-unit', imei, hasPosition],
    queryFn: async ({ signal }): Promise<RealtimeUnit | null> => {
      const query = new URLSearchParams({ imei: imei ?? '' });
      const units = await apiRequest(routes.getRealtimeUnits.method, `${routes.getRealtimeUnits.path}?${query.toString()}`, { schema: realtimeUnitsSchema, signal });
      return units[0] ?? null;
    },
    enabled: imei !== null,
    gcTime: 60_000,
  });
}

/**
 * Three decimals are about 100 m: a unit creeping along does not ask again for every position, and
 * units parked close together share one answer.
 */
export function roundedCoordinate(value: number): number {
  return Math.round(value * 1000) / 1000;
}

export function useReverseGeocode(position: { lat: number; lon: number } | null) {
  const lat = position ? roundedCoordinate(position.lat) : null;
  const lon = position ? roundedCoordinate(position.lon) : null;
  return useQuery({
    queryKey: ['user', 'geocode', lat, lon],
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({ lat: String(lat), lon: String(lon) });
      return apiRequest(routes.reverseGeocode.method, `${routes.reverseGeocode.path}?${query.toString()}`, { schema: reverseGeocodeSchema, signal });
    },
    enabled: lat !== null && lon !== null,
    staleTime: Infinity,
    gcTime: 30 * 60_000,
    // The previous address stays while the next one is on its way, instead of flickering to "loading".
    placeholderData: keepPreviousData,
  });
}
