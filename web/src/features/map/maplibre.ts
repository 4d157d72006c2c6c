/**
 * MapLibre, loaded when the map is first shown. MapLibre 6 finds its worker next to its own module
 * file, which a bundle does not keep; the worker is built from maplibre-worker.ts (MapLibre's own,
 * with one answer made smaller) and named here.
 */
import type * as maplibregl from 'maplibre-gl';
import workerUrl from './maplibre-worker?worker&url';

type MapLibre = typeof maplibregl;

/**
 * MapLibre's workers (its default is one outside Safari). Each source is given the next worker in
 * turn, so the offline base map's land and borders and the units each have one: with one worker,
 * the units' first updates waited behind the 20 MB of land being parsed and cut into tiles (the
 * first markers 8 s after opening the page in bench:map at 50,000 units on a busy machine). Also
 * on two cores three did better than one (all 50,000 drawn in 9.5 s against 13.6 s).
 */
export const MAP_WORKERS = 3;

let loading: Promise<MapLibre> | null = null;

export function loadMapLibre(): Promise<MapLibre> {
  loading ??= Promise.all([import('maplibre-gl'), import('pmtiles')]).then(([maplibre, { Protocol }]) => {
    maplibre.setWorkerUrl(workerUrl);
    maplibre.setWorkerCount(MAP_WORKERS);
    // The self-hosted street map's archive (protomaps-style.ts): its tiles are read in ranges.
    maplibre.addProtocol('pmtiles', new Protocol().tile);
    return maplibre;
  });
  // A failed chunk load may be retried by the next visit of the page.
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
