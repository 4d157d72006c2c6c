/**
 * A small self-hosted base map folder for tests, as docs/operations.md has an operator lay it out:
 * `basemap.pmtiles` (a PMTiles v3 archive of vector tiles in the Protomaps layer names) and the
 * `sprites/light` sheet beside it. The tiles cover the Stockholm area to zoom 12 (MapLibre draws
 * them larger beyond): land (`earth`), one lake (`water`) and one major road (`roads`), no labels
 * (the fonts' first range is there, without glyphs, as MapLibre asks for it all the same). The archive is written here from the PMTiles v3 specification
 * (github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md): the `pmtiles` package only reads.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GeoJSONVT } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { PbfWriter } from 'pbf';
import { zxyToTileId } from 'pmtiles';
import { BASEMAP_ARCHIVE } from '../../shared/basemap';

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

function varint(value: number, out: number[]): void {
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
}

/** Every tile of the fixture, encoded as MVT, in tile-id order. */
function fixtureTiles(): Array<{ id: number; bytes: Uint8Array }> {
  const indexes = Object.entries(LAYERS).map(([name, data]) => [name, new GeoJSONVT(data, { maxZoom: FIXTURE_MAX_ZOOM, indexMaxZoom: 4, buffer: 64 })] as const);
  const [west, south, east, north] = FIXTURE_BOUNDS;
  const tiles: Array<{ id: number; bytes: Uint8Array }> = [];
  for (let z = 0; z <= FIXTURE_MAX_ZOOM; z++) {
    for (let x = lonToX(west, z); x <= lonToX(east, z); x++) {
      for (let y = latToY(north, z); y <= latToY(south, z); y++) {
        const layers = Object.fromEntries(indexes.flatMap(([name, index]) => {
          const tile = index.getTile(z, x, y);
          return tile && tile.features.length ? [[name, tile]] : [];
        }));
        if (Object.keys(layers).length) tiles.push({ id: zxyToTileId(z, x, y), bytes: fromGeojsonVt(layers, { version: 2, extent: 4096 }) });
      }
    }
  }
  return tiles.sort((a, b) => a.id - b.id);
}

/** A PMTiles v3 archive of the fixture's tiles: header, root directory, metadata, tile data; nothing compressed. */
export function basemapArchive(): Uint8Array {
  const tiles = fixtureTiles();
  const entries: Array<{ id: number; offset: number; length: number }> = [];
  let offset = 0;
  for (const tile of tiles) {
    entries.push({ id: tile.id, offset, length: tile.bytes.length });
    offset += tile.bytes.length;
  }
  const dir: number[] = [];
  varint(entries.length, dir);
  entries.forEach((entry, i) => varint(entry.id - (i ? (entries[i - 1]?.id ?? 0) : 0), dir));
  for (let i = 0; i < entries.length; i++) varint(1, dir); // run lengths
  for (const entry of entries) varint(entry.length, dir);
  entries.forEach((entry, i) => {
    const previous = entries[i - 1];
    varint(previous && entry.offset === previous.offset + previous.length ? 0 : entry.offset + 1, dir);
  });
  const metadata = new TextEncoder().encode(JSON.stringify({ name: 'Test base map', vector_layers: Object.keys(LAYERS).map((id) => ({ id, fields: {} })) }));

  const HEADER = 127;
  const dirOffset = HEADER;
  const metadataOffset = dirOffset + dir.length;
  const tileDataOffset = metadataOffset + metadata.length;
  const archive = new Uint8Array(tileDataOffset + offset);
  const view = new DataView(archive.buffer);
  archive.set(new TextEncoder().encode('PMTiles'), 0);
  view.setUint8(7, 3);
  const u64 = (at: number, value: number) => view.setBigUint64(at, BigInt(value), true);
  u64(8, dirOffset);
  u64(16, dir.length);
  u64(24, metadataOffset);
  u64(32, metadata.length);
  u64(40, tileDataOffset); // no leaf directories
  u64(48, 0);
  u64(56, tileDataOffset);
  u64(64, offset);
  u64(72, tiles.length); // addressed tiles
  u64(80, entries.length); // tile entries
  u64(88, tiles.length); // tile contents
  view.setUint8(96, 1); // clustered
  view.setUint8(97, 1); // internal compression: none
  view.setUint8(98, 1); // tile compression: none
  view.setUint8(99, 1); // tile type: MVT
  view.setUint8(100, 0);
  view.setUint8(101, FIXTURE_MAX_ZOOM);
  const [west, south, east, north] = FIXTURE_BOUNDS;
  const e7 = (degrees: number) => Math.round(degrees * 1e7);
  view.setInt32(102, e7(west), true);
  view.setInt32(106, e7(south), true);
  view.setInt32(110, e7(east), true);
  view.setInt32(114, e7(north), true);
  view.setUint8(118, 10);
  view.setInt32(119, e7((west + east) / 2), true);
  view.setInt32(123, e7((south + north) / 2), true);
  archive.set(dir, dirOffset);
  archive.set(metadata, metadataOffset);
  for (const [i, tile] of tiles.entries()) archive.set(tile.bytes, tileDataOffset + (entries[i]?.offset ?? 0));
  return archive;
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
