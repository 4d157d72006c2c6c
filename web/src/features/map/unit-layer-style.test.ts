import { expression, featureFilter, latest, validateStyleMin, type FilterSpecification, type StylePropertySpecification } from '@maplibre/maplibre-gl-style-spec';
import { describe, expect, it } from 'vitest';
import { COUNT_PREFIX, GLYPH_PREFIX, LABEL_PREFIX, clusterRadius, labelText } from './map-images';
import { LABEL_MIN_ZOOM, UNIT_LAYERS, unitLayers } from './unit-layer-style';

const clusterOf = (count: number, abbreviated = String(count)) => ({
  type: 'Point' as const,
  properties: { cluster: true, cluster_id: 7, point_count: count, point_count_abbreviated: abbreviated },
});
const cluster = clusterOf(30);
const unit = (imei: string, moving = true, status = moving ? 'moving' : 'parked') => ({
  type: 'Point' as const,
  properties: { imei, name: `Van ${imei}`, color: '#e03131', symbol: 'truck', status, heading: 90 },
});
type Feature = ReturnType<typeof clusterOf> | ReturnType<typeof unit>;

type TestLayer = { type: string; minzoom?: number; filter?: FilterSpecification; paint?: Record<string, unknown>; layout?: Record<string, unknown> };
const layer = (id: string, selected: string | null = null) => {
  const found = unitLayers(selected, false).find((l) => l.id === id);
  if (!found) throw new Error(`no layer ${id}`);
  return found as TestLayer;
};

const draws = (id: string, feature: Feature, selected: string | null = null) => {
  const { filter } = layer(id, selected);
  return filter === undefined || featureFilter(filter, 'filter').filter({ zoom: 10 }, feature);
};

/** What MapLibre evaluates a paint or layout property of a layer to for one feature. */
function evaluate(id: string, kind: 'paint' | 'layout', name: string, feature: Feature, selected: string | null = null): unknown {
  const found = layer(id, selected);
  const value = found[kind]?.[name];
  const specs = latest as unknown as Record<string, Record<string, StylePropertySpecification>>;
  const spec = specs[`${kind}_${found.type}`]?.[name];
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
    // An offline unit's last heading is no news.
    expect(draws(UNIT_LAYERS.heading, unit('1', true, 'offline'))).toBe(false);
  });

  it('give a cluster its size, blue and count, and a unit its own colour and symbol', () => {
    expect(evaluate(UNIT_LAYERS.circles, 'paint', 'circle-radius', cluster)).toBe(21);
    expect(evaluate(UNIT_LAYERS.circles, 'paint', 'circle-color', cluster)).toBe('rgba(25,113,194,1)');
    expect(evaluate(UNIT_LAYERS.circles, 'paint', 'circle-stroke-width', cluster)).toBe(3);
    expect(evaluate(UNIT_LAYERS.symbols, 'layout', 'icon-image', cluster)).toBe(`${COUNT_PREFIX}30`);

    expect(evaluate(UNIT_LAYERS.circles, 'paint', 'circle-radius', unit('1'))).toBe(13);
    expect(evaluate(UNIT_LAYERS.circles, 'paint', 'circle-color', unit('1'))).toBe('rgba(224,49,49,1)');
    expect(evaluate(UNIT_LAYERS.circles, 'paint', 'circle-stroke-width', unit('1'))).toBe(2);
    expect(evaluate(UNIT_LAYERS.symbols, 'layout', 'icon-image', unit('1'))).toBe(`${GLYPH_PREFIX}truck:moving`);
    expect(evaluate(UNIT_LAYERS.symbols, 'layout', 'icon-image', unit('1', false, 'idling'))).toBe(`${GLYPH_PREFIX}truck:idling`);
  });

  it('fade an offline unit, and draw clusters as large as their count images say', () => {
    expect(evaluate(UNIT_LAYERS.circles, 'paint', 'circle-opacity', unit('1'))).toBe(1);
    expect(evaluate(UNIT_LAYERS.circles, 'paint', 'circle-opacity', unit('1', false, 'offline'))).toBe(0.5);
    for (const [count, abbreviated] of [[3, '3'], [24, '24'], [25, '25'], [249, '249'], [250, '250'], [12_345, '12k']] as const) {
      expect(evaluate(UNIT_LAYERS.circles, 'paint', 'circle-radius', clusterOf(count, abbreviated)), abbreviated).toBe(clusterRadius(abbreviated));
    }
  });

  it('name units at street zoom below their marker, clear of markers and clusters, the selected one first', () => {
    const labels = layer(UNIT_LAYERS.labels);
    expect(labels.minzoom).toBe(LABEL_MIN_ZOOM);
    expect(LABEL_MIN_ZOOM).toBe(13);
    expect(draws(UNIT_LAYERS.labels, unit('1'))).toBe(true);
    expect(draws(UNIT_LAYERS.labels, cluster)).toBe(false);
    expect(evaluate(UNIT_LAYERS.labels, 'layout', 'icon-image', unit('1'))).toBe(`${LABEL_PREFIX}Van 1`);
    expect(labels.layout).toMatchObject({ 'icon-anchor': 'top', 'icon-allow-overlap': false, 'icon-ignore-placement': false });
    // Names are placed after (below) the markers, which take part in the collision test.
    const ids = unitLayers(null, false).map((l) => l.id);
    expect(ids.indexOf(UNIT_LAYERS.labels)).toBeLessThan(ids.indexOf(UNIT_LAYERS.symbols));
    expect(layer(UNIT_LAYERS.symbols).layout).toMatchObject({ 'icon-allow-overlap': true, 'icon-ignore-placement': false });
    expect(evaluate(UNIT_LAYERS.labels, 'layout', 'symbol-sort-key', unit('1'), '1')).toBe(0);
    expect(evaluate(UNIT_LAYERS.labels, 'layout', 'symbol-sort-key', unit('2'), '1')).toBe(1);
  });

  it('cut long names', () => {
    expect(labelText('  Service van 1 ')).toBe('Service van 1');
    expect(labelText('Refrigerated lorry number 1234567')).toBe('Refrigerated lorry numb…');
    expect([...labelText('Kylbil 🚚🚚🚚🚚🚚🚚🚚🚚🚚🚚🚚🚚🚚🚚🚚🚚🚚🚚🚚')].length).toBe(24);
  });
});
