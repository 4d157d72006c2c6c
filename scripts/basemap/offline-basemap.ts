/**
 * The offline base map's tiles, made by the web build (web/vite.config.ts) from Natural Earth's
 * 1:10m countries of the `world-atlas` package: land and the borders between countries as vector
 * tiles to zoom OFFLINE_MAX_ZOOM, in one gzip-compressed PMTiles archive (about 1 MB). MapLibre
 * draws the last zoom's tiles larger beyond it; at zoom 6 a tile's 4,096 units are about 150 m,
 * finer than the data's own detail.
 *
 * The map page used to fetch the 3.6 MB topology and convert it in the browser, to 20 MB of GeoJSON
 * that MapLibre's worker then cut into tiles: seconds of CPU on every page load that drew the
 * offline map. Now the page reads the archive once and MapLibre decodes only the tiles in view.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { GeoJSONVT } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { OFFLINE_BASEMAP_LAYERS } from '../../shared/basemap';
import { NATURAL_EARTH_ATTRIBUTION } from '../../web/src/features/map/offline-style';
import { pmtilesArchive, type ArchiveTile } from './pmtiles-archive';

/** The deepest zoom of the archive's tiles. */
export const OFFLINE_MAX_ZOOM = 6;

/** 5 decimals of a degree are about a metre: finer than 1:10m data. */
const round = (value: number) => Math.round(value * 1e5) / 1e5;

function roundPositions<T>(coordinates: T): T {
  if (typeof coordinates === 'number') return round(coordinates) as T;
  if (Array.isArray(coordinates)) return coordinates.map((c: unknown) => roundPositions(c)) as T;
  return coordinates;
}

export interface BasemapData {
  /** Every country's area: the land. */
  land: GeoJSON.Feature<GeoJSON.MultiPolygon>;
  /** Lines shared by two countries: borders, without coastlines. */
  borders: GeoJSON.Feature<GeoJSON.MultiLineString>;
}

export type CountriesTopology = Topology<{ countries: GeometryCollection; land: GeometryCollection }>;

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

/** The archive of `topology` (by default world-atlas's 1:10m countries) to `maxZoom`. */
export function offlineBasemapArchive(options: { topology?: CountriesTopology; maxZoom?: number } = {}): Uint8Array<ArrayBuffer> {
  const maxZoom = options.maxZoom ?? OFFLINE_MAX_ZOOM;
  const topology = options.topology ?? (JSON.parse(readFileSync(createRequire(import.meta.url).resolve('world-atlas/countries-10m.json'), 'utf8')) as CountriesTopology);
  const { land, borders } = basemapGeoJson(topology);
  // Every tile cut up front (indexMaxZoom), the lines simplified to 3 of a tile's 4,096 units.
  const cut = (f: GeoJSON.Feature) => new GeoJSONVT({ type: 'FeatureCollection', features: [f] }, { maxZoom, indexMaxZoom: maxZoom, buffer: 64, tolerance: 3 });
  const indexes = [
    [OFFLINE_BASEMAP_LAYERS.land, cut(land)],
    [OFFLINE_BASEMAP_LAYERS.borders, cut(borders)],
  ] as const;
  const tiles: ArchiveTile[] = [];
  for (let z = 0; z <= maxZoom; z++) {
    for (let x = 0; x < 2 ** z; x++) {
      for (let y = 0; y < 2 ** z; y++) {
        const layers = Object.fromEntries(indexes.flatMap(([name, index]) => {
          const tile = index.getTile(z, x, y);
          return tile && tile.features.length ? [[name, tile]] : [];
        }));
        // Open sea has no tile: the style's background is the water.
        if (Object.keys(layers).length) tiles.push({ z, x, y, bytes: fromGeojsonVt(layers, { version: 2, extent: 4096 }) });
      }
    }
  }
  return pmtilesArchive(tiles, {
    bounds: [-180, -85.0511, 180, 85.0511],
    minZoom: 0,
    maxZoom,
    centerZoom: 2,
    gzip: true,
    // MapLibre shows the archive's attribution in place of the style's: the same credit.
    metadata: { name: 'Natural Earth 1:10m countries', attribution: NATURAL_EARTH_ATTRIBUTION, vector_layers: Object.values(OFFLINE_BASEMAP_LAYERS).map((id) => ({ id, fields: {} })) },
  });
}
