import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { PMTiles, TileType, type RangeResponse, type Source } from 'pmtiles';
import { describe, expect, it } from 'vitest';
import { FIXTURE_BOUNDS, FIXTURE_MAX_ZOOM, basemapArchive } from './basemap-fixture';

/** The archive read as the browser reads it, in ranges, by the `pmtiles` package. */
function reader(bytes: Uint8Array): PMTiles {
  const source: Source = {
    getKey: () => 'fixture',
    getBytes: async (offset: number, length: number): Promise<RangeResponse> => ({ data: bytes.slice(offset, offset + length).buffer }),
  };
  return new PMTiles(source);
}

describe('test base map archive', () => {
  it('is a PMTiles v3 archive the pmtiles reader opens, with vector tiles in the Protomaps layer names', async () => {
    const archive = reader(basemapArchive());
    const header = await archive.getHeader();
    expect(header).toMatchObject({ specVersion: 3, tileType: TileType.Mvt, minZoom: 0, maxZoom: FIXTURE_MAX_ZOOM, minLon: FIXTURE_BOUNDS[0], maxLat: FIXTURE_BOUNDS[3] });
    expect(await archive.getMetadata()).toMatchObject({ vector_layers: [{ id: 'earth' }, { id: 'water' }, { id: 'roads' }] });

    // East of central Stockholm at zoom 12 (tile 2254/1203): land, the lake and the road.
    const tile = await archive.getZxy(12, 2254, 1203);
    expect(tile).toBeDefined();
    const layers = new VectorTile(new PbfReader(new Uint8Array(tile?.data ?? new ArrayBuffer(0)))).layers;
    expect(Object.keys(layers).sort()).toEqual(['earth', 'roads', 'water']);
    expect(layers['roads']?.feature(0).properties).toMatchObject({ kind: 'major_road' });
    // The whole world at zoom 0, and nothing outside the bounds.
    expect(await archive.getZxy(0, 0, 0)).toBeDefined();
    expect(await archive.getZxy(12, 0, 0)).toBeUndefined();
  });
});
