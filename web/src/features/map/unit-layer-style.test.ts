import { expression, featureFilter, latest, validateStyleMin, type FilterSpecification, type StylePropertySpecification } from '@maplibre/maplibre-gl-style-spec';
import { describe, expect, it } from 'vitest';
import { COUNT_PREFIX, GLYPH_PREFIX } from './map-images';
import { UNIT_LAYERS, unitLayers } from './unit-layer-style';

const cluster = { type: 'Point' as const, properties: { cluster: true, cluster_id: 7, point_count: 30, point_count_abbreviated: '30' } };
const unit = (imei: string, moving = true) => ({ type: 'Point' as const, properties: { imei, color: '#e03131', symbol: 'truck', moving, heading: 90 } });
type Feature = typeof cluster | ReturnType<typeof unit>;

const layer = (id: string, selected: string | null = null) => {
  const found = unitLayers(selected, false).find((l) => l.id === id);
  if (!found) throw new Error(`no layer ${id}`);
  return found as { filter?: FilterSpecification; paint?: Record<string, unknown>; layout?: Record<string, unknown> };
};

const draws = (id: string, feature: Feature, selected: string | null = null) => {
  const { filter } = layer(id, selected);
  return filter === undefined || featureFilter(filter, 'filter').filter({ zoom: 10 }, feature);
};

/** What MapLibre evaluates a paint or layout property of a layer to for one feature. */
function evaluate(id: string, kind: 'paint' | 'layout', name: string, feature: Feature): unknown {
  const value = layer(id)[kind]?.[name];
  const specs = latest as unknown as Record<string, Record<string, StylePropertySpecification>>;
  const spec = specs[`${kind}_${id === UNIT_LAYERS.circles ? 'circle' : 'symbol'}`]?.[name];
  if (!spec) throw new Error(`no style property ${name}`);
  const parsed = expression.createPropertyExpression(value, name, spec);
  if (parsed.result === 'error') throw new Error(parsed.value.map((e) => e.message).join('; '));
  const result = parsed.value.evaluate({ zoom: 10 }, feature);
  return typeof result === 'object' && result !== null ? String(result) : result;
}

describe('unit layers', () => {
  it('are a valid MapLibre style, selected or not, dimmed or not', () => {
    for (const [selected, dimmed] of [[null, false], ['356938031000008', true]] as const) {
      const layers = unitLayers(selected, dimmed).map((l) => ({ ...l, source: 'units' }));
      const errors = validateStyleMin({ version: 8, sources: { units: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } } }, layers } as never);
      expect(errors.map((e) => e.message)).toEqual([]);
    }
  });

  it('draw clusters and units with the same circle and symbol layers, so one shader serves both', () => {
    for (const id of [UNIT_LAYERS.circles, UNIT_LAYERS.symbols]) {
      expect(draws(id, cluster)).toBe(true);
      expect(draws(id, unit('1'))).toBe(true);
    }
    // The ring only around the selected unit, the arrow only ahead of a moving one.
    expect(draws(UNIT_LAYERS.selected, unit('1'), '1')).toBe(true);
    expect(draws(UNIT_LAYERS.selected, unit('2'), '1')).toBe(false);
    expect(draws(UNIT_LAYERS.selected, cluster, '1')).toBe(false);
    expect(draws(UNIT_LAYERS.heading, unit('1'))).toBe(true);
    expect(draws(UNIT_LAYERS.heading, unit('1', false))).toBe(false);
    expect(draws(UNIT_LAYERS.heading, cluster)).toBe(false);
  });

  it('give a cluster its size, blue and count, and a unit its own colour and symbol', () => {
    expect(evaluate(UNIT_LAYERS.circles, 'paint', 'circle-radius', cluster)).toBe(21);
    expect(evaluate(UNIT_LAYERS.circles, 'paint', 'circle-color', cluster)).toBe('rgba(25,113,194,1)');
    expect(evaluate(UNIT_LAYERS.circles, 'paint', 'circle-stroke-width', cluster)).toBe(3);
    expect(evaluate(UNIT_LAYERS.symbols, 'layout', 'icon-image', cluster)).toBe(`${COUNT_PREFIX}30`);

    expect(evaluate(UNIT_LAYERS.circles, 'paint', 'circle-radius', unit('1'))).toBe(13);
    expect(evaluate(UNIT_LAYERS.circles, 'paint', 'circle-color', unit('1'))).toBe('rgba(224,49,49,1)');
    expect(evaluate(UNIT_LAYERS.circles, 'paint', 'circle-stroke-width', unit('1'))).toBe(2);
    expect(evaluate(UNIT_LAYERS.symbols, 'layout', 'icon-image', unit('1'))).toBe(`${GLYPH_PREFIX}truck`);
  });
});
