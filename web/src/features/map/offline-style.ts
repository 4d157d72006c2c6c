/**
 * The base map when no map service is configured (the embedded runtime; no tile server is
 * reachable): Natural Earth's 1:10m countries from the `world-atlas` package, drawn as water, land
 * and country borders. The TopoJSON is converted here, in a worker (offline-basemap.worker.ts), so
 * the page's main thread never parses or copies the 20 MB of GeoJSON it becomes.
 *
 * The style has no `glyphs` URL and no text layers: nothing in it needs a font server.
 */
import type { StyleSpecification } from 'maplibre-gl';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

export const OFFLINE_COLORS = {
  water: '#aad3df',
  land: '#f2efe9',
  border: '#8f8aa3',
  coast: '#7fa9bd',
} as const;

export const NATURAL_EARTH_ATTRIBUTION = 'Made with <a href="https://www.naturalearthdata.com/">Natural Earth</a>';

/** 5 decimals of a degree are about a metre: finer than 1:10m data, and half the JSON. */
const round = (value: number) => Math.round(value * 1e5) / 1e5;

function roundPositions<T>(coordinates: T): T {
  if (typeof coordinates === 'number') return round(coordinates) as T;
  if (Array.isArray(coordinates)) return coordinates.map((c: unknown) => roundPositions(c)) as T;
  return coordinates;
}

export interface BasemapData {
  /** Every country's area: the land. */
  land: GeoJSON.Feature<GeoJSON.MultiPolygon | GeoJSON.Polygon>;
  /** Lines shared by two countries: borders, without coastlines. */
  borders: GeoJSON.Feature<GeoJSON.MultiLineString>;
}

type CountriesTopology = Topology<{ countries: GeometryCollection; land: GeometryCollection }>;

/** Land and borders of world-atlas's countries topology (which carries a merged `land` object). */
export function basemapGeoJson(topology: CountriesTopology): BasemapData {
  const landCollection = feature(topology, topology.objects.land);
  const polygons: GeoJSON.Position[][][] = [];
  for (const f of landCollection.features) {
    if (f.geometry.type === 'Polygon') polygons.push(f.geometry.coordinates);
    else if (f.geometry.type === 'MultiPolygon') polygons.push(...f.geometry.coordinates);
  }
  const borders = mesh(topology, topology.objects.countries, (a, b) => a !== b);
  return {
    land: { type: 'Feature', properties: {}, geometry: { type: 'MultiPolygon', coordinates: roundPositions(polygons) } },
    borders: { type: 'Feature', properties: {}, geometry: { type: 'MultiLineString', coordinates: roundPositions(borders.coordinates) } },
  };
}

/**
 * What the map draws while its base map is still being chosen (a style's JSON on its way, the
 * offline data being converted): water alone, so that the units are on the map at once and not
 * only once the base map is there (seconds without a network).
 */
export const WAITING_STYLE: StyleSpecification = {
  version: 8,
  name: 'Waiting for the base map',
  sources: {},
  layers: [{ id: 'water', type: 'background', paint: { 'background-color': OFFLINE_COLORS.water } }],
};

/** The offline style; `land` and `borders` are GeoJSON or URLs of it. */
export function offlineStyle(data: { land: string | GeoJSON.GeoJSON; borders: string | GeoJSON.GeoJSON }): StyleSpecification {
  return {
    version: 8,
    name: 'Offline (Natural Earth)',
    sources: {
      land: { type: 'geojson', data: data.land, attribution: NATURAL_EARTH_ATTRIBUTION, tolerance: 0.5 },
      borders: { type: 'geojson', data: data.borders, tolerance: 0.5 },
    },
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': OFFLINE_COLORS.water } },
      { id: 'land', type: 'fill', source: 'land', paint: { 'fill-color': OFFLINE_COLORS.land, 'fill-outline-color': OFFLINE_COLORS.coast } },
      {
        id: 'country-borders',
        type: 'line',
        source: 'borders',
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
