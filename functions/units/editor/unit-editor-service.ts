/**
 * The unit editor (/user/edit-terminal): who may edit which unit, what a save checks beyond the
 * request schema (support-only fields, the report frequency locks, the registration number's
 * 2 changes per 24 hours), and the unit as the editor shows it.
 *
 * An admin edits every unit of the account; an ordinary user the units granted to them. Any
 * other unit is answered exactly like one that does not exist (404 UnitNotFound).
 *
 * The odometer and operating hours are answered as corrected by the latest readings entered
 * (counter-readings.ts), and a save's `odometer` or `operatingHours` is such a reading at now: an
 * odometer entry through the trip log's code, an operating-hours entry (operating-hours.ts);
 * refused with 423 TrackerIsLocked on a unit locked by someone else
 * (docs/decisions/0027-odometer-and-operating-hours.md).
 */
import { randomUUID } from 'node:crypto';
import { DEFAULT_ECO_SENSITIVITY, ecoThresholdParams } from '../../../shared/eco';
import type { Ports } from '../../platform/ports';
import { sendCommand } from '../command-service';
import {
  NAME_HISTORY_MAX,
  REGISTRATION_CHANGES_PER_WINDOW,
  REGISTRATION_WINDOW_HOURS,
  objectDescriptionSchema,
  theftInfoSchema,
  type NameHistoryEntry,
  type UnitEditor,
  type UnitUpdate,
} from '../../../shared/schemas/unit-editor';
import { unitEditorMessageKeys as keys } from '../../../shared/schemas/unit-editor-messages';
import type { AuthContext } from '../../platform/auth-context';
import { ConflictError, NotFoundError, ValidationError, type FieldErrors } from '../../platform/errors';
import type { StoredServiceInterval, UnitItem } from '../../domain/unit/schema';
import { toRealtimeUnit } from '../../tracking/stored-shape';
import { addOdometerEntry, latestOdometerEntry, liveCounterOf, odometerCorrectionOf, resolveEntryCounters } from '../../trips/odometer';
import { assertNotLockedFor } from '../lock-rules';
import { correctedEngineSeconds, correctedOdometerM } from './counter-readings';
import { addOperatingHoursEntry, hoursCorrectionOf, latestOperatingHoursEntry } from './operating-hours';
import { serviceStatus, type UnitCounters } from './service-intervals';
import { readUnit, writeUnit, type UnitSeen, type UnitWrite } from './unit-editor-repository';

type Caller = Pick<AuthContext, 'accountId' | 'unitImeis' | 'userId' | 'username' | 'isSupport'>;

const WINDOW_MS = REGISTRATION_WINDOW_HOURS * 3_600_000;
const SAVE_TRIES = 6;
const DEFAULT_OVERSPEED_SECONDS = 30;
const DEFAULT_TIME_TILL_PARKED = 3;

async function visibleUnit(caller: Caller, imei: string): Promise<UnitSeen> {
  if (caller.unitImeis !== undefined && !caller.unitImeis.includes(imei)) throw new NotFoundError(keys.UnitNotFound);
  const seen = await readUnit(imei);
  if (!seen || seen.unit.accountId !== caller.accountId) throw new NotFoundError(keys.UnitNotFound);
  return seen;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** Registration changes within the last 24 hours at `now`. */
export const recentRegistrationChanges = (changes: readonly number[] | undefined, now: number): number[] =>
  (changes ?? []).filter((at) => at > now - WINDOW_MS && at <= now);

/** The unit's odometer (km) and engine hours as corrected by its latest readings, and the counters its service intervals are read at. */
export interface CorrectedReadings {
  odometerKm: number | null;
  hours: number | null;
  hoursCounted: boolean;
  /** As ingest's service stage counts (service-stage.ts): the distance from the tracker's odometer only. */
  service: UnitCounters;
}

export async function readingsOf(unit: UnitItem, now: number): Promise<CorrectedReadings> {
  const [odometer, hours] = await Promise.all([
    latestOdometerEntry(unit).then(async (e) => (e && e.counterAtEntryM === undefined ? (await resolveEntryCounters(unit, [e]))[0] : e)),
    latestOperatingHoursEntry(unit),
  ]);
  const odometerCorrection = odometerCorrectionOf(odometer) ?? undefined;
  const odometerM = correctedOdometerM(odometerCorrection, liveCounterOf(unit));
  const tracker = unit.state?.odometer;
  const engine = correctedEngineSeconds(hoursCorrectionOf(hours) ?? undefined, unit.state?.engineSeconds);
  return {
    odometerKm: odometerM === undefined ? null : round1(odometerM / 1000),
    hours: engine.seconds === undefined ? null : round1(engine.seconds / 3600),
    hoursCounted: engine.counted,
    service: {
      odometerM: correctedOdometerM(odometerCorrection, tracker === undefined ? null : { counterM: tracker, source: 'tracker' }),
      engineSeconds: engine.seconds,
      ts: now,
    },
  };
}

export function toUnitEditor(seen: UnitSeen, caller: Pick<Caller, 'isSupport'>, now: number, readings: CorrectedReadings): UnitEditor {
  const { unit, details } = seen;
  const realtime = toRealtimeUnit(unit);
  const counters = { ...readings.service, ts: now };
  const intervals = Object.entries(unit.serviceIntervals ?? {}).sort(([, a], [, b]) => a.order - b.order);
  return {
    imei: unit.imei,
    name: unit.name,
    registrationNumber: unit.registrationNumber ?? null,
    registrationChangesLeft: Math.max(0, REGISTRATION_CHANGES_PER_WINDOW - recentRegistrationChanges(unit.registrationChanges, now).length),
    colour: realtime.color,
    symbol: realtime.symbol,
    vehicleType: unit.vehicleType,
    subscriptionType: unit.subscriptionType ?? null,
    isSupport: caller.isSupport,
    fuelType: unit.fuelType ?? null,
    consumption: unit.consumption ?? null,
    idleConsumption: unit.idleConsumption ?? null,
    co2: unit.co2 ?? null,
    odometer: readings.odometerKm,
    operatingHours: readings.hours,
    operatingHoursCounted: readings.hoursCounted,
    nextInspection: unit.nextInspection ?? null,
    ecoSensitivity: unit.ecoSensitivity ?? DEFAULT_ECO_SENSITIVITY,
    overspeedKmh: unit.overspeedKmh ?? null,
    overspeedSeconds: unit.overspeedSeconds ?? DEFAULT_OVERSPEED_SECONDS,
    lowBatteryAlert: unit.lowBatteryAlert ?? true,
    dinAlarms: unit.dinAlarms ?? {},
    dinLabels: unit.dinLabels ?? {},
    doutLabels: unit.doutLabels ?? {},
    timeTillParkedMinutes: unit.timeTillParkedMinutes ?? DEFAULT_TIME_TILL_PARKED,
    reportFrequency: unit.reportFrequency ?? null,
    reportFrequencyChange: unit.reportFrequencyChange ?? 'allowed',
    operatingMode: unit.operatingMode ?? null,
    objectDescription: details?.objectDescription ?? objectDescriptionSchema.parse({}),
    theft: details?.theft ?? theftInfoSchema.parse({}),
    serviceIntervals: intervals.map(([id, s]) => ({ id, name: s.name, kind: s.kind, every: s.every, lastService: s.lastService, status: serviceStatus(s, counters) })),
    nameHistory: details?.nameHistory ?? [],
    realtime,
  };
}

export async function getUnitEditor(caller: Caller, imei: string, now: number): Promise<UnitEditor> {
  const seen = await visibleUnit(caller, imei);
  return toUnitEditor(seen, caller, now, await readingsOf(seen.unit, now));
}

/** The fields the units item keeps under another name. */
const ITEM_NAME: Partial<Record<keyof UnitUpdate, string>> = { colour: 'color' };
const DETAIL_FIELDS = new Set<keyof UnitUpdate>(['objectDescription', 'theft']);
/** Readings, stored as entries (not on the units item). */
const READING_FIELDS = new Set<keyof UnitUpdate>(['odometer', 'operatingHours']);

/** Checks a save against the unit as read and plans its write; throws ValidationError with every field's key. */
export function planSave(caller: Caller, seen: UnitSeen, body: UnitUpdate, now: number): UnitWrite {
  const { unit, details } = seen;
  const errors: FieldErrors = {};
  if (body.subscriptionType !== undefined && !caller.isSupport) errors['subscriptionType'] = [keys.SubscriptionTypeReadOnly];
  if (body.reportFrequencyChange !== undefined && !caller.isSupport) errors['reportFrequencyChange'] = [keys.DeniedChangeRF];
  if (body.reportFrequency !== undefined && !caller.isSupport) {
    if (unit.reportFrequencyChange === 'denied') errors['reportFrequency'] = [keys.DeniedChangeRF];
    else if (unit.reportFrequencyChange === 'locked') errors['reportFrequency'] = [keys.FrequencyLocked];
  }
  let registration: UnitWrite['registration'];
  const nextRegistration = body.registrationNumber === undefined ? undefined : body.registrationNumber || null;
  if (nextRegistration !== undefined && nextRegistration !== (unit.registrationNumber ?? null)) {
    const recent = recentRegistrationChanges(unit.registrationChanges, now);
    if (recent.length >= REGISTRATION_CHANGES_PER_WINDOW) errors['registrationNumber'] = [keys.RegistrationNumberChangedTooOften];
    registration = { changes: [...recent, now].slice(-REGISTRATION_CHANGES_PER_WINDOW), seenRev: unit.registrationRev };
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);

  const unitFields: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(body) as Array<[keyof UnitUpdate, unknown]>) {
    if (value === undefined || DETAIL_FIELDS.has(field) || READING_FIELDS.has(field) || field === 'serviceIntervals' || field === 'registrationNumber' || field === 'name') continue;
    unitFields[ITEM_NAME[field] ?? field] = value;
  }
  if (registration) unitFields['registrationNumber'] = nextRegistration;
  if (body.serviceIntervals !== undefined) unitFields['serviceIntervals'] = serviceIntervalsOf(unit, body.serviceIntervals);

  const write: UnitWrite = { imei: unit.imei, accountId: unit.accountId, unitFields, seen, ...(registration ? { registration } : {}) };
  if (body.ecoSensitivity !== undefined && body.ecoSensitivity !== unit.ecoSensitivity) write.ecoSensitivitySeen = unit.ecoSensitivity ?? null;
  const detailWrites: NonNullable<UnitWrite['details']> = {};
  if (body.objectDescription) detailWrites.objectDescription = body.objectDescription;
  if (body.theft) detailWrites.theft = body.theft;
  if (body.name !== undefined && body.name !== unit.name) {
    unitFields['name'] = body.name;
    const entry: NameHistoryEntry = { name: body.name, at: new Date(now).toISOString(), by: caller.username };
    detailWrites.nameHistory = { list: [entry, ...(details?.nameHistory ?? [])].slice(0, NAME_HISTORY_MAX), seenRev: details?.historyRev };
  }
  if (Object.keys(detailWrites).length) write.details = detailWrites;
  return write;
}

/** The intervals as saved: existing ids kept, new ones given an id, in the order sent. */
function serviceIntervalsOf(unit: UnitItem, list: NonNullable<UnitUpdate['serviceIntervals']>): Record<string, StoredServiceInterval> {
  const existing = unit.serviceIntervals ?? {};
  return Object.fromEntries(
    list.map((s, order) => [s.id !== undefined && existing[s.id] ? s.id : randomUUID(), { name: s.name, kind: s.kind, every: s.every, lastService: s.lastService, order }]),
  );
}

/**
 * Saves a partial update and answers the unit as stored; a save that keeps losing to others is 409
 * CouldNotSaveUnit. A save that changes the eco sensitivity sends the tracker its thresholds
 * (shared/eco.ts) through the command service: once, by the save whose conditional write made the change.
 */
export async function saveUnitEditor(caller: Caller, imei: string, body: UnitUpdate, clock: () => number, ports: Pick<Ports, 'devices' | 'live' | 'clock'>): Promise<UnitEditor> {
  for (let attempt = 0; attempt < SAVE_TRIES; attempt++) {
    if (attempt) await new Promise((r) => setTimeout(r, Math.random() * 20 * 2 ** attempt));
    const seen = await visibleUnit(caller, imei);
    const now = clock();
    const write = planSave(caller, seen, body, now);
    const readings = body.odometer !== undefined || body.operatingHours !== undefined;
    // A reading is about the unit's movements: not for others while it is locked.
    if (readings) assertNotLockedFor(caller, seen.unit);
    if (await writeUnit(write)) {
      if (readings) await saveReadings(caller, seen.unit, body, now);
      if (body.ecoSensitivity !== undefined && body.ecoSensitivity !== (seen.unit.ecoSensitivity ?? DEFAULT_ECO_SENSITIVITY)) {
        await sendCommand(seen.unit, { type: 'ecoThresholds', params: ecoThresholdParams(body.ecoSensitivity) }, ports);
      }
      return getUnitEditor(caller, imei, clock());
    }
  }
  throw new ConflictError(keys.CouldNotSaveUnit);
}

/**
 * The readings of a save as entries at now. A reading equal to what the unit shows now (to the
 * tenth, as shown) adds no entry: a client that sends back the unit it read corrects nothing.
 */
async function saveReadings(caller: Caller, unit: UnitItem, body: UnitUpdate, now: number): Promise<void> {
  const shown = await readingsOf(unit, now);
  if (body.odometer !== undefined && round1(body.odometer) !== shown.odometerKm) await addOdometerEntry(unit, now, body.odometer, caller.userId, now);
  if (body.operatingHours !== undefined && round1(body.operatingHours) !== shown.hours) await addOperatingHoursEntry(unit, now, body.operatingHours, caller.userId, now);
}
