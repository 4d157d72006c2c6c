import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import { describe, expect, it } from 'vitest';
import { OFFLINE_BASEMAP_LAYERS } from '../../../../shared/basemap';
import { offlineStyle } from './offline-style';

describe('offline style', () => {
  it('is a valid MapLibre style of water, land and borders over the archive, needing no font or tile server', () => {
    const style = offlineStyle('pmtiles://natural-earth.pmtiles');
    expect(validateStyleMin(style)).toEqual([]);
    expect(style.layers.map((l) => [l.id, l.type, 'source-layer' in l ? l['source-layer'] : undefined])).toEqual([
      ['water', 'background', undefined],
      ['land', 'fill', OFFLINE_BASEMAP_LAYERS.land],
      ['country-borders', 'line', OFFLINE_BASEMAP_LAYERS.borders],
    ]);
    expect(style.glyphs).toBeUndefined();
    expect(style.sprite).toBeUndefined();
    expect(style.sources).toEqual({ 'natural-earth': expect.objectContaining({ type: 'vector', url: 'pmtiles://natural-earth.pmtiles' }) });
  });
});
