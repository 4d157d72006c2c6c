/**
 * What the speed chart says in words (its text alternative), and how its keyboard moves, as pure
 * functions of the route.
 */
import type { Position } from '../../../../shared/schemas/tracking';
import { MOVING_KMH } from '../../../../shared/unit-status';
import { STOP_GAP_MS } from './playback';

export interface SpeedSummary {
  /** The highest reported speed and the first time it was reported; null when none was. */
  top: { speed: number; time: number; index: number } | null;
  /**
   * km/h averaged over the time spent moving: each moving position's speed weighs as long as it
   * lasted until the next one. A silence longer than STOP_GAP_MS is not driving and does not
   * count. Null without such time.
   */
  averageMoving: number | null;
  /** How long the unit moved, ms, by the same rule. */
  movingMs: number;
}

export function speedSummary(positions: readonly Position[]): SpeedSummary {
  let top: SpeedSummary['top'] = null;
  let weighted = 0;
  let movingMs = 0;
  let previousTime = NaN;
  for (let i = 0; i < positions.length; i++) {
    const p = positions[i] as Position;
    const time = Date.parse(p.ts);
    if (p.speed !== null && (top === null || p.speed > top.speed)) top = { speed: p.speed, time, index: i };
    if (i > 0) {
      const before = positions[i - 1] as Position;
      const ms = time - previousTime;
      if (before.speed !== null && before.speed >= MOVING_KMH && ms > 0 && ms <= STOP_GAP_MS) {
        weighted += before.speed * ms;
        movingMs += ms;
      }
    }
    previousTime = time;
  }
  return { top, averageMoving: movingMs > 0 ? weighted / movingMs : null, movingMs };
}

/**
 * The point a key moves the chart's position to, or null for a key it does not use: arrows step
 * one point, Page Up and Page Down a tenth of the route, Home and End go to its ends.
 */
export function chartKeyTarget(key: string, index: number, count: number): number | null {
  if (count === 0) return null;
  const page = Math.max(1, Math.round(count / 10));
  const clamp = (i: number) => Math.min(Math.max(i, 0), count - 1);
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowDown':
      return clamp(index - 1);
    case 'ArrowRight':
    case 'ArrowUp':
      return clamp(index + 1);
    case 'PageDown':
      return clamp(index - page);
    case 'PageUp':
      return clamp(index + page);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/** The index of the position nearest in time to `time` (epoch ms) in ascending `times`. */
export function nearestIndex(times: readonly number[], time: number): number {
  if (times.length === 0) return 0;
  let lo = 0;
  let hi = times.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((times[mid] as number) < time) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && time - (times[lo - 1] as number) <= (times[lo] as number) - time) return lo - 1;
  return lo;
}
