/**
 * The base map the page draws, as base-map.ts decides: the chosen style of those the server offers
 * once its JSON arrived, else the next, else the offline Natural Earth style (also when the map
 * configuration cannot be read). A style MapLibre could not draw counts as failed too, and a failed
 * style is remembered for the session, so that no later map waits for it again. A map is never
 * blank for longer than BLANK_MAP_MAX_MS: the offline map is drawn while a slow style is awaited.
 */
import { useQuery } from '@tanstack/react-query';
import type { StyleSpecification } from 'maplibre-gl';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BaseMap, BaseMapId } from '../../../../shared/schemas/tracking';
import { parseLanguage } from '../../app/preferences';
import { useMapConfig } from './api/map-api';
import { BLANK_MAP_MAX_MS, baseMapsOf, chooseBaseMap, loadBaseStyle, unreachableBaseMaps } from './base-map';
import { loadOfflineBasemap } from './offline-basemap';

export type ActiveBaseMap =
  | { kind: 'loading' }
  | { kind: 'remote'; base: BaseMap; style: StyleSpecification }
  | { kind: 'offline'; style: StyleSpecification }
  /** Not even the offline map could be prepared. */
  | { kind: 'failed' };

export interface BaseMapChoice {
  active: ActiveBaseMap;
  /** The base maps the user may switch between: those offered that have not failed. */
  choices: readonly BaseMap[];
  choose(id: BaseMapId): void;
  /** MapLibre could not draw this style: draw the next one, or the offline map. */
  fail(url: string): void;
}

const LOADING: ActiveBaseMap = { kind: 'loading' };

function sessionStore(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.sessionStorage : null;
  } catch {
    return null;
  }
}

/** One memory of unreachable styles for the page load, read from the session once. */
let unreachable: ReturnType<typeof unreachableBaseMaps> | null = null;
const unreachableStyles = () => (unreachable ??= unreachableBaseMaps(sessionStore()));

/** The offline style, once it is needed (its archive is read once per page load: offline-basemap.ts). */
function useOfflineBasemap(needed: boolean): ActiveBaseMap {
  const [basemap, setBasemap] = useState<ActiveBaseMap>(LOADING);
  useEffect(() => {
    if (!needed) return;
    let cancelled = false;
    loadOfflineBasemap().then(
      (style) => {
        if (!cancelled) setBasemap({ kind: 'offline', style });
      },
      (error: unknown) => {
        console.error('offline base map failed', error);
        if (!cancelled) setBasemap({ kind: 'failed' });
      },
    );
    return () => {
      cancelled = true;
      setBasemap(LOADING);
    };
  }, [needed]);
  return basemap;
}

export function useBaseMap(): BaseMapChoice {
  const config = useMapConfig();
  const offered = useMemo(() => baseMapsOf(config.data), [config.data]);
  const [chosen, setChosen] = useState<BaseMapId | null>(null);
  const [failed, setFailed] = useState<ReadonlySet<string>>(() => new Set(unreachableStyles().list()));
  // undefined while the configuration is on its way; null: the offline map.
  const candidate = config.isPending ? undefined : chooseBaseMap(offered, chosen, failed);
  const url = candidate?.url ?? null;

  const { i18n } = useTranslation();
  const language = parseLanguage(i18n.language) ?? 'en';
  const style = useQuery({
    // A self-hosted archive's style carries the labels' language.
    queryKey: ['map-style', url, candidate?.format === 'pmtiles' ? language : null],
    queryFn: ({ signal }) => (candidate ? loadBaseStyle(candidate, language, { signal }) : Promise.reject(new Error('no base map'))),
    enabled: url !== null,
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  // A style that cannot be reached is passed over (set while rendering: the next one is tried at once).
  if (url !== null && style.isError && !failed.has(url)) {
    console.warn(`base map ${url} cannot be reached, trying the next one`, style.error);
    unreachableStyles().add(url);
    setFailed(new Set(failed).add(url));
  }

  // A style still on its way after BLANK_MAP_MAX_MS: the offline map is drawn meanwhile.
  const [waitedFor, setWaitedFor] = useState<string | null>(null);
  const waiting = url !== null && style.isPending;
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => setWaitedFor(url), BLANK_MAP_MAX_MS);
    return () => clearTimeout(timer);
  }, [waiting, url]);
  const slow = waiting && waitedFor === url;

  const offline = useOfflineBasemap(candidate === null || slow);
  const remote = useMemo<ActiveBaseMap | null>(
    () => (candidate && style.data && style.isSuccess ? { kind: 'remote', base: candidate, style: style.data } : null),
    [candidate, style.data, style.isSuccess],
  );
  const next = candidate === null ? offline : (remote ?? (slow ? offline : LOADING));

  // While the next style's JSON is on its way, the map keeps the one it has.
  const [shown, setShown] = useState<ActiveBaseMap>(LOADING);
  if (next.kind !== 'loading' && next !== shown) setShown(next);

  const choose = useCallback((id: BaseMapId) => setChosen(id), []);
  const fail = useCallback((failedUrl: string) => {
    console.warn(`base map ${failedUrl} could not be drawn, trying the next one`);
    unreachableStyles().add(failedUrl);
    setFailed((before) => new Set(before).add(failedUrl));
  }, []);
  const choices = useMemo(() => offered.filter((base) => !failed.has(base.url)), [offered, failed]);
  return { active: next.kind === 'loading' ? shown : next, choices, choose, fail };
}
