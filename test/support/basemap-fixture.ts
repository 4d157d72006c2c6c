/**
 * A small self-hosted base map folder for tests, as docs/operations.md has an operator lay it out:
 * `basemap.pmtiles` (a PMTiles v3 archive of vector tiles in the Protomaps layer names) and the
 * `sprites/light` sheet beside it. The tiles cover the Stockholm area to zoom 12 (MapLibre draws
 * them larger beyond): land (`earth`), one lake (`water`) and one major road (`roads`), no labels
 * (the fonts' first range is there, without glyphs, as MapLibre asks for it all the same). The
 * archive is written by scripts/basemap/pmtiles-archive.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GeoJSONVT } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { PbfWriter } from 'pbf';
import { BASEMAP_ARCHIVE } from '../../shared/basemap';
import { pmtilesArchive, type ArchiveTile } from '../../scripts/basemap/pmtiles-archive';

/** West, south, east, north of the tiles written, in degrees. */
export const FIXTURE_BOUNDS = [16.5, 58.8, 19.5, 60.0] as const;
export const FIXTURE_MAX_ZOOM = 12;

const polygon = (west: number, south: number, east: number, north: number, properties: Record<string, unknown>): GeoJSON.Feature => ({
  type: 'Feature',
  properties,
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [west, south],
        [east, south],
        [east, north],
        [west, north],
        [west, south],
      ],
    ],
  },
});

/** The fixture's features by Protomaps layer: land beyond the bounds, a lake east of the city, a road through it. */
const LAYERS: Record<string, GeoJSON.FeatureCollection> = {
  earth: { type: 'FeatureCollection', features: [polygon(10, 55, 25, 65, { kind: 'earth' })] },
  water: { type: 'FeatureCollection', features: [polygon(18.08, 59.2, 18.5, 59.5, { kind: 'water' })] },
  roads: {
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        properties: { kind: 'major_road', min_zoom: 5 },
        geometry: {
          type: 'LineString',
          coordinates: [
            [17.9, 59.3],
            [18.2, 59.37],
          ],
        },
      },
    ],
  },
};

function lonToX(lon: number, z: number): number {
  return Math.floor(((lon + 180) / 360) * 2 ** z);
}

function latToY(lat: number, z: number): number {
  const rad = (lat * Math.PI) / 180;
  return Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * 2 ** z);
}

/** Every tile of the fixture within its bounds, encoded as MVT. */
function fixtureTiles(): ArchiveTile[] {
  const indexes = Object.entries(LAYERS).map(([name, data]) => [name, new GeoJSONVT(data, { maxZoom: FIXTURE_MAX_ZOOM, indexMaxZoom: 4, buffer: 64 })] as const);
  const [west, south, east, north] = FIXTURE_BOUNDS;
  const tiles: ArchiveTile[] = [];
  for (let z = 0; z <= FIXTURE_MAX_ZOOM; z++) {
    for (let x = lonToX(west, z); x <= lonToX(east, z); x++) {
      for (let y = latToY(north, z); y <= latToY(south, z); y++) {
        const layers = Object.fromEntries(indexes.flatMap(([name, index]) => {
          const tile = index.getTile(z, x, y);
          return tile && tile.features.length ? [[name, tile]] : [];
        }));
        if (Object.keys(layers).length) tiles.push({ z, x, y, bytes: fromGeojsonVt(layers, { version: 2, extent: 4096 }) });
      }
    }
  }
  return tiles;
}

/** A PMTiles v3 archive of the fixture's tiles, nothing compressed. */
export function basemapArchive(): Uint8Array {
  return pmtilesArchive(fixtureTiles(), {
    bounds: FIXTURE_BOUNDS,
    minZoom: 0,
    maxZoom: FIXTURE_MAX_ZOOM,
    centerZoom: 10,
    metadata: { name: 'Test base map', vector_layers: Object.keys(LAYERS).map((id) => ({ id, fields: {} })) },
  });
}

/** A 1x1 transparent PNG: the sprite sheet of a style whose icons the fixture never shows. */
const EMPTY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** The fonts the Protomaps layers name. */
export const FIXTURE_FONTS = ['Noto Sans Regular', 'Noto Sans Italic', 'Noto Sans Medium'] as const;

/** A glyph range of a font with no glyphs in it (MapLibre's glyphs protobuf: stacks of name, range, glyphs). */
function emptyGlyphRange(font: string, range: string): Uint8Array {
  const pbf = new PbfWriter();
  pbf.writeMessage(1, (_: unknown, out: PbfWriter) => {
    out.writeStringField(1, font);
    out.writeStringField(2, range);
  }, null);
  return pbf.finish();
}

/** Writes the folder: the archive, the sprite sheet at both pixel ratios, and the fonts' first range (no glyphs: the fixture has no labels). */
export function writeBasemapFolder(dir: string): void {
  mkdirSync(join(dir, 'sprites'), { recursive: true });
  writeFileSync(join(dir, BASEMAP_ARCHIVE), basemapArchive());
  for (const name of ['light', 'light@2x']) {
    writeFileSync(join(dir, 'sprites', `${name}.json`), '{}');
    writeFileSync(join(dir, 'sprites', `${name}.png`), EMPTY_PNG);
  }
  for (const font of FIXTURE_FONTS) {
    mkdirSync(join(dir, 'fonts', font), { recursive: true });
    writeFileSync(join(dir, 'fonts', font, '0-255.pbf'), emptyGlyphRange(font, '0-255'));
  }
}
