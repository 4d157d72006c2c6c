/**
 * Writes a PMTiles v3 archive of vector tiles (github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md;
 * the `pmtiles` package only reads): the header, one root directory, the metadata and the tiles in
 * tile-id order, each tile once. The test base map (test/support/basemap-fixture.ts) and the
 * offline base map of the web build (offline-basemap.ts) are written with it.
 *
 * With `gzip`, the directory, the metadata and every tile are gzip-compressed, as the `pmtiles`
 * reader in the browser decompresses them (DecompressionStream). A reader takes the header and the
 * root directory from the archive's first 16,384 bytes, so the directory must fit there: a few
 * thousand tiles compressed, about a thousand without.
 */
import { gzipSync } from 'node:zlib';
import { zxyToTileId } from 'pmtiles';

export interface ArchiveTile {
  z: number;
  x: number;
  y: number;
  /** The tile's MVT bytes, uncompressed. */
  bytes: Uint8Array;
}

export interface ArchiveOptions {
  /** West, south, east, north in degrees. */
  bounds: readonly [number, number, number, number];
  minZoom: number;
  maxZoom: number;
  /** The zoom a viewer opens the archive at. */
  centerZoom: number;
  /** The archive's JSON metadata (`vector_layers` and the like). */
  metadata: Record<string, unknown>;
  gzip?: boolean;
}

/** The first bytes a reader fetches: header and root directory must fit in them. */
const FIRST_READ = 16_384;
const HEADER = 127;
const COMPRESSION = { none: 1, gzip: 2 } as const;

function varint(value: number, out: number[]): void {
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
}

export function pmtilesArchive(tiles: readonly ArchiveTile[], options: ArchiveOptions): Uint8Array<ArrayBuffer> {
  const pack = (bytes: Uint8Array) => (options.gzip ? new Uint8Array(gzipSync(bytes, { level: 9 })) : bytes);
  const sorted = tiles.map((tile) => ({ id: zxyToTileId(tile.z, tile.x, tile.y), bytes: pack(tile.bytes) })).sort((a, b) => a.id - b.id);
  const entries: Array<{ id: number; offset: number; length: number }> = [];
  let offset = 0;
  for (const tile of sorted) {
    entries.push({ id: tile.id, offset, length: tile.bytes.length });
    offset += tile.bytes.length;
  }
  const raw: number[] = [];
  varint(entries.length, raw);
  entries.forEach((entry, i) => varint(entry.id - (i ? (entries[i - 1]?.id ?? 0) : 0), raw));
  for (let i = 0; i < entries.length; i++) varint(1, raw); // run lengths
  for (const entry of entries) varint(entry.length, raw);
  entries.forEach((entry, i) => {
    const previous = entries[i - 1];
    varint(previous && entry.offset === previous.offset + previous.length ? 0 : entry.offset + 1, raw);
  });
  const dir = pack(new Uint8Array(raw));
  if (HEADER + dir.length > FIRST_READ) throw new Error(`PMTiles: the root directory of ${entries.length} tiles is ${dir.length} bytes, more than a reader's first ${FIRST_READ} bytes hold`);
  const metadata = pack(new TextEncoder().encode(JSON.stringify(options.metadata)));

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
  u64(72, sorted.length); // addressed tiles
  u64(80, entries.length); // tile entries
  u64(88, sorted.length); // tile contents
  view.setUint8(96, 1); // clustered
  const compression = options.gzip ? COMPRESSION.gzip : COMPRESSION.none;
  view.setUint8(97, compression); // internal compression
  view.setUint8(98, compression); // tile compression
  view.setUint8(99, 1); // tile type: MVT
  view.setUint8(100, options.minZoom);
  view.setUint8(101, options.maxZoom);
  const [west, south, east, north] = options.bounds;
  const e7 = (degrees: number) => Math.round(degrees * 1e7);
  view.setInt32(102, e7(west), true);
  view.setInt32(106, e7(south), true);
  view.setInt32(110, e7(east), true);
  view.setInt32(114, e7(north), true);
  view.setUint8(118, options.centerZoom);
  view.setInt32(119, e7((west + east) / 2), true);
  view.setInt32(123, e7((south + north) / 2), true);
  archive.set(dir, dirOffset);
  archive.set(metadata, metadataOffset);
  for (const [i, tile] of sorted.entries()) archive.set(tile.bytes, tileDataOffset + (entries[i]?.offset ?? 0));
  return archive;
}
