import { describe, expect, it } from 'vitest';
import type { Position } from '../../../../shared/schemas/tracking';
import { chartKeyTarget, nearestIndex, speedSummary } from './speed-summary';

const T0 = Date.parse('2026-05-04T08:00:00Z');
const p = (minutes: number, speed: number | null): Position => ({
  ts: new Date(T0 + minutes * 60_000).toISOString(),
  lat: 59.33,
  lon: 18.06,
  speed,
  heading: null,
  ignition: true,
});

describe('speedSummary', () => {
  it('names the top speed where it was first reached and averages over the time moving', () => {
    // 30 km/h for 2 minutes, 60 for 1, standing 5 minutes (not counted), 60 again for 1.
    const route = [p(0, 30), p(2, 60), p(3, 0), p(8, 60), p(9, 20)];
    const summary = speedSummary(route);
    expect(summary.top).toEqual({ speed: 60, time: T0 + 2 * 60_000, index: 1 });
    expect(summary.movingMs).toBe(4 * 60_000);
    expect(summary.averageMoving).toBeCloseTo((30 * 2 + 60 + 60) / 4, 6);
  });

  it('leaves a long silence out of the time moving', () => {
    const summary = speedSummary([p(0, 50), p(1, 50), p(31, 50)]);
    expect(summary.movingMs).toBe(60_000);
    expect(summary.averageMoving).toBe(50);
  });

  it('has nothing to say without speeds or movement', () => {
    expect(speedSummary([])).toEqual({ top: null, averageMoving: null, movingMs: 0 });
    expect(speedSummary([p(0, null), p(1, null)])).toEqual({ top: null, averageMoving: null, movingMs: 0 });
    expect(speedSummary([p(0, 0), p(10, 0)])).toEqual({ top: { speed: 0, time: T0, index: 0 }, averageMoving: null, movingMs: 0 });
  });
});

describe('chartKeyTarget', () => {
  it('steps, pages and jumps within the route like a slider', () => {
    expect(chartKeyTarget('ArrowRight', 3, 40)).toBe(4);
    expect(chartKeyTarget('ArrowUp', 39, 40)).toBe(39);
    expect(chartKeyTarget('ArrowLeft', 0, 40)).toBe(0);
    expect(chartKeyTarget('ArrowDown', 3, 40)).toBe(2);
    expect(chartKeyTarget('PageUp', 3, 40)).toBe(7);
    expect(chartKeyTarget('PageDown', 3, 40)).toBe(0);
    expect(chartKeyTarget('PageUp', 0, 5)).toBe(1);
    expect(chartKeyTarget('Home', 20, 40)).toBe(0);
    expect(chartKeyTarget('End', 0, 40)).toBe(39);
    expect(chartKeyTarget('Enter', 3, 40)).toBeNull();
    expect(chartKeyTarget('End', 0, 0)).toBeNull();
  });
});

describe('nearestIndex', () => {
  it('finds the position nearest in time, the earlier one on a tie', () => {
    const times = [0, 10, 20, 40];
    expect(nearestIndex(times, -5)).toBe(0);
    expect(nearestIndex(times, 4)).toBe(0);
    expect(nearestIndex(times, 5)).toBe(0);
    expect(nearestIndex(times, 6)).toBe(1);
    expect(nearestIndex(times, 31)).toBe(3);
    expect(nearestIndex(times, 99)).toBe(3);
    expect(nearestIndex([], 5)).toBe(0);
  });
});
