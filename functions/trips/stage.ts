/**
 * Trip detection as an ingest stage (functions/ingest/transitions.ts): the detector's state rides
 * on the unit item, each batch's positions advance it, and every trip it closes becomes an effect
 * that stores the trip (store-detected.ts) once the transition holding it is written, so a trip
 * is stored once however often a batch comes again.
 *
 * Late positions (older than what the detector has seen) change decisions already taken:
 * - before the stop of the last closed trip, the trips they touch are re-detected from the stored
 *   positions (`tripsRedetect`, through the trip-redetect queue to store-detected.ts redetectTrips, which widens the window to those
 *   trips and the parked time around them), never past that stop, where the detector's own
 *   state takes over;
 * - after it (inside the trip still open, or the parked stretch before it), the next trip to close
 *   is re-detected from the earliest such position instead of being stored as detected.
 *
 * Effect ids are derived from what caused them, so a recomputed transition decides the same effect.
 */
import { z } from 'zod';
import type { Effect, EffectSender, IngestStage } from '../ingest/transitions';
import { detectTrips, parseDetectorState, initialDetectorState, tripSettingsOf, type DetectedTrip, type DetectorState } from './detect';
import { storeDetectedTrips } from './store-detected';

export const TRIP_STAGE = 'trips';
export const TRIP_CLOSED = 'tripClosed';
export const TRIPS_REDETECT = 'tripsRedetect';

export interface TripStageState {
  detector: DetectorState;
  /** Stop of the last trip the detector closed, epoch ms: trips up to here are stored. */
  closedUntil?: number | undefined;
  /** The earliest late position after `closedUntil`: the next closed trip is re-detected from there. */
  dirtyFrom?: number | undefined;
}

const storedSchema = z.object({ detector: z.unknown(), closedUntil: z.number().optional(), dirtyFrom: z.number().optional() });

const detectedTripSchema = z.object({
  startTs: z.number(),
  stopTs: z.number(),
  startLat: z.number(),
  startLon: z.number(),
  stopLat: z.number(),
  stopLon: z.number(),
  distanceM: z.number(),
  startCounterM: z.number(),
  stopCounterM: z.number(),
  counterSource: z.enum(['tracker', 'computed']),
  maxSpeedKmh: z.number(),
  basis: z.enum(['ignition', 'movement']),
});
const windowSchema = z.object({ fromTs: z.number(), toTs: z.number() });

export const tripStage: IngestStage<TripStageState> = {
  name: TRIP_STAGE,
  parse(stored) {
    const parsed = storedSchema.safeParse(stored);
    if (!parsed.success) return undefined;
    const detector = parseDetectorState(parsed.data.detector);
    return detector ? { detector, closedUntil: parsed.data.closedUntil, dirtyFrom: parsed.data.dirtyFrom } : undefined;
  },
  run({ unit, previous, positions, late }) {
    const settings = tripSettingsOf(unit);
    let { detector, closedUntil, dirtyFrom } = previous ?? { detector: initialDetectorState() };
    const effects: Effect[] = [];

    if (late.length) {
      const first = late[0]!.ts;
      const last = late[late.length - 1]!.ts;
      if (closedUntil !== undefined && first <= closedUntil) {
        // The window of the late positions themselves: redetectTrips widens it to the trips they touch.
        const toTs = Math.min(last, closedUntil);
        effects.push({ id: `${TRIPS_REDETECT}:${first}:${toTs}`, kind: TRIPS_REDETECT, payload: { fromTs: first, toTs } });
      }
      if (last > (closedUntil ?? -Infinity)) {
        const from = Math.max(first, (closedUntil ?? -Infinity) + 1);
        dirtyFrom = Math.min(dirtyFrom ?? Infinity, from);
      }
    }

    const result = detectTrips(detector, positions, settings);
    detector = result.state;
    for (const trip of result.closed) {
      if (dirtyFrom !== undefined && dirtyFrom <= trip.stopTs) {
        const window = { fromTs: Math.min(dirtyFrom, trip.startTs), toTs: trip.stopTs };
        effects.push({ id: `${TRIPS_REDETECT}:${window.fromTs}:${window.toTs}`, kind: TRIPS_REDETECT, payload: window });
        dirtyFrom = undefined;
      } else {
        effects.push({ id: `${TRIP_CLOSED}:${trip.startTs}`, kind: TRIP_CLOSED, payload: { ...trip } });
      }
      closedUntil = trip.stopTs;
    }
    return { state: { detector, ...(closedUntil !== undefined ? { closedUntil } : {}), ...(dirtyFrom !== undefined ? { dirtyFrom } : {}) }, effects };
  },
};

/** Stores a closed trip (idempotent: a trip already stored, or edited since, is left as it is). */
const sendTripClosed: EffectSender = async (effect, unit, ports) => {
  const trip: DetectedTrip = detectedTripSchema.parse(effect.payload);
  await storeDetectedTrips(unit, [trip], ports);
};

/** Hands the window to the trip-redetect queue (trip-redetect.ts), so that a long re-detection never holds up ingest. */
const sendRedetect: EffectSender = async (effect, unit, ports) => {
  const { fromTs, toTs } = windowSchema.parse(effect.payload);
  await ports.queues.send('trip-redetect', { imei: unit.imei, accountId: unit.accountId, fromTs, toTs });
};

export const TRIP_EFFECT_SENDERS: Readonly<Record<string, EffectSender>> = {
  [TRIP_CLOSED]: sendTripClosed,
  [TRIPS_REDETECT]: sendRedetect,
};
