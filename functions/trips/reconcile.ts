/**
 * What re-detection changes, decided without I/O: the stored trips of a window (`stored`) against
 * what the detector finds there now (`detected`).
 *
 * - An attested trip is never touched; detected trips overlapping it are dropped (the attested
 *   log stands as attested) and reported in `skipped`, and the stored trips those overlap stay as
 *   they are too (what the detector now sees there cannot be applied without the attested part).
 * - A stored trip that a detected trip reproduces exactly (same start, stop, distance and
 *   counters) is unchanged. A merged trip is unchanged when both trips it joined are reproduced.
 * - Every other stored trip goes; every other detected trip is new. A stored trip a user edited
 *   hands its edits (the fields in `edited`) to the new trip that overlaps it most; when several
 *   want the same new trip, the one overlapping it most wins. Its change log (`changes`) goes to
 *   the same new trip, and several logs that go to one trip are joined.
 * - `fromTs`, `limitTs`: the window. A detected trip that starts before it (the trip before the
 *   window, read as context) or stops after it (what comes next: the ingest stage's own detector
 *   state, or the next stored trip) is dropped, and the stored trips it overlaps are kept as they are.
 * - `tailOpen`: the window has no stored trip after it, so its last stored trips may lie beyond
 *   where the detector could close a trip (no parked stretch after them yet). Stored trips after
 *   the last detected trip that nothing detected overlaps are then kept, not deleted: the next
 *   detection with more data decides them.
 */
import type { DetectedTrip } from './detect';
import { editedFieldsOf, joinChanges, type EditableField, type TripChange, type TripItem, type TripPart } from './trip-item';

export interface CarriedEdits {
  from: TripItem;
  fields: EditableField[];
}

export interface NewTrip {
  detected: DetectedTrip;
  /** The stored trip of the same start, which this one replaces in place. */
  replaces: TripItem | undefined;
  carried: CarriedEdits | undefined;
  /** The change logs of the stored trips that overlap this one most, joined (trip-item.ts `joinChanges`). */
  changes: TripChange[] | undefined;
}

export interface ReconcilePlan {
  unchanged: TripItem[];
  /** Stored trips to delete (none of them has the start of a new trip). */
  remove: TripItem[];
  add: NewTrip[];
  /** Detected trips dropped because they overlap an attested trip. */
  skipped: DetectedTrip[];
}

type Span = { startTs: number; stopTs: number };

/** Shared time of two spans (ms); a trip of no duration counts as 1 ms so that it can overlap. */
export function overlapMs(a: Span, b: Span): number {
  const aStop = Math.max(a.stopTs, a.startTs + 1);
  const bStop = Math.max(b.stopTs, b.startTs + 1);
  return Math.max(0, Math.min(aStop, bStop) - Math.max(a.startTs, b.startTs));
}

/** Counters are whole metres, rounded where the detector's running sum was cut, so two runs may differ by one. */
const near = (a: number, b: number) => Math.abs(a - b) < 2;

/** A detected trip reproduces a stored one (or one part of a merged one). */
export function sameTrip(stored: Pick<TripPart, 'startTs' | 'stopTs' | 'distanceM' | 'startCounterM' | 'stopCounterM'>, d: DetectedTrip): boolean {
  return (
    stored.startTs === d.startTs &&
    stored.stopTs === d.stopTs &&
    near(stored.distanceM, d.distanceM) &&
    near(stored.startCounterM, d.startCounterM) &&
    near(stored.stopCounterM, d.stopCounterM)
  );
}

export function reconcile(stored: readonly TripItem[], detected: readonly DetectedTrip[], options: { tailOpen: boolean; fromTs?: number; limitTs?: number }): ReconcilePlan {
  const from = options.fromTs ?? -Infinity;
  const limit = options.limitTs ?? Infinity;
  const beyond = detected.filter((d) => d.startTs < from || d.stopTs > limit);
  const inWindow = detected.filter((d) => !beyond.includes(d));
  const attested = stored.filter((t) => t.attestationId !== undefined);
  const skipped = inWindow.filter((d) => attested.some((a) => overlapMs(a, d) > 0));
  let candidates = inWindow.filter((d) => !skipped.includes(d));

  const unchanged: TripItem[] = [...attested];
  const gone: TripItem[] = [];
  for (const trip of stored) {
    if (trip.attestationId !== undefined) continue;
    const parts: readonly Pick<TripPart, 'startTs' | 'stopTs' | 'distanceM' | 'startCounterM' | 'stopCounterM'>[] = trip.joined ?? [trip];
    const matches = parts.map((p) => candidates.find((d) => sameTrip(p, d)));
    if (matches.every((m) => m !== undefined)) {
      unchanged.push(trip);
      candidates = candidates.filter((d) => !matches.includes(d));
    } else gone.push(trip);
  }

  // What lies beyond the window or under a skipped trip, and the tail the detector could not close yet, stay as stored.
  const lastDetectedStop = Math.max(-Infinity, ...inWindow.map((d) => d.stopTs));
  for (const trip of [...gone]) {
    const pastWindow = [...beyond, ...skipped].some((d) => overlapMs(trip, d) > 0);
    const openTail = options.tailOpen && trip.startTs > lastDetectedStop && !inWindow.some((d) => overlapMs(trip, d) > 0);
    if (pastWindow || openTail) {
      gone.splice(gone.indexOf(trip), 1);
      unchanged.push(trip);
    }
  }

  // Edits go to the new trip each edited one overlaps most; the largest overlap wins a new trip.
  // Change logs go the same way, all of them.
  const carriedTo = new Map<DetectedTrip, { edits: CarriedEdits; overlap: number }>();
  const changesTo = new Map<DetectedTrip, TripChange[] | undefined>();
  for (const trip of gone) {
    const fields = editedFieldsOf(trip);
    if (!fields.length && !trip.changes?.length) continue;
    let best: DetectedTrip | undefined;
    let bestOverlap = 0;
    for (const d of candidates) {
      const o = overlapMs(trip, d);
      if (o > bestOverlap) [best, bestOverlap] = [d, o];
    }
    if (!best) continue;
    if (trip.changes?.length) changesTo.set(best, joinChanges(changesTo.get(best), trip.changes));
    if (!fields.length) continue;
    const held = carriedTo.get(best);
    if (!held || bestOverlap > held.overlap) carriedTo.set(best, { edits: { from: trip, fields }, overlap: bestOverlap });
  }

  const add: NewTrip[] = candidates.map((d) => ({
    detected: d,
    replaces: gone.find((t) => t.startTs === d.startTs),
    carried: carriedTo.get(d)?.edits,
    changes: changesTo.get(d),
  }));
  const replaced = new Set(add.map((a) => a.replaces).filter((t) => t !== undefined));
  return {
    unchanged: unchanged.sort((a, b) => a.startTs - b.startTs),
    remove: gone.filter((t) => !replaced.has(t)),
    add,
    skipped,
  };
}
