/**
 * The base map when no map service is configured or none is reachable (the embedded runtime
 * without internet): Natural Earth's 1:10m countries from the `world-atlas` package, drawn as
 * water, land and country borders from the vector tiles the web build made of them
 * (scripts/basemap/offline-basemap.ts; offline-basemap.ts reads them).
 *
 * The style has no `glyphs` URL and no text layers: nothing in it needs a font server.
 */
import type { StyleSpecification } from 'maplibre-gl';
import { OFFLINE_BASEMAP_LAYERS } from '../../../../shared/basemap';

export const OFFLINE_COLORS = {
  water: '#aad3df',
  land: '#f2efe9',
  border: '#8f8aa3',
  coast: '#7fa9bd',
} as const;

export const NATURAL_EARTH_ATTRIBUTION = 'Made with <a href="https://www.naturalearthdata.com/">Natural Earth</a>';

/**
 * What the map draws while its base map is still being chosen (a style's JSON on its way, the
 * offline map's tiles on their way): water alone, so that the units are on the map at once and not
 * only once the base map is there (seconds without a network).
 */
export const WAITING_STYLE: StyleSpecification = {
  version: 8,
  name: 'Waiting for the base map',
  sources: {},
  layers: [{ id: 'water', type: 'background', paint: { 'background-color': OFFLINE_COLORS.water } }],
};

/** The offline style over the archive at `archiveUrl` (a `pmtiles://` URL MapLibre can read). */
export function offlineStyle(archiveUrl: string): StyleSpecification {
  return {
    version: 8,
    name: 'Offline (Natural Earth)',
    sources: {
      'natural-earth': { type: 'vector', url: archiveUrl, attribution: NATURAL_EARTH_ATTRIBUTION },
    },
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': OFFLINE_COLORS.water } },
      { id: 'land', type: 'fill', source: 'natural-earth', 'source-layer': OFFLINE_BASEMAP_LAYERS.land, paint: { 'fill-color': OFFLINE_COLORS.land, 'fill-outline-color': OFFLINE_COLORS.coast } },
      {
        id: 'country-borders',
        type: 'line',
        source: 'natural-earth',
        'source-layer': OFFLINE_BASEMAP_LAYERS.borders,
        layout: { 'line-join': 'round' },
        paint: {
          'line-color': OFFLINE_COLORS.border,
          'line-width': ['interpolate', ['linear'], ['zoom'], 2, 0.6, 8, 1.5],
          'line-dasharray': [3, 2],
        },
      },
    ],
  };
}
