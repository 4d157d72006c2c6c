/**
 * Operating-hours entries (table `operating-hours-entries`: partition `imei`, sort `atTs`): "at
 * this time the engine hours read X", kept with the tracker's engine-seconds counter at that time,
 * so that the hours shown afterwards are the reading plus what the counter ran since
 * (counter-readings.ts). The latest is copied into the unit's `unit-copies` item for ingest's
 * service stage (functions/units/reading-entries.ts; docs/decisions/0027).
 *
 * The counter at an instant: at or after the unit's latest report, its state's engine seconds;
 * before it, those of the latest stored position at or before that time that carries them. A
 * tracker that reports no engine hours gives none: the reading then holds until the next one.
 */
import type { OperatingHoursEntry } from '../../../shared/schemas/unit-editor';
import { tableName } from '../../platform/db';
import { readPositions } from '../../ingest/position-query';
import { isoInZone } from '../../../shared/local-time';
import { latestReadingEntry, listReadingEntries, writeReadingEntry, type ReadingKind } from '../reading-entries';
import { registeredAtOf, type HoursCorrection, type UnitItem } from '../../domain/unit/schema';

export interface OperatingHoursEntryItem {
  imei: string;
  atTs: number;
  accountId: string;
  valueHours: number;
  /** The tracker's engine seconds at `atTs`; absent when it reported none. */
  counterAtEntryS?: number;
  createdBy: string;
  createdAt: number;
}

type Unit = Pick<UnitItem, 'imei' | 'accountId' | 'createdAt' | 'state'>;

export const hoursCorrectionOf = (latest: OperatingHoursEntryItem | undefined): HoursCorrection | null =>
  latest ? { atTs: latest.atTs, valueHours: latest.valueHours, ...(latest.counterAtEntryS !== undefined ? { counterS: latest.counterAtEntryS } : {}) } : null;

const HOURS: ReadingKind<OperatingHoursEntryItem> = { table: () => tableName('operatingHoursEntries'), field: 'hoursCorrection', correctionOf: hoursCorrectionOf };

/** How far back a past reading looks for a position with engine hours. */
const POSITIONS_LOOKED_AT = 50;

export const listOperatingHoursEntries = (unit: Unit): Promise<OperatingHoursEntryItem[]> => listReadingEntries<OperatingHoursEntryItem>(HOURS, unit, registeredAtOf(unit));
export const latestOperatingHoursEntry = (unit: Unit): Promise<OperatingHoursEntryItem | undefined> => latestReadingEntry<OperatingHoursEntryItem>(HOURS, unit, registeredAtOf(unit));

/** The tracker's engine seconds at an instant of the unit's current registration; undefined when it reported none. */
export async function engineSecondsAt(unit: Unit, ts: number): Promise<number | undefined> {
  if (unit.state && ts >= unit.state.ts) return unit.state.engineSeconds;
  const from = registeredAtOf(unit);
  const { positions } = await readPositions(unit.imei, Number.isFinite(from) ? from : 0, ts, { attributes: ['engineSeconds'], backwards: true, max: POSITIONS_LOOKED_AT });
  return positions.find((p) => typeof p.engineSeconds === 'number')?.engineSeconds;
}

/** Records "at `atTs` the engine hours read `valueHours`" with the tracker's counter then. */
export async function addOperatingHoursEntry(unit: Unit, atTs: number, valueHours: number, userId: string, now: number): Promise<OperatingHoursEntryItem> {
  const counter = await engineSecondsAt(unit, atTs);
  const item: OperatingHoursEntryItem = {
    imei: unit.imei,
    atTs,
    accountId: unit.accountId,
    valueHours: Math.round(valueHours * 10) / 10,
    ...(counter !== undefined ? { counterAtEntryS: counter } : {}),
    createdBy: userId,
    createdAt: now,
  };
  await writeReadingEntry(HOURS, unit, registeredAtOf(unit), { put: item });
  return item;
}

/** False when there is no such entry of the account. */
export const deleteOperatingHoursEntry = (unit: Unit, atTs: number): Promise<boolean> => writeReadingEntry(HOURS, unit, registeredAtOf(unit), { deleteAtTs: atTs });

export function toOperatingHoursEntry(item: OperatingHoursEntryItem, zone: string): OperatingHoursEntry {
  return {
    id: String(item.atTs),
    imei: item.imei,
    time: isoInZone(item.atTs, zone),
    value: item.valueHours,
    counted: item.counterAtEntryS !== undefined,
    createdBy: item.createdBy || null,
    createdAt: isoInZone(item.createdAt, zone),
  };
}
