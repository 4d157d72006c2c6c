/**
 * How a simulated driver drives beyond the physics: now and then a harsh acceleration, braking or
 * cornering the tracker measures (the native record's `harsh`, Teltonika's green-driving IO 253,
 * 254 and 243), and now and then a stop with the engine left running (idling). Shared by the live
 * simulator (vehicle.ts) and the demo history (demo-history.ts), which drive the same physics.
 *
 * A driver's harshness (0 to 1) comes from the tracker's IMEI, so a unit keeps its style across
 * restarts and between its history and its live driving: most drivers are gentle, a few are not.
 * The draws come from a generator of their own (never the one that plans the trips), so adding
 * style changes no trip.
 */
import type { Random } from './random';
import { seededRandom } from './random';

export type HarshKind = 'acceleration' | 'braking' | 'cornering';

/** One harsh episode as the tracker reports it: its kind, its peak in g, and how long it lasted. */
export interface HarshEvent {
  kind: HarshKind;
  g: number;
  ms: number;
}

/** A tracker reports a harsh episode at most this often (the scenario holds while it lasts). */
export const HARSH_GAP_MS = 45_000;
const G = 9.81;

/** 0 (gentle) to 1 (rough), from the IMEI: squared, so most of a fleet drives gently. */
export function harshnessOf(imei: string): number {
  let h = 0x811c9dc5;
  for (const c of imei) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return seededRandom(h).next() ** 2;
}

/** The style's own generator for a tracker, apart from the ones that plan and drive its trips. */
export function styleRandom(imei: string, salt: number): Random {
  let h = 0x2545f491 ^ salt;
  for (const c of imei) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return seededRandom(h);
}

const round2 = (v: number) => Math.round(v * 100) / 100;

/**
 * Whether one second of driving, from speed `v0` to `v1` (m/s) with the heading turning
 * `turnDegPerS`, shows a harsh episode. The physics brakes at most 3.5 m/s² and accelerates at
 * most 2.2 m/s² (0.22 g to 0.36 g); a rough driver's worst moments go past the usual thresholds
 * (0.25 g to 0.4 g), so the episode's peak is drawn above what the step shows.
 */
export function harshInStep(rng: Random, harshness: number, v0: number, v1: number, turnDegPerS: number): HarshEvent | null {
  const dv = v1 - v0;
  if (dv <= -1.8 && v0 > 20 / 3.6 && rng.chance(0.015 * harshness)) {
    return { kind: 'braking', g: round2(Math.min(0.8, Math.max(-dv / G, rng.between(0.38, 0.6)))), ms: rng.int(600, 2500) };
  }
  if (dv >= 1 && v0 > 10 / 3.6 && v0 < 60 / 3.6 && rng.chance(0.008 * harshness)) {
    return { kind: 'acceleration', g: round2(rng.between(0.3, 0.48)), ms: rng.int(1000, 3500) };
  }
  // The lateral acceleration v·ω of a bend taken at speed.
  const lateral = (v1 * turnDegPerS * Math.PI) / 180;
  if (v1 > 30 / 3.6 && lateral > 2 && rng.chance(0.03 * harshness)) {
    // A waypoint's corner is sharper than any road: the peak stays what tyres can hold.
    return { kind: 'cornering', g: round2(Math.min(0.8, Math.max(lateral / G, rng.between(0.36, 0.55)))), ms: rng.int(800, 2500) };
  }
  return null;
}

/**
 * Now and then the engine is left running at a stop for minutes on end (waiting, a delivery, the
 * heater): the seconds it runs, or null for the usual short arrival.
 */
export function longIdleS(rng: Random, harshness: number): number | null {
  return rng.chance(0.04 + 0.08 * harshness) ? rng.int(5 * 60, 14 * 60) : null;
}
