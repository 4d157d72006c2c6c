/**
 * Trip detection as an ingest stage (functions/ingest/transitions.ts): the detector's state rides
 * on the unit item, each batch's positions advance it, and every trip it closes becomes an effect
 * that stores the trip (store-detected.ts) once the transition holding it is written, so a trip
 * is stored once however often a batch comes again.
 *
 * Late positions (older than what the detector has seen) change decisions already taken, or take
 * them where the detector never saw anything happen (a tracker sending a buffered drive after
 * newer positions). Time splits in two at `closedUntil`: up to there the trip log is settled and
 * re-detection (`tripsRedetect`: the trip-redetect queue's consumer runs store-detected.ts
 * redetectTrips, which widens the window to the trips touched and the parked time around them)
 * decides; after it the detector's own state does.
 * - Late positions up to `closedUntil` re-detect their window at once (queued with the batch).
 * - Later ones mark a dirty stretch (`dirtyFrom`..`dirtyTo`). As soon as the detector has left it
 *   behind (`settledUntil`: before the trip it has open, and time-till-parked before its newest
 *   position, so no trip it may still close reaches back there), the stretch is re-detected up to
 *   there and `closedUntil` moves on: a late drive becomes its trip with the batch that brings it,
 *   whether or not the unit has trips before it or drives again later (within seconds: the queue's
 *   consumer runs beside ingest). A trip the detector closes
 *   over a dirty stretch is re-detected instead of being stored as detected.
 * - Late positions inside a trip the detector holds open, when it last saw the unit active more
 *   than time-till-parked before its newest position (a fix from after a gap came first, the gap
 *   after it), re-detect the trip's start up to there at once: the trips in the gap do not wait
 *   for the position that lets the detector close its own.
 *
 * Effect ids are derived from what caused them, so a recomputed transition decides the same effect.
 */
import { z } from 'zod';
import type { Effect, EffectSender, IngestStage } from '../ingest/transitions';
import { detectTrips, packDetectorState, parseDetectorState, initialDetectorState, tripSettingsOf, type DetectedTrip, type DetectorState } from './detect';
import { storeDetectedTrips } from './store-detected';

export const TRIP_STAGE = 'trips';
export const TRIP_CLOSED = 'tripClosed';
export const TRIPS_REDETECT = 'tripsRedetect';

export interface TripStageState {
  detector: DetectorState;
  /** Up to here (epoch ms) trips are the trip log's: the stop of the last trip the detector closed, or a settled dirty stretch's end. */
  closedUntil?: number | undefined;
  /** The earliest late position after `closedUntil` not yet re-detected. */
  dirtyFrom?: number | undefined;
  /** The newest such position (absent in states stored before it was kept: unknown, so up to the detector's newest). */
  dirtyTo?: number | undefined;
}

const storedSchema = z.object({ detector: z.unknown(), closedUntil: z.number().optional(), dirtyFrom: z.number().optional(), dirtyTo: z.number().optional() });

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
  movingS: z.number().optional(),
  idleS: z.number().optional(),
  basis: z.enum(['ignition', 'movement']),
});
const windowSchema = z.object({ fromTs: z.number(), toTs: z.number(), settledTs: z.number().optional() });

export const tripStage: IngestStage<TripStageState> = {
  name: TRIP_STAGE,
  // The detector's state packed into lists (detect.ts): a third of the units item's bytes fewer.
  store: (state) => ({ ...state, detector: packDetectorState(state.detector) }),
  parse(stored) {
    const parsed = storedSchema.safeParse(stored);
    if (!parsed.success) return undefined;
    const detector = parseDetectorState(parsed.data.detector);
    const { closedUntil, dirtyFrom, dirtyTo } = parsed.data;
    return detector ? { detector, closedUntil, dirtyFrom, dirtyTo } : undefined;
  },
  run({ unit, previous, positions, late }) {
    const settings = tripSettingsOf(unit);
    let { detector, closedUntil, dirtyFrom, dirtyTo } = previous ?? { detector: initialDetectorState() };
    const effects: Effect[] = [];
    // A state stored before `dirtyTo` was kept: dirty, as far as is known, up to the detector's newest position.
    if (dirtyFrom !== undefined) dirtyTo ??= detector.lastTs ?? dirtyFrom;
    /** Re-detects [fromTs, toTs]; trips stopping up to `settledTs` (the stretch the detector has left to re-detection) may change too. */
    const redetect = (fromTs: number, toTs: number, settledTs = toTs) =>
      effects.push({
        id: `${TRIPS_REDETECT}:${fromTs}:${toTs}${settledTs > toTs ? `:${settledTs}` : ''}`,
        kind: TRIPS_REDETECT,
        payload: { fromTs, toTs, ...(settledTs > toTs ? { settledTs } : {}) },
      });

    if (late.length) {
      const first = late[0]!.ts;
      const last = late[late.length - 1]!.ts;
      // The window of the late positions themselves: redetectTrips widens it to the trips they touch.
      if (closedUntil !== undefined && first <= closedUntil) redetect(first, Math.min(last, closedUntil), closedUntil);
      if (last > (closedUntil ?? -Infinity)) {
        dirtyFrom = Math.min(dirtyFrom ?? Infinity, Math.max(first, (closedUntil ?? -Infinity) + 1));
        dirtyTo = Math.max(dirtyTo ?? -Infinity, last);
      }
      // Late positions inside a trip the detector holds open although it saw the unit active last
      // more than time-till-parked before its newest position (a tracker that sent a fix from
      // after a gap first, and the gap's positions after it): the trips in the gap are in the
      // store now, so they are re-detected at once rather than when the detector closes its trip
      // (which it does only with a later position, and which is then re-detected over the dirty
      // stretch all the same).
      const open = detector.trip;
      const quiet = detector.lastTs === null ? -Infinity : detector.lastTs - settings.timeTillParkedMs;
      if (open && last > open.start.ts && open.last.ts < quiet) redetect(open.start.ts, Math.min(last, quiet), quiet);
    }

    const result = detectTrips(detector, positions, settings);
    detector = result.state;
    for (const trip of result.closed) {
      if (dirtyFrom !== undefined && dirtyFrom <= trip.stopTs) {
        redetect(Math.min(dirtyFrom, trip.startTs), trip.stopTs);
        // Late positions past this trip stay dirty.
        [dirtyFrom, dirtyTo] = dirtyTo !== undefined && dirtyTo > trip.stopTs ? [trip.stopTs + 1, dirtyTo] : [undefined, undefined];
      } else {
        effects.push({ id: `${TRIP_CLOSED}:${trip.startTs}`, kind: TRIP_CLOSED, payload: { ...trip } });
      }
      closedUntil = Math.max(closedUntil ?? -Infinity, trip.stopTs);
    }

    // A dirty stretch the detector has left behind: nothing it will close reaches back there.
    const settled = settledUntil(detector, settings.timeTillParkedMs);
    if (dirtyFrom !== undefined && dirtyFrom <= settled) {
      redetect(dirtyFrom, settled);
      closedUntil = Math.max(closedUntil ?? -Infinity, settled);
      [dirtyFrom, dirtyTo] = dirtyTo !== undefined && dirtyTo > settled ? [settled + 1, dirtyTo] : [undefined, undefined];
    }
    return {
      state: {
        detector,
        ...(closedUntil !== undefined ? { closedUntil } : {}),
        ...(dirtyFrom !== undefined ? { dirtyFrom } : {}),
        ...(dirtyFrom !== undefined && dirtyTo !== undefined ? { dirtyTo } : {}),
      },
      effects,
    };
  },
};

/**
 * Up to when the detector's decisions are final whatever it takes in next: before the trip it has
 * open, and time-till-parked before its newest position (a trip that stopped earlier was closed by
 * a position it has seen; a later one may still go on, or start at its newest parked position).
 * Re-detection over stored positions decides the same there.
 */
export function settledUntil(detector: DetectorState, timeTillParkedMs: number): number {
  if (detector.lastTs === null) return -Infinity;
  const quiet = detector.lastTs - timeTillParkedMs;
  return detector.trip ? Math.min(quiet, detector.trip.start.ts - 1) : quiet;
}

/** Stores a closed trip (idempotent: a trip already stored, or edited since, is left as it is). */
const sendTripClosed: EffectSender = async (effect, unit, ports) => {
  const trip: DetectedTrip = detectedTripSchema.parse(effect.payload);
  await storeDetectedTrips(unit, [trip], ports);
};

/** Hands the window to the trip-redetect queue (trip-redetect.ts), so that a long re-detection never holds up ingest. */
const sendRedetect: EffectSender = async (effect, unit, ports) => {
  const { fromTs, toTs, settledTs } = windowSchema.parse(effect.payload);
  await ports.queues.send('trip-redetect', { imei: unit.imei, accountId: unit.accountId, fromTs, toTs, ...(settledTs !== undefined ? { settledTs } : {}) });
};

export const TRIP_EFFECT_SENDERS: Readonly<Record<string, EffectSender>> = {
  [TRIP_CLOSED]: sendTripClosed,
  [TRIPS_REDETECT]: sendRedetect,
};
