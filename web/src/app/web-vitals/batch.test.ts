import { describe, expect, it } from 'vitest';
import type { VitalsBatch } from '../../../../shared/web-vitals';
import { routePatternOf } from '../paths';
import { VitalsBatcher, type MeasuredMetric } from './batch';
import { isSampled, sampleRateOf } from './sampling';

function setup(width = 390) {
  const sent: VitalsBatch[] = [];
  const batcher = new VitalsBatcher({ brand: 6, viewportWidth: () => width, send: (b) => sent.push(b) });
  return { sent, batcher };
}
const metric = (name: string, value: number, id = `v6-${name}`, navigationType = 'navigate'): MeasuredMetric => ({ id, name, value, rating: 'good', navigationType });

describe('the web vitals batcher', () => {
  it('sends nothing until flushed, then all of the page view in one report with brand and device class', () => {
    const { sent, batcher } = setup(390);
    batcher.add(metric('TTFB', 231.6), '/');
    batcher.add(metric('LCP', 1804.2), '/');
    expect(sent).toEqual([]);
    batcher.flush();
    expect(sent).toEqual([
      {
        brand: 6,
        device: 'phone',
        entries: [
          { name: 'TTFB', value: 232, rating: 'good', route: '/', navigationType: 'navigate' },
          { name: 'LCP', value: 1804, rating: 'good', route: '/', navigationType: 'navigate' },
        ],
      },
    ]);
    batcher.flush();
    expect(sent).toHaveLength(1);
  });

  it('counts each metric of a page view once: a repeated report of the same instance is dropped', () => {
    const { sent, batcher } = setup(1280);
    batcher.add(metric('CLS', 0.04, 'cls-1'), '/user/realtime-tracking');
    batcher.flush();
    batcher.add(metric('CLS', 0.31, 'cls-1'), '/user/realtime-tracking');
    // A new instance (a page restored from the back/forward cache) counts again.
    batcher.add(metric('CLS', 0.02, 'cls-2', 'back-forward-cache'), '/user/realtime-tracking');
    batcher.flush();
    expect(sent.map((b) => b.entries.map((e) => [e.value, e.navigationType]))).toEqual([[[0.04, 'navigate']], [[0.02, 'back-forward-cache']]]);
    expect(sent[0]?.device).toBe('desktop');
  });

  it("rates the rounded value by the thresholds the server checks, whatever the library said", () => {
    const { sent, batcher } = setup(800);
    batcher.add({ ...metric('LCP', 2500.4), rating: 'needs-improvement' }, '/');
    batcher.add({ ...metric('INP', 640), rating: 'good' }, '/');
    batcher.add(metric('CLS', 0.123456), '/');
    batcher.flush();
    expect(sent[0]?.device).toBe('tablet');
    expect(sent[0]?.entries.map((e) => [e.name, e.value, e.rating])).toEqual([
      ['LCP', 2500, 'good'],
      ['INP', 640, 'poor'],
      ['CLS', 0.1235, 'needs-improvement'],
    ]);
  });

  it('ignores metrics it does not report and values that are no measurement', () => {
    const { sent, batcher } = setup();
    batcher.add(metric('FCP', 900), '/');
    batcher.add(metric('LCP', Number.NaN), '/');
    batcher.add(metric('INP', -3), '/');
    batcher.flush();
    expect(sent).toEqual([]);
  });

  it('splits a long page view into reports of at most 8 measurements', () => {
    const { sent, batcher } = setup();
    for (let i = 0; i < 11; i++) batcher.add(metric('INP', 100 + i, `inp-${i}`), '/user/alerts');
    batcher.flush();
    expect(sent.map((b) => b.entries.length)).toEqual([8, 3]);
  });
});

describe('route patterns', () => {
  it('reports the pattern of an address, never its ids, query or unknown paths', () => {
    expect(routePatternOf('/user/check-in/ABC123')).toBe('/user/check-in/:code');
    expect(routePatternOf('/user/geofences/add-edit-geofences/42/')).toBe('/user/geofences/add-edit-geofences/:geofenceID');
    expect(routePatternOf('/user/realtime-tracking')).toBe('/user/realtime-tracking');
    expect(routePatternOf('/')).toBe('/');
    expect(routePatternOf('/user/someone@example.com')).toBe('*');
  });
});

describe('sampling', () => {
  it('uses the default rate unless the browser sets a rate from 0 to 1', () => {
    expect(sampleRateOf(null)).toBe(0.1);
    expect(sampleRateOf('1')).toBe(1);
    expect(sampleRateOf('0')).toBe(0);
    expect(sampleRateOf('2')).toBe(0.1);
    expect(sampleRateOf('often')).toBe(0.1);
  });
  it('samples a page view when its draw is below the rate', () => {
    expect(isSampled(1, 0.9999)).toBe(true);
    expect(isSampled(0, 0)).toBe(false);
    expect(isSampled(0.1, 0.05)).toBe(true);
    expect(isSampled(0.1, 0.1)).toBe(false);
  });
});
