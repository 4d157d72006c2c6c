/**
 * Which decoded positions are believable, as Traccar's FilterHandler decides (filter.invalid,
 * .zero, .future, .past, .maxSpeed): pure, with the previous accepted state as the only memory.
 * A filtered position is dropped (neither stored nor shown), as in Traccar; the message's other
 * records still count.
 */
import type { Position } from './types';

export type FilterReason = 'Invalid' | 'Zero' | 'NoFix' | 'Future' | 'Past' | 'MaxSpeed' | 'Jump';

export interface FilterLimits {
  /** Server time the message was received, epoch ms: "future" and "past" are measured from it. */
  now: number;
  /** Device clocks run on GNSS time; a position further ahead than this is a clock fault. */
  futureMs: number;
  /** Older than the account's retention: it would expire at once (and Teltonika's unsynced clock says 2004). */
  maxAgeMs: number;
  /** No unit we track moves faster (Teltonika's speed element tops out at 350 km/h). */
  maxSpeedKmh: number;
  /** Fix noise allowed before a jump counts, so that 1 Hz jitter does not read as speed. */
  jumpToleranceM: number;
}

export const DEFAULT_FILTER = {
  futureMs: 5 * 60_000,
  maxSpeedKmh: 350,
  jumpToleranceM: 100,
} as const;

export interface Fix {
  ts: number;
  lat: number;
  lon: number;
}

const EARTH_RADIUS_M = 6_371_008.8;
const RAD = Math.PI / 180;

/** Great-circle distance in metres (haversine). */
export function distanceM(aLat: number, aLon: number, bLat: number, bLon: number): number {
  const dLat = (bLat - aLat) * RAD;
  const dLon = (bLon - aLon) * RAD;
  const s = Math.sin(dLat / 2) ** 2 + Math.cos(aLat * RAD) * Math.cos(bLat * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(s)));
}

/** Null when the position is accepted, otherwise the first rule it fails. */
export function filterPosition(p: Position, prev: Fix | undefined, limits: FilterLimits): FilterReason | null {
  if (!(p.lat >= -90 && p.lat <= 90 && p.lon >= -180 && p.lon <= 180)) return 'Invalid';
  if (p.lat === 0 && p.lon === 0) return 'Zero';
  if (!p.fix) return 'NoFix';
  if (p.ts > limits.now + limits.futureMs) return 'Future';
  if (p.ts < limits.now - limits.maxAgeMs) return 'Past';
  if (p.speed !== undefined && p.speed > limits.maxSpeedKmh) return 'MaxSpeed';
  if (prev && prev.ts !== p.ts) {
    // Against the newest accepted fix, late or not: the average speed between two true fixes can
    // never exceed the top speed, so an older reference loosens the check but never fails a true one.
    const metres = distanceM(prev.lat, prev.lon, p.lat, p.lon) - limits.jumpToleranceM;
    if (metres > 0 && (metres / Math.abs(p.ts - prev.ts)) * 3_600_000 > limits.maxSpeedKmh * 1000) return 'Jump';
  }
  return null;
}
