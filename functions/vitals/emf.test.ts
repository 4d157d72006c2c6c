import { afterEach, describe, expect, it, vi } from 'vitest';
import type { VitalsBatch } from '../../shared/web-vitals';
import { emfDocuments, emitVitalMetrics } from './emf';
import { incrementsOf } from './store';

const now = new Date('2026-11-29T23:41:07.000Z');
const batch: VitalsBatch = {
  brand: 3,
  device: 'phone',
  entries: [
    { name: 'TTFB', value: 120, rating: 'good', route: '/', navigationType: 'navigate' },
    { name: 'LCP', value: 2600, rating: 'needs-improvement', route: '/', navigationType: 'navigate' },
    { name: 'CLS', value: 0.02, rating: 'good', route: '/user/check-in/:code', navigationType: 'navigate' },
    { name: 'INP', value: 520, rating: 'poor', route: '/user/check-in/:code', navigationType: 'navigate' },
    { name: 'INP', value: 40, rating: 'good', route: '/user/check-in/:code', navigationType: 'navigate' },
  ],
};

afterEach(() => vi.restoreAllMocks());

describe('web vitals as embedded metric format', () => {
  it('writes one document per route and navigation type with the fixed namespace, no dimension but the total, units and plain values; a repeated metric in another', () => {
    const docs = emfDocuments(batch, now);
    const expected = (route: string, metrics: { Name: string; Unit: string }[], values: Record<string, number>) => ({
      _aws: { Timestamp: now.getTime(), CloudWatchMetrics: [{ Namespace: 'TrackingPortal/WebVitals', Dimensions: [[]], Metrics: metrics }] },
      Route: route,
      Brand: 3,
      Device: 'phone',
      NavigationType: 'navigate',
      ...values,
    });
    expect(docs).toEqual([
      expected(
        '/',
        [
          { Name: 'TTFB', Unit: 'Milliseconds' },
          { Name: 'LCP', Unit: 'Milliseconds' },
        ],
        { TTFB: 120, LCP: 2600 },
      ),
      expected(
        '/user/check-in/:code',
        [
          { Name: 'CLS', Unit: 'None' },
          { Name: 'INP', Unit: 'Milliseconds' },
        ],
        { CLS: 0.02, INP: 520 },
      ),
      expected('/user/check-in/:code', [{ Name: 'INP', Unit: 'Milliseconds' }], { INP: 40 }),
    ]);
  });

  it('keeps a navigation type of the same route apart', () => {
    const docs = emfDocuments({ ...batch, entries: [batch.entries[0]!, { ...batch.entries[0]!, value: 90, navigationType: 'reload' }] }, now);
    expect(docs.map((d) => [d.Route, d.NavigationType, d['TTFB']])).toEqual([
      ['/', 'navigate', 120],
      ['/', 'reload', 90],
    ]);
  });

  it('prints each document as one JSON line with _aws and the metric values at its root, at any log level', () => {
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    emitVitalMetrics(batch, now);
    const docs = lines.flatMap((l) => l.split('\n')).filter((l) => l.includes('"_aws"')).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(docs).toHaveLength(3);
    expect(docs[0]).toMatchObject({ _aws: { Timestamp: now.getTime() }, Route: '/', TTFB: 120, LCP: 2600 });
    expect(docs[1]).toMatchObject({ Route: '/user/check-in/:code', INP: 520, CLS: 0.02 });
    expect(docs[2]).toMatchObject({ Route: '/user/check-in/:code', INP: 40 });
  });
});

describe('the support histograms a report adds to', () => {
  it('adds one update per hour, metric and route, counting each measurement, its rating and its bin', () => {
    const incs = incrementsOf(batch, now);
    expect(incs.map((i) => i.sk)).toEqual(['2026-11-29T23#TTFB#/', '2026-11-29T23#LCP#/', '2026-11-29T23#CLS#/user/check-in/:code', '2026-11-29T23#INP#/user/check-in/:code']);
    expect(incs.every((i) => i.day === '2026-11-29')).toBe(true);
    const inp = incs[3];
    expect(inp?.counts.get('n')).toBe(2);
    expect(inp?.counts.get('poor')).toBe(1);
    expect(inp?.counts.get('good')).toBe(1);
    expect([...(inp?.counts.keys() ?? [])].filter((k) => /^b\d+$/.test(k))).toHaveLength(2);
    // Kept 8 days after the hour began.
    expect(inp?.expiresAt).toBe(Date.parse('2026-11-29T23:00:00Z') / 1000 + 8 * 86400);
  });
});
