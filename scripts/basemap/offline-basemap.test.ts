import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { FileSource, PMTiles } from 'pmtiles';
import { describe, expect, it } from 'vitest';
import { OFFLINE_BASEMAP_LAYERS } from '../../shared/basemap';
import { NATURAL_EARTH_ATTRIBUTION } from '../../web/src/features/map/offline-style';
import { basemapGeoJson, offlineBasemapArchive, type CountriesTopology } from './offline-basemap';

// The 1:110m file has the same objects as the 1:10m one the page loads, at a size a test reads quickly.
const topology = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('world-atlas/countries-110m.json'), 'utf8')) as CountriesTopology;

/** Whether a point lies inside a ring (ray casting). */
function inRing([x, y]: [number, number], ring: GeoJSON.Position[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi = 0, yi = 0] = ring[i] ?? [];
    const [xj = 0, yj = 0] = ring[j] ?? [];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

const onLand = (point: [number, number], land: GeoJSON.MultiPolygon) =>
  land.coordinates.some(([outer, ...holes]) => outer !== undefined && inRing(point, outer) && !holes.some((hole) => inRing(point, hole)));

describe('offline base map', () => {
  const { land, borders } = basemapGeoJson(topology);

  it('turns the countries topology into land and the borders between countries', () => {
    expect(land.geometry.type).toBe('MultiPolygon');
    expect(onLand([15.0, 62.0], land.geometry as GeoJSON.MultiPolygon)).toBe(true); // inland Sweden
    expect(onLand([19.0, 57.5], land.geometry as GeoJSON.MultiPolygon)).toBe(false); // the Baltic Sea
    expect(onLand([-30.0, 40.0], land.geometry as GeoJSON.MultiPolygon)).toBe(false); // the Atlantic
    expect(borders.geometry.type).toBe('MultiLineString');
    // The Swedish-Norwegian border runs near 12.5°E at 61°N; coastlines are not borders.
    const near = (lon: number, lat: number) => borders.geometry.coordinates.some((line) => line.some(([x = 0, y = 0]) => Math.abs(x - lon) < 1 && Math.abs(y - lat) < 1));
    expect(near(12.5, 61)).toBe(true);
    expect(near(-9.5, 52.5)).toBe(false); // the west coast of Ireland
  });

  it('rounds coordinates to five decimals', () => {
    const all = [...land.geometry.coordinates.flat(3), ...borders.geometry.coordinates.flat(2)] as number[];
    expect(all.length).toBeGreaterThan(1000);
    expect(all.every((n) => Math.abs(n * 1e5 - Math.round(n * 1e5)) < 1e-6)).toBe(true);
  });

  it('cuts land and borders into an archive of vector tiles that the pmtiles reader reads', async () => {
    const archive = new PMTiles(new FileSource(new File([offlineBasemapArchive({ topology, maxZoom: 3 })], 'offline.pmtiles')));
    const header = await archive.getHeader();
    expect([header.minZoom, header.maxZoom, header.tileType, header.tileCompression]).toEqual([0, 3, 1, 2]);
    const layersOf = async (z: number, x: number, y: number) => {
      const tile = await archive.getZxy(z, x, y);
      return tile ? Object.keys(new VectorTile(new PbfReader(new Uint8Array(tile.data))).layers).sort() : null;
    };
    // The world; Scandinavia at zoom 3 (land and the Swedish-Norwegian border); open sea has no tile.
    expect(await layersOf(0, 0, 0)).toEqual([OFFLINE_BASEMAP_LAYERS.borders, OFFLINE_BASEMAP_LAYERS.land]);
    expect(await layersOf(3, 4, 2)).toEqual([OFFLINE_BASEMAP_LAYERS.borders, OFFLINE_BASEMAP_LAYERS.land]);
    expect(await layersOf(3, 0, 5)).toBeNull(); // the South Pacific
    expect(await archive.getMetadata()).toMatchObject({ attribution: NATURAL_EARTH_ATTRIBUTION, vector_layers: [{ id: 'land' }, { id: 'borders' }] });
  });
});
