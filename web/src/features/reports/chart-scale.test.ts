import { describe, expect, it } from 'vitest';
import { chartScale, labelEvery, labelX, niceStep, stackTotals } from './chart-scale';

describe('chart scale', () => {
  const chart = {
    labels: ['Jan', 'Feb', 'Mar'],
    series: [
      { key: 'business', label: 'Business', values: [120, 40, 0] },
      { key: 'private', label: 'Private', values: [30, -5, 10] },
    ],
    limits: [] as Array<{ label: string; value: number }>,
  };
  it('stacks the series per label, negatives as nothing', () => {
    expect(stackTotals(chart)).toEqual([150, 40, 10]);
  });
  it('rounds the top up to a whole number of 1, 2 or 5 steps', () => {
    expect(niceStep(150, 4)).toBe(50);
    expect(niceStep(0.9, 4)).toBe(0.5);
    expect(chartScale(chart)).toEqual({ top: 150, ticks: [0, 50, 100, 150] });
  });
  it('reaches above a limit higher than every bar', () => {
    expect(chartScale({ ...chart, limits: [{ label: 'Limit', value: 1000 }] }).top).toBe(1000);
    expect(chartScale({ ...chart, limits: [{ label: 'Limit', value: 1001 }] }).top).toBe(1500);
  });
  it('an empty chart still has an axis', () => {
    expect(chartScale({ labels: [], series: [], limits: [] })).toEqual({ top: 1, ticks: [0, 1] });
  });
  it('keeps a label at either end inside the figure', () => {
    // yyyy-MM-dd is 66 px wide: centred at most 33 px from either edge.
    expect(labelX(640, '2026-10-31', 0, 650)).toBe(617);
    expect(labelX(5, '2026-10-01', 0, 650)).toBe(33);
    expect(labelX(300, '2026-10-15', 0, 650)).toBe(300);
  });
  it('writes every label while they fit, else every n-th', () => {
    // Three letters (Jan) in 60 px each; a yyyy-MM-dd day in 23 px (31 days in 720 px): every 4th.
    expect(labelEvery(60, 3)).toBe(1);
    expect(labelEvery(720 / 31, 10)).toBe(4);
  });
});
