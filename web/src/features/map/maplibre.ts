/**
 * MapLibre, loaded when the map is first shown. MapLibre 6 finds its worker next to its own module
 * file, which a bundle does not keep; the worker is built from maplibre-worker.ts (MapLibre's own,
 * with one answer made smaller) and named here.
 */
import type * as maplibregl from 'maplibre-gl';
import workerUrl from './maplibre-worker?worker&url';

type MapLibre = typeof maplibregl;

let loading: Promise<MapLibre> | null = null;

export function loadMapLibre(): Promise<MapLibre> {
  loading ??= import('maplibre-gl').then((maplibre) => {
    maplibre.setWorkerUrl(workerUrl);
    return maplibre;
  });
  // A failed chunk load may be retried by the next visit of the page.
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
