/**
 * The offline base map's style (offline-style.ts) over its archive: Natural Earth's land and
 * borders as vector tiles, which the web build makes (scripts/basemap/offline-basemap.ts) as a
 * hashed asset of about 2 MB. The page fetches it once (the browser caches it for good) and keeps
 * it in memory; MapLibre reads the tiles in view from there through the `pmtiles` protocol
 * (maplibre.ts) and draws them. Nothing is converted in the browser.
 */
import type { StyleSpecification } from 'maplibre-gl';
import { FileSource, PMTiles } from 'pmtiles';
import archiveUrl from 'virtual:offline-basemap';
import { addArchive } from './maplibre';
import { offlineStyle } from './offline-style';

/** The archive's key: the style reads it as `pmtiles://natural-earth.pmtiles`. */
const ARCHIVE_NAME = 'natural-earth.pmtiles';

let loading: Promise<StyleSpecification> | null = null;

/** The offline style, its archive read once per page load. */
export function loadOfflineBasemap(): Promise<StyleSpecification> {
  loading ??= (async () => {
    const response = await fetch(archiveUrl);
    if (!response.ok) throw new Error(`offline base map: HTTP ${response.status}`);
    await addArchive(new PMTiles(new FileSource(new File([await response.blob()], ARCHIVE_NAME))));
    return offlineStyle(`pmtiles://${ARCHIVE_NAME}`);
  })();
  // A failed load may be tried again by the next map.
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
