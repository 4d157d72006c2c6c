/**
 * MapLibre, loaded when the map is first shown. MapLibre 6 finds its worker next to its own module
 * file, which a bundle does not keep; the worker is built from maplibre-worker.ts (MapLibre's own,
 * with one answer made smaller) and named here.
 */
import type * as maplibregl from 'maplibre-gl';
import type { PMTiles, Protocol } from 'pmtiles';
import workerUrl from './maplibre-worker?worker&url';

type MapLibre = typeof maplibregl;

/**
 * MapLibre's workers (its default is one outside Safari). Each source is given the next worker in
 * turn: with one worker, the units' first updates waited behind the base map's work (the first
 * markers 8 s after opening the page in bench:map at 50,000 units on a busy machine, when the
 * offline map's land was still cut into tiles in the browser). Also on two cores three did better
 * than one (all 50,000 drawn in 9.5 s against 13.6 s).
 */
export const MAP_WORKERS = 3;

let loading: Promise<MapLibre> | null = null;
/** What MapLibre reads `pmtiles://` URLs through, once it is loaded. */
let archives: Protocol | null = null;

export function loadMapLibre(): Promise<MapLibre> {
  loading ??= Promise.all([import('maplibre-gl'), import('pmtiles')]).then(([maplibre, { Protocol }]) => {
    maplibre.setWorkerUrl(workerUrl);
    maplibre.setWorkerCount(MAP_WORKERS);
    // The self-hosted street map's archive (protomaps-style.ts): its tiles are read in ranges.
    archives = new Protocol();
    maplibre.addProtocol('pmtiles', archives.tile);
    return maplibre;
  });
  // A failed chunk load may be retried by the next visit of the page.
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

/**
 * Lets MapLibre read `archive` as `pmtiles://<its key>` (the offline base map's archive, read from
 * memory: offline-basemap.ts); loads MapLibre first if it is not yet.
 */
export async function addArchive(archive: PMTiles): Promise<void> {
  await loadMapLibre();
  archives?.add(archive);
}
