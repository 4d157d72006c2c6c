/**
 * Eco driving in one place (docs/decisions/0041-eco-score.md): the thresholds each eco sensitivity
 * sets, the event types that count, the score's weights (an account may change them) and the
 * score itself. Pure, so the event engine, the day rollups, the report and the browser agree.
 *
 * Score of a stretch of driving (a trip, a day, a unit's period), 0..100, whole:
 *
 *   100 − Σ weight(kind) × harsh events of that kind per 100 km
 *       − weight(overspeed) × % of driving time over the unit's speed limit
 *       − weight(idle) × % of engine-on time standing still (idling)
 *
 * clamped to 0..100; none (null) under ECO_SCORE_MIN_KM, where a single event would swing it.
 */
import { z } from 'zod';
import type { EcoSensitivity } from './schemas/unit-editor';

export const harshKinds = ['acceleration', 'braking', 'cornering'] as const;
export type HarshKind = (typeof harshKinds)[number];

/** Standard gravity: the device parameters are m/s², the native protocol's `harsh.g` is in g. */
export const G = 9.80665;

export interface EcoThresholds {
  /** g at or above which a harsh event of each kind counts. */
  g: Readonly<Record<HarshKind, number>>;
  /** Standing with the ignition on this long (seconds) is an idling episode. */
  idleSeconds: number;
}

/**
 * Per sensitivity. Sensitive: Teltonika FMB's defaults (2.5, 2.7, 3.4 m/s²). Normal: GPS Insight's
 * recommendation for passenger cars and light vans (class 1: 0.37, 0.38, 0.38 g). Insensitive:
 * 0.45 g, the DOT's harsh (not dangerous) braking. Idling: 60 s, 120 s (a common
 * fleet default) and 300 s.
 */
export const ECO_THRESHOLDS: Readonly<Record<EcoSensitivity, EcoThresholds>> = {
  sensitive: { g: { acceleration: 0.25, braking: 0.28, cornering: 0.35 }, idleSeconds: 60 },
  normal: { g: { acceleration: 0.37, braking: 0.38, cornering: 0.38 }, idleSeconds: 120 },
  insensitive: { g: { acceleration: 0.45, braking: 0.45, cornering: 0.45 }, idleSeconds: 300 },
};

export const DEFAULT_ECO_SENSITIVITY: EcoSensitivity = 'normal';

export const ecoThresholdsOf = (sensitivity: EcoSensitivity | undefined): EcoThresholds => ECO_THRESHOLDS[sensitivity ?? DEFAULT_ECO_SENSITIVITY];

/** The params of the `ecoThresholds` command a unit's tracker gets when its sensitivity changes (shared/schemas/commands.ts). */
export function ecoThresholdParams(sensitivity: EcoSensitivity): { sensitivity: EcoSensitivity; accelerationG: number; brakingG: number; corneringG: number } {
  const { g } = ECO_THRESHOLDS[sensitivity];
  return { sensitivity, accelerationG: g.acceleration, brakingG: g.braking, corneringG: g.cornering };
}

/** A threshold in m/s², one decimal, as a Teltonika device takes it (parameters 11004-11006). */
export const metresPerSecond2 = (g: number): number => Math.round(g * G * 10) / 10;

/** The events the engine records for eco driving (shared/schemas/events.ts); never alarms. */
export const HARSH_EVENT_TYPES = { acceleration: 'harshAcceleration', braking: 'harshBraking', cornering: 'harshCornering' } as const satisfies Record<HarshKind, string>;
export const ecoEventTypes = ['harshAcceleration', 'harshBraking', 'harshCornering', 'overspeedEpisode', 'idling'] as const;
export type EcoEventType = (typeof ecoEventTypes)[number];
export const isEcoEventType = (type: string): type is EcoEventType => (ecoEventTypes as readonly string[]).includes(type);

/** Under this distance a stretch has no score. */
export const ECO_SCORE_MIN_KM = 20;

/** Points taken per harsh event per 100 km (by kind), per % of driving over the limit, per % of idling. */
export interface EcoWeights {
  acceleration: number;
  braking: number;
  cornering: number;
  overspeed: number;
  idle: number;
}

/**
 * The defaults: 2 points per harsh event per 100 km (10 events per 100 km, Teltonika's allowed
 * count, cost 20 points), 1 point per % of driving time over the limit (Samsara's first safety
 * score), half a point per % of idling.
 */
export const DEFAULT_ECO_WEIGHTS: Readonly<EcoWeights> = { acceleration: 2, braking: 2, cornering: 2, overspeed: 1, idle: 0.5 };
export const ECO_WEIGHT_MAX = 20;

const weight = z.number('InvalidEcoWeight').min(0, 'InvalidEcoWeight').max(ECO_WEIGHT_MAX, 'InvalidEcoWeight').transform((n) => Math.round(n * 100) / 100);

/** An account's weights as an admin saves them (PUT /administration/settings `ecoWeights`): all five, 0..20. */
export const ecoWeightsSchema = z.strictObject(
  { acceleration: weight, braking: weight, cornering: weight, overspeed: weight, idle: weight },
  { message: 'InvalidEcoWeight' },
);

/** What a score is made of: counts and times of a stretch of driving. */
export interface EcoFigures {
  distanceM: number;
  /** Seconds in motion and standing with the ignition on (the trips' figures). */
  movingS: number;
  idleS: number;
  harshAccelerations: number;
  harshBrakings: number;
  harshCornerings: number;
  /** Seconds over the unit's speed limit (overspeed episodes). */
  overspeedS: number;
}

export const emptyEcoFigures = (): EcoFigures => ({ distanceM: 0, movingS: 0, idleS: 0, harshAccelerations: 0, harshBrakings: 0, harshCornerings: 0, overspeedS: 0 });

export function addEcoFigures(a: EcoFigures, b: EcoFigures): EcoFigures {
  return {
    distanceM: a.distanceM + b.distanceM,
    movingS: a.movingS + b.movingS,
    idleS: a.idleS + b.idleS,
    harshAccelerations: a.harshAccelerations + b.harshAccelerations,
    harshBrakings: a.harshBrakings + b.harshBrakings,
    harshCornerings: a.harshCornerings + b.harshCornerings,
    overspeedS: a.overspeedS + b.overspeedS,
  };
}

/** The parts of the score: the rates and shares it takes points for, and the points. */
export interface EcoBreakdown {
  /** Harsh events per 100 km. */
  accelerationsPer100Km: number;
  brakingsPer100Km: number;
  corneringsPer100Km: number;
  /** % of driving time over the limit, % of engine-on time idling. */
  overspeedPercent: number;
  idlePercent: number;
  /** 0..100, or null under ECO_SCORE_MIN_KM. */
  score: number | null;
}

const per100 = (count: number, km: number) => (km > 0 ? (count / km) * 100 : 0);
const percent = (part: number, whole: number) => (whole > 0 ? (part / whole) * 100 : 0);

export function ecoBreakdown(f: EcoFigures, weights: EcoWeights = DEFAULT_ECO_WEIGHTS): EcoBreakdown {
  const km = f.distanceM / 1000;
  const parts = {
    accelerationsPer100Km: per100(f.harshAccelerations, km),
    brakingsPer100Km: per100(f.harshBrakings, km),
    corneringsPer100Km: per100(f.harshCornerings, km),
    overspeedPercent: percent(f.overspeedS, f.movingS),
    idlePercent: percent(f.idleS, f.movingS + f.idleS),
  };
  const points =
    weights.acceleration * parts.accelerationsPer100Km +
    weights.braking * parts.brakingsPer100Km +
    weights.cornering * parts.corneringsPer100Km +
    weights.overspeed * parts.overspeedPercent +
    weights.idle * parts.idlePercent;
  return { ...parts, score: km < ECO_SCORE_MIN_KM ? null : Math.round(Math.min(100, Math.max(0, 100 - points))) };
}

/** An eco event as the events table keeps it: its type, device time and details. */
export interface EcoEvent {
  type: EcoEventType;
  ts: number;
  lat: number | null;
  lon: number | null;
  details: Readonly<Record<string, string | number | boolean | null>>;
}

/** [start, end) ms of an episode event (overspeed, idling): from its time for its `seconds`. */
export function episodeEnd(event: Pick<EcoEvent, 'ts' | 'details'>): number {
  const seconds = event.details['seconds'];
  return event.ts + (typeof seconds === 'number' && seconds > 0 ? seconds * 1000 : 0);
}

/**
 * The eco counts of a stretch [startTs, stopTs] from the unit's eco events: harsh events inside it,
 * and the seconds of the overspeed episodes that overlap it.
 */
export function ecoCountsIn(
  startTs: number,
  stopTs: number,
  events: readonly EcoEvent[],
): Pick<EcoFigures, 'harshAccelerations' | 'harshBrakings' | 'harshCornerings' | 'overspeedS'> {
  const counts = { harshAccelerations: 0, harshBrakings: 0, harshCornerings: 0, overspeedS: 0 };
  for (const e of events) {
    if (e.type === 'overspeedEpisode') {
      const overlap = Math.min(stopTs, episodeEnd(e)) - Math.max(startTs, e.ts);
      if (overlap > 0) counts.overspeedS += overlap / 1000;
      continue;
    }
    if (e.ts < startTs || e.ts > stopTs) continue;
    if (e.type === 'harshAcceleration') counts.harshAccelerations += 1;
    else if (e.type === 'harshBraking') counts.harshBrakings += 1;
    else if (e.type === 'harshCornering') counts.harshCornerings += 1;
  }
  counts.overspeedS = Math.round(counts.overspeedS);
  return counts;
}
