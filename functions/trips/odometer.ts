/**
 * Odometer entries (table `odometer-entries`: partition `imei`, sort `atTs`) and the odometer a trip
 * shows.
 *
 * A trip carries the unit's distance counter at its start and stop (`startCounterM`,
 * `stopCounterM`): the tracker's own odometer when it reports one (`counterSource: 'tracker'`),
 * otherwise a counter the detector sums up (`'computed'`). An entry says "at this time the
 * vehicle's odometer read this many km" and keeps the counter at that time, so every later trip
 * reads: odometer = entry.value + (counter − entry.counterAtEntryM) / 1000, from the latest entry
 * at or before the trip's start whose counter is of the same source.
 *
 * The unit editor's odometer (functions/units/editor) is the same sum at the unit's counter now
 * (`liveCounterOf`), and its odometer reading is an entry at now (`addOdometerEntry`); the latest
 * entry is copied for ingest's service stage (docs/decisions/0027-odometer-and-operating-hours.md).
 *
 * Without such an entry: a tracker counter is shown as the odometer (it is the tracker's), a
 * computed one gives null, since a sum of GPS distances since installation is no odometer reading
 * (docs/decisions/0015-trip-log.md).
 */
import { tableName } from '../platform/db';
import { latestReadingEntry, listReadingEntries, writeReadingEntry, type ReadingKind } from '../units/reading-entries';
import { registeredAtOf, type OdometerCorrection, type UnitItem } from '../domain/unit/schema';
import { parseDetectorState } from './detect';
import type { Odometers, TripItem } from './trip-item';
import { neighbourTrip } from './trip-repository';

export interface OdometerEntryItem {
  imei: string;
  atTs: number;
  accountId: string;
  /** km */
  valueKm: number;
  /** The unit's trip counter at `atTs` (m) and its source; absent when the unit had no trip yet. */
  counterAtEntryM?: number;
  counterSource?: 'tracker' | 'computed';
  createdBy: string;
  createdAt: number;
}

type Unit = Pick<UnitItem, 'imei' | 'accountId' | 'createdAt'>;
/** What the counter now needs of the unit: its latest state and trip detection's state. */
type LiveUnit = Unit & Pick<UnitItem, 'state' | 'stages'>;
export type Counter = { counterM: number; source: 'tracker' | 'computed' };

/** The copy of the latest entry that ingest reads (functions/units/reading-entries.ts). */
export const odometerCorrectionOf = (latest: OdometerEntryItem | undefined): OdometerCorrection | null =>
    latest
      ? {
          atTs: latest.atTs,
          valueKm: latest.valueKm,
          ...(latest.counterAtEntryM !== undefined ? { counterM: latest.counterAtEntryM } : {}),
          ...(latest.counterSource !== undefined ? { source: latest.counterSource } : {}),
        }
      : null;
const ODOMETER: ReadingKind<OdometerEntryItem> = { table: () => tableName('odometerEntries'), field: 'odometerCorrection', correctionOf: odometerCorrectionOf };

/** The unit's entries of its current registration, oldest first. */
export const listOdometerEntries = (unit: Unit): Promise<OdometerEntryItem[]> => listReadingEntries<OdometerEntryItem>(ODOMETER, unit, registeredAtOf(unit));

/** The unit's newest entry of its current registration. */
export const latestOdometerEntry = (unit: Unit): Promise<OdometerEntryItem | undefined> => latestReadingEntry<OdometerEntryItem>(ODOMETER, unit, registeredAtOf(unit));

/**
 * The unit's counter now, from its latest state: the tracker's odometer when it reports one, else
 * trip detection's computed counter; null before either exists.
 */
export function liveCounterOf(unit: Pick<UnitItem, 'state' | 'stages'>): Counter | null {
  if (unit.state?.odometer !== undefined) return { counterM: unit.state.odometer, source: 'tracker' };
  const stored = unit.stages?.['trips'];
  const detector = parseDetectorState(typeof stored === 'object' && stored !== null ? (stored as { detector?: unknown }).detector : undefined);
  return detector ? { counterM: Math.round(detector.counterM), source: 'computed' } : null;
}

/**
 * The unit's counter at an instant: at or after its latest report, the counter now
 * (liveCounterOf); before it, from its trips: parked after a trip, the counter stays at its stop;
 * within a trip it is interpolated by time; before the first trip, that trip's start. Null while
 * the unit has neither.
 */
export async function counterAt(unit: LiveUnit, ts: number): Promise<Counter | null> {
  if (unit.state && ts >= unit.state.ts) {
    const live = liveCounterOf(unit);
    if (live) return live;
  }
  const before = await neighbourTrip(unit, ts + 1, 'before');
  if (before) {
    if (ts >= before.stopTs || before.stopTs <= before.startTs) return { counterM: before.stopCounterM, source: before.counterSource };
    const share = (ts - before.startTs) / (before.stopTs - before.startTs);
    return { counterM: before.startCounterM + share * (before.stopCounterM - before.startCounterM), source: before.counterSource };
  }
  const after = await neighbourTrip(unit, ts, 'after');
  return after ? { counterM: after.startCounterM, source: after.counterSource } : null;
}

/**
 * Records "at `atTs` the vehicle's odometer read `valueKm`" with the unit's counter then, so that
 * the trips after it and the unit editor count from it. The trip log's odometer entries and the
 * editor's odometer reading (PUT /units/{imei}) both come here.
 */
export async function addOdometerEntry(unit: LiveUnit, atTs: number, valueKm: number, userId: string, now: number): Promise<OdometerEntryItem> {
  const counter = await counterAt(unit, atTs);
  const item: OdometerEntryItem = {
    imei: unit.imei,
    atTs,
    accountId: unit.accountId,
    valueKm: Math.round(valueKm * 1000) / 1000,
    ...(counter ? { counterAtEntryM: counter.counterM, counterSource: counter.source } : {}),
    createdBy: userId,
    createdAt: now,
  };
  await writeReadingEntry(ODOMETER, unit, registeredAtOf(unit), { put: item });
  return item;
}

/** False when there is no such entry of the account. */
export const deleteOdometerEntry = (unit: Unit, atTs: number): Promise<boolean> => writeReadingEntry(ODOMETER, unit, registeredAtOf(unit), { deleteAtTs: atTs });

const round3 = (km: number): number => Math.round(km * 1000) / 1000;

/**
 * Gives entries stored before the unit's first trip their counter: the start of the first trip
 * after them (the unit stood still until then). Read once per entry that lacks one.
 */
export async function resolveEntryCounters(unit: Unit, entries: readonly OdometerEntryItem[]): Promise<OdometerEntryItem[]> {
  return Promise.all(
    entries.map(async (entry) => {
      if (entry.counterAtEntryM !== undefined) return entry;
      const next = await neighbourTrip(unit, entry.atTs - 1, 'after');
      return next ? { ...entry, counterAtEntryM: next.startCounterM, counterSource: next.counterSource } : entry;
    }),
  );
}

/** The unit's entries of its current registration, oldest first, with their counters resolved: what `odometersOf` takes. */
export const resolvedOdometerEntries = async (unit: Unit): Promise<OdometerEntryItem[]> => resolveEntryCounters(unit, await listOdometerEntries(unit));

/** The odometer (km) at a counter (m) of the entry's source: the entry's value plus what was driven since. */
export const odometerFromEntry = (entry: Pick<OdometerEntryItem, 'valueKm' | 'counterAtEntryM'>, counterM: number): number =>
  entry.valueKm + (counterM - (entry.counterAtEntryM ?? counterM)) / 1000;

/** The odometer at a trip's start and stop (km, 3 decimals) from the entries (oldest first). */
export function odometersOf(trip: Pick<TripItem, 'startTs' | 'startCounterM' | 'stopCounterM' | 'counterSource'>, entries: readonly OdometerEntryItem[]): Odometers {
  let entry: OdometerEntryItem | undefined;
  for (const e of entries) {
    if (e.atTs > trip.startTs) break;
    entry = e;
  }
  if (entry && entry.counterAtEntryM !== undefined && (entry.counterSource ?? trip.counterSource) === trip.counterSource) {
    return { start: round3(odometerFromEntry(entry, trip.startCounterM)), stop: round3(odometerFromEntry(entry, trip.stopCounterM)) };
  }
  if (trip.counterSource === 'tracker') return { start: round3(trip.startCounterM / 1000), stop: round3(trip.stopCounterM / 1000) };
  return { start: null, stop: null };
}
