/**
 * Stops on a history route, as a pure function of its positions (oldest first, as the API answers).
 *
 * A unit stands still at a position when the tracker reports a speed below MOVING_KMH there, or,
 * when it reports no speed, its ignition off: the rule of the map's status (shared/unit-status.ts),
 * where a reported speed decides, so that a trailer without an ignition wire is not parked forever.
 * Between two positions the unit stood when it stood at the first one, or when it covered the
 * distance between them at under MOVING_KMH on average over at least a minute: a tracker that
 * stops reporting while parked (movement mode) and reports again from the same spot stood in
 * between, whatever speed it sent last.
 *
 * A stop runs from the position where the unit arrived (the first still one) to the one where it
 * was moving again, which is when it left at the latest. Stops that the unit never left by more
 * than STOP_RADIUS_M in between (GPS drift in a car park, a few metres of manoeuvring) are one stop.
 * Only stops of at least `minStopMs` count: the unit's time till parked, 3 minutes unless set, the
 * same rule that ends a trip in the trip log.
 *
 * A stop at either end of the route is cut by the period: the unit may have arrived before the
 * first position (`fromStart`) or still stand at the last (`toEnd`).
 */
import type { Position } from '../../../../shared/schemas/tracking';
import { MOVING_KMH } from '../../../../shared/unit-status';

/** The default time till parked (functions/domain/unit/schema.ts timeTillParkedMinutes). */
export const DEFAULT_TIME_TILL_PARKED_MINUTES = 3;
/** Positions of one stop lie within this of where the unit arrived. */
export const STOP_RADIUS_M = 50;
/** A silence at least this long between two positions close together is standing still. */
export const SILENT_STAND_MS = 60_000;

export interface Stop {
  /** Index of the position where the unit arrived. */
  first: number;
  /** Index of the position where it was moving again, or of the route's last position. */
  last: number;
  lat: number;
  lon: number;
  /** Epoch ms. */
  arrival: number;
  /** Epoch ms: when it was seen moving again, or the last position's time when `toEnd`. */
  departure: number;
  durationMs: number;
  /** It already stood at the route's first position: it arrived then or earlier. */
  fromStart: boolean;
  /** It still stood at the route's last position: it left then or later, if at all. */
  toEnd: boolean;
}

export interface StopOptions {
  /** The shortest stop, ms: the unit's time till parked. */
  minStopMs?: number;
}

/** Whether the tracker says the unit stands still at this position. */
export function isStill(p: Pick<Position, 'speed' | 'ignition'>): boolean {
  return p.speed !== null ? p.speed < MOVING_KMH : p.ignition === false;
}

const EARTH_RADIUS_M = 6_371_000;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in metres. */
export function distanceM(a: Pick<Position, 'lat' | 'lon'>, b: Pick<Position, 'lat' | 'lon'>): number {
  const dLat = rad(b.lat - a.lat);
  const dLon = rad(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Whether the unit stood between positions i and i + 1. */
function stoodAfter(positions: readonly Position[], times: readonly number[], i: number): boolean {
  const a = positions[i] as Position;
  if (isStill(a)) return true;
  const b = positions[i + 1] as Position;
  const ms = (times[i + 1] as number) - (times[i] as number);
  if (!(ms >= SILENT_STAND_MS)) return false;
  return distanceM(a, b) / (ms / 3_600_000) / 1000 < MOVING_KMH;
}

/** The stops of a route of at least `minStopMs` (default: 3 minutes), in time order. */
export function findStops(positions: readonly Position[], options: StopOptions = {}): Stop[] {
  const minStopMs = options.minStopMs ?? DEFAULT_TIME_TILL_PARKED_MINUTES * 60_000;
  const n = positions.length;
  if (n < 2) return [];
  const times = positions.map((p) => Date.parse(p.ts));

  // Runs [first, last] of positions the unit stood between; `last` is where it moved again.
  const runs: Array<[number, number]> = [];
  let start = -1;
  for (let i = 0; i < n - 1; i++) {
    if (stoodAfter(positions, times, i)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      runs.push([start, i]);
      start = -1;
    }
  }
  if (start >= 0) runs.push([start, n - 1]);

  // A unit that moved no further than STOP_RADIUS_M between two runs never left.
  const merged: Array<[number, number]> = [];
  for (const run of runs) {
    const previous = merged[merged.length - 1];
    if (previous && staysNear(positions, previous[0], previous[1], run[0])) previous[1] = run[1];
    else merged.push([run[0], run[1]]);
  }

  const stops: Stop[] = [];
  for (const [first, last] of merged) {
    const arrival = times[first] as number;
    const toEnd = last === n - 1 && isStill(positions[last] as Position);
    const departure = times[last] as number;
    const durationMs = departure - arrival;
    if (!(durationMs >= minStopMs)) continue;
    const at = positions[first] as Position;
    stops.push({
      first,
      last,
      lat: at.lat,
      lon: at.lon,
      arrival,
      departure,
      durationMs,
      fromStart: first === 0 && isStill(at),
      toEnd,
    });
  }
  return stops;
}

/** Whether positions `from`..`to` all lie within STOP_RADIUS_M of position `anchor`. */
function staysNear(positions: readonly Position[], anchor: number, from: number, to: number): boolean {
  const at = positions[anchor] as Position;
  for (let i = from; i <= to; i++) {
    if (distanceM(at, positions[i] as Position) > STOP_RADIUS_M) return false;
  }
  return true;
}
