/**
 * The scale of a report's bar chart, by hand (no chart library): the stacked height of each bar,
 * a top that is a round number above the highest bar and every limit line, and the ticks between.
 */
import type { ReportChart } from '../../../../shared/schemas/reports';

/** The sum of the series at each label (bars stack; negative values count as 0). */
export function stackTotals(chart: Pick<ReportChart, 'labels' | 'series'>): number[] {
  return chart.labels.map((_, i) => chart.series.reduce((sum, s) => sum + Math.max(0, s.values[i] ?? 0), 0));
}

/** 1, 2 or 5 times a power of ten: the step of about `count` ticks up to `max`. */
export function niceStep(max: number, count: number): number {
  if (!(max > 0)) return 1;
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const factor = raw / power;
  return (factor <= 1 ? 1 : factor <= 2 ? 2 : factor <= 5 ? 5 : 10) * power;
}

/** The axis: its top (a whole number of steps, at least the highest bar and limit) and ticks from 0. */
export function chartScale(chart: Pick<ReportChart, 'labels' | 'series' | 'limits'>, tickCount = 4): { top: number; ticks: number[] } {
  const highest = Math.max(0, ...stackTotals(chart), ...chart.limits.map((l) => l.value));
  const step = niceStep(highest, tickCount);
  const top = Math.max(step, Math.ceil(highest / step) * step);
  const ticks: number[] = [];
  for (let value = 0; value <= top + step / 2; value += step) ticks.push(Number(value.toPrecision(12)));
  return { top, ticks };
}

/** Width of a tick label's character (11 px text) and the room kept between two labels, px. */
export const CHAR_WIDTH = 6.6;
const LABEL_GAP = 10;

/** Every how many labels one is written under the axis so that labels of up to `longest` characters do not overlap. */
export function labelEvery(widthPerLabel: number, longest: number): number {
  return Math.max(1, Math.ceil((longest * CHAR_WIDTH + LABEL_GAP) / Math.max(1, widthPerLabel)));
}

/** Where a label centred under a bar is written so that it stays inside [left, right]. */
export function labelX(centre: number, label: string, left: number, right: number): number {
  const half = (label.length * CHAR_WIDTH) / 2;
  return Math.min(Math.max(centre, left + half), right - half);
}
