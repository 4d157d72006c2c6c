/**
 * Detected trips into the trip log. The ingest pipeline calls these from its exactly-once effect
 * senders; both are idempotent anyway, so a redelivered call changes nothing.
 *
 * - `storeDetectedTrips`: each trip is put only where no trip starts at that time yet. An existing
 *   one (a redelivery, or a trip a user has edited since) is never overwritten.
 * - `redetectTrips`: late positions arrived in [fromTs, toTs]. The window grows to the stored
 *   trips overlapping it and the parked stretches around them (up to the previous trip's stop and
 *   the next trip's start), its positions are read with one Query, detected again and reconciled
 *   with the stored trips (functions/trips/reconcile.ts): unchanged ones are not written, removed
 *   ones are deleted, new ones put with the edits carried over, attested ones never touched.
 *   Every write is conditional on the version read; when a user changed a trip meanwhile the
 *   window is read and reconciled again.
 *
 * A new trip gets the type of the unit's place rule it matches, else the unit's default type
 * (business); re-detection carries a user's edits over it. It gets the driver checked in at its start.
 * Its addresses are not looked up here: they are absent until the trip is first shown or reported
 * (trip-addresses.ts `withAddresses`), so a geocoder is never asked for a trip nobody looks at and
 * never holds up a unit's ingest.
 */
import { logger } from '../platform/logger';
import type { Ports } from '../platform/ports';
import { registeredAtOf, type UnitItem } from '../domain/unit/schema';
import { retentionDaysOf, tripAccountSettings } from './account-settings';
import { driverAt } from './check-in-repository';
import { detectWindow, tripSettingsOf, type DetectedTrip } from './detect';
import { detectorPositions } from './detector-positions';
import { reconcile, type NewTrip } from './reconcile';
import { placeRuleFor } from '../places/place-rules';
import { defaultTripTypeOf, type TripItem } from './trip-item';
import { deleteTrip, getTrip, neighbourTrip, putNewTrip, replaceTrip, unitTrips } from './trip-repository';
import { tripsChanged } from './unit-days';
import { emitWebhookEvent } from '../webhooks/emit';
import { tripClosedPayload } from '../webhooks/payloads';

type StorePorts = Pick<Ports, 'queues' | 'clock'>;

/** How far a window with no trip before or after it reaches into the parked time around it. */
export const OPEN_WINDOW_MARGIN_MS = 12 * 3_600_000;
/** Positions one re-detection reads at most (a window is a few parked stretches and trips). */
export const REDETECT_MAX_POSITIONS = 200_000;
const REDETECT_ATTEMPTS = 4;
const DAY_MS = 86_400_000;

const retention = new Map<string, { days: Promise<number>; until: number }>();

/** The account's retention, cached a minute per instance (as ingest caches it). */
function retentionOf(accountId: string, now: number): Promise<number> {
  const hit = retention.get(accountId);
  if (hit && hit.until > now) return hit.days;
  const days = tripAccountSettings(accountId).then(retentionDaysOf);
  days.catch(() => retention.delete(accountId));
  if (retention.size > 10_000) retention.clear();
  retention.set(accountId, { days, until: now + 60_000 });
  return days;
}

/** The stored item of a newly detected trip, with its driver and expiry; its addresses come when it is first shown. */
async function newTripItem(unit: UnitItem, trip: DetectedTrip, retentionDays: number): Promise<TripItem> {
  const driverId = await driverAt(unit, trip.startTs);
  return {
    imei: unit.imei,
    startTs: trip.startTs,
    accountId: unit.accountId,
    stopTs: trip.stopTs,
    startLat: trip.startLat,
    startLon: trip.startLon,
    stopLat: trip.stopLat,
    stopLon: trip.stopLon,
    startAddress: undefined,
    stopAddress: undefined,
    distanceM: trip.distanceM,
    startCounterM: trip.startCounterM,
    stopCounterM: trip.stopCounterM,
    counterSource: trip.counterSource,
    maxSpeedKmh: trip.maxSpeedKmh,
    movingS: trip.movingS,
    idleS: trip.idleS,
    basis: trip.basis,
    // A place rule of the unit's (functions/places/place-rules.ts), else the unit's default.
    type: placeRuleFor(trip, unit.places)?.type ?? defaultTripTypeOf(unit),
    purpose: undefined,
    note: undefined,
    driverId,
    passengers: undefined,
    project: undefined,
    edited: undefined,
    editedAt: undefined,
    editedBy: undefined,
    expiresAt: Math.floor((trip.stopTs + retentionDays * DAY_MS) / 1000),
    joined: undefined,
    attestationId: undefined,
    v: 0,
  };
}

const belongsToUnit = (unit: UnitItem, trip: Pick<DetectedTrip, 'startTs'>) => trip.startTs >= registeredAtOf(unit);

export async function storeDetectedTrips(unit: UnitItem, trips: readonly DetectedTrip[], ports: StorePorts): Promise<void> {
  const own = trips.filter((t) => belongsToUnit(unit, t));
  if (!own.length) return;
  const retentionDays = await retentionOf(unit.accountId, ports.clock.now().getTime());
  const stored = await Promise.all(
    own.map(async (trip) => {
      const existing = await getTrip(unit.imei, trip.startTs);
      if (!existing) {
        const item = await newTripItem(unit, trip, retentionDays);
        if (await putNewTrip(item)) return item;
      }
      // Already stored (this call is a redelivery, or a racing one won): only what is missing.
      const found = existing ?? (await getTrip(unit.imei, trip.startTs));
      return found && found.accountId === unit.accountId ? found : null;
    }),
  );
  // Also after a redelivery: a refresh that a failure cut short is made good here.
  await tripsChanged(ports, unit.accountId, unit.imei, own.map((t) => t.startTs));
  // The webhooks' tripClosed, also after a redelivery (the delivery id derives from the trip, so a repeat is dropped).
  await Promise.all(stored.map((trip) => (trip ? emitWebhookEvent(tripClosedPayload(trip, unit.name), ports) : undefined)));
}

interface Window {
  /** Positions are read over [readFromMs, readToMs]; trips are reconciled over [fromMs, limitTs]. */
  readFromMs: number;
  fromMs: number;
  limitTs: number;
  readToMs: number;
  /** The stored trip just before the window, read again as context (it is never changed here). */
  previous: TripItem | null;
  /** No stored trip after the window: the detector may not be able to close its last trips yet. */
  tailOpen: boolean;
}

/**
 * [fromTs, toTs] widened to the trips overlapping it and the parked stretches on either side: late
 * positions in a parked stretch can lengthen, join or split the trips on both sides of it, so the
 * stored trip before the window and the one after it are reconciled too. The trip before those is
 * read again as context, so that the detector reaches the window where the ingest stage's detector
 * stood (the same distance anchor and counter); trips are reconciled from its stop on, up to the
 * start of the trip after the window's last one, or without one up to the window's last stop:
 * beyond that the stage's detector decides (functions/trips/stage.ts), and positions after it are
 * read only so that the detector sees the parked time that closes the last trip.
 */
async function windowAround(unit: UnitItem, fromTs: number, toTs: number, settledTs: number): Promise<Window> {
  const registeredAt = Number.isFinite(registeredAtOf(unit)) ? registeredAtOf(unit) : -Infinity;
  let lo = fromTs;
  let hi = toTs;
  const overlapping = await neighbourTrip(unit, fromTs, 'before');
  const inside = await unitTrips(unit, fromTs, toTs, { consistent: true });
  // The trips bordering the window's parked stretches: the overlapping one or the one before, and the one after.
  const before = overlapping ?? null;
  const lastInside = inside.at(-1);
  const after = await neighbourTrip(unit, lastInside ? Math.max(lastInside.startTs, toTs) : toTs, 'after');
  if (before) lo = Math.min(lo, before.startTs);
  hi = Math.max(hi, before?.stopTs ?? hi, lastInside?.stopTs ?? hi, after?.stopTs ?? hi);

  const context = await neighbourTrip(unit, lo, 'before');
  const next = after ? await neighbourTrip(unit, after.startTs, 'after') : null;
  const fromMs = Math.max(context ? context.stopTs + 1 : lo - OPEN_WINDOW_MARGIN_MS, registeredAt);
  const readFromMs = Math.max(context ? context.startTs : fromMs, registeredAt);
  if (next) return { readFromMs, fromMs, limitTs: next.startTs - 1, readToMs: next.startTs - 1, previous: context, tailOpen: false };
  // No stored trip after it: up to where the stage's detector has settled, the trips are this run's to decide (a late
  // drive's last trip may stop after its last late position, at the ignition off or the parked position that follows).
  const limitTs = Math.max(hi, settledTs);
  return { readFromMs, fromMs, limitTs, readToMs: limitTs + OPEN_WINDOW_MARGIN_MS, previous: context, tailOpen: true };
}

/**
 * A detector run over a window starts its computed counter at 0; the stored trips carry the
 * stage's counter, which runs since the unit's first position. The difference is read off a stored
 * trip the run reproduces (same times and distance), else off the trip before the window, where
 * the run began. Tracker counters are the tracker's own and stay as they are.
 */
export function rebaseCounters(detected: readonly DetectedTrip[], stored: readonly TripItem[], previous: TripItem | null): DetectedTrip[] {
  let offset: number | undefined;
  for (const trip of previous ? [previous, ...stored] : stored) {
    if (trip.counterSource !== 'computed' || trip.joined) continue;
    const twin = detected.find((d) => d.counterSource === 'computed' && d.startTs === trip.startTs && d.stopTs === trip.stopTs && Math.abs(d.distanceM - trip.distanceM) < 2);
    if (twin) {
      offset = trip.startCounterM - twin.startCounterM;
      break;
    }
  }
  if (offset === undefined && previous?.counterSource === 'computed') {
    // The run began at the previous trip's start: its counter stood near 0 there, and at that
    // trip's stop where the run's own version of it stopped.
    const context = detected.filter((d) => d.counterSource === 'computed' && d.startTs <= previous.stopTs && d.stopTs >= previous.startTs).at(-1);
    offset = context ? previous.stopCounterM - context.stopCounterM : previous.startCounterM;
  }
  offset ??= 0;
  if (!offset) return [...detected];
  const by = offset;
  return detected.map((d) => (d.counterSource === 'computed' ? { ...d, startCounterM: d.startCounterM + by, stopCounterM: d.stopCounterM + by } : d));
}

/** Writes a plan; false when a trip changed under it (the caller reconciles again). */
async function applyPlan(unit: UnitItem, add: readonly NewTrip[], remove: readonly TripItem[], ports: StorePorts): Promise<boolean> {
  const retentionDays = await retentionOf(unit.accountId, ports.clock.now().getTime());
  let clean = true;
  // New trips first: a failure between the two steps leaves an overlap the next run removes, never a gap.
  for (const { detected, replaces, carried, changes } of add) {
    const item = await newTripItem(unit, detected, retentionDays);
    if (carried) {
      for (const field of carried.fields) (item as Record<string, unknown>)[field] = carried.from[field];
      item.edited = carried.fields;
      item.editedAt = carried.from.editedAt;
      item.editedBy = carried.from.editedBy;
    }
    // The change log follows the trip as its edits do.
    item.changes = changes;
    const written = replaces ? await replaceTrip(replaces, item) : await putNewTrip(item);
    if (!written) clean = false;
    else {
      // A trip that late data revealed, or that now starts elsewhere, is closed news under its new id;
      // one that keeps its start keeps its id, and went to the webhooks when it was first stored.
      if (replaces?.startTs !== item.startTs) await emitWebhookEvent(tripClosedPayload(item, unit.name), ports);
    }
  }
  for (const trip of remove) if (!(await deleteTrip(trip))) clean = false;
  await tripsChanged(ports, unit.accountId, unit.imei, [...add.map((a) => a.detected.startTs), ...add.flatMap((a) => (a.replaces ? [a.replaces.startTs] : [])), ...remove.map((t) => t.startTs)]);
  return clean;
}

/**
 * `settledTs`: up to when the ingest stage's detector has left the trips to re-detection
 * (functions/trips/stage.ts `closedUntil`); without a stored trip after the window, trips stopping
 * up to there are reconciled too. Default: the window's own end.
 */
export async function redetectTrips(unit: UnitItem, fromTs: number, toTs: number, ports: StorePorts, settledTs = toTs): Promise<void> {
  if (!(fromTs <= toTs)) return;
  for (let attempt = 1; attempt <= REDETECT_ATTEMPTS; attempt++) {
    const window = await windowAround(unit, fromTs, toTs, settledTs);
    if (!(window.fromMs <= window.limitTs)) return;
    const { positions, truncated } = await detectorPositions(unit.imei, window.readFromMs, window.readToMs, REDETECT_MAX_POSITIONS);
    if (truncated) {
      logger.error('re-detection window holds too many positions; trips left as stored', { imei: unit.imei, fromMs: window.readFromMs, toMs: window.readToMs });
      return;
    }
    const stored = await unitTrips(unit, window.fromMs, window.limitTs, { consistent: true });
    const found = detectWindow(positions, tripSettingsOf(unit)).filter((t) => belongsToUnit(unit, t));
    const detected = rebaseCounters(found, stored, window.previous);
    const plan = reconcile(stored, detected, { tailOpen: window.tailOpen, fromTs: window.fromMs, limitTs: window.limitTs });
    if (plan.skipped.length) {
      logger.info('re-detected trips overlap attested trips; the attested log is kept', {
        imei: unit.imei,
        skipped: plan.skipped.map((t) => [t.startTs, t.stopTs]),
      });
    }
    if (!plan.add.length && !plan.remove.length) return;
    if (await applyPlan(unit, plan.add, plan.remove, ports)) return;
    logger.info('a trip changed during re-detection; reconciling again', { imei: unit.imei, attempt });
  }
  logger.error('re-detection kept losing to concurrent changes; trips left as they are', { imei: unit.imei, fromTs, toTs });
}
