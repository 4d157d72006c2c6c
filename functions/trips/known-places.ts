/**
 * Where a unit parked before: a trip end within SAME_PLACE_M of an end of one of the unit's
 * latest trips is the same place and takes its address (functions/trips/trip-addresses.ts).
 * Pure, so the cost model's measurement (scripts/cost/item-sizes.ts) applies the same rule.
 */
import { distanceM } from '../../shared/geo';

/** Metres between two trip ends within which both are one place. */
export const SAME_PLACE_M = 30;

/** How many of the unit's latest trips are searched for an end where it parked before. */
export const RECENT_TRIPS = 50;

/** An end of a trip with its address: where the unit was before. */
export type KnownEnd = { lat: number; lon: number; address: string; end?: 'start' | 'stop'; startTs?: number };

/**
 * The address an end takes from where the unit parked before, or undefined when the geocoder must
 * answer: for a start the previous trip's stop (`known[0..]` newest first, as recentTripEnds
 * answers) when within SAME_PLACE_M, else the nearest known end within SAME_PLACE_M.
 */
export function reusedAddress(end: 'start' | 'stop', lat: number, lon: number, known: readonly KnownEnd[]): string | undefined {
  const newest = known[0]?.startTs;
  const previous = end === 'start' ? known.find((e) => e.end === 'stop' && e.startTs === newest) : undefined;
  if (previous && distanceM(previous.lat, previous.lon, lat, lon) <= SAME_PLACE_M) return previous.address;
  let best: { address: string; m: number } | undefined;
  for (const e of known) {
    const m = distanceM(e.lat, e.lon, lat, lon);
    if (m <= SAME_PLACE_M && (!best || m < best.m)) best = { address: e.address, m };
  }
  return best?.address;
}
