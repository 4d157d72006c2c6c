/**
 * The `units` item's schema: the one owner of the item (functions/domain/unit/). Registration
 * creates it; tracking, commands and ingest read it; ingest moves its state, the commands service
 * its open command, and grants its viewers. Every read goes through `parseUnitItem` (zod), so no
 * capability casts the item or reads `unknown` fields, and every write other capabilities need is
 * an operation of this folder: reads (`reads.ts`), ingest's transitions (`transitions.ts`), the
 * open command (`commands.ts`), the copies beside it (`copies.ts`) and the other writes
 * (`writes.ts`).
 *
 * The item: the registration record (imei, accountId, name, ...), what later features set
 * (colour, symbol, driver, departments, output labels, operating mode), the commands service's
 * `openCommand` and `lastCommandAnswer`, the ordinary users it is granted to (`viewers`, a string
 * set), and ingest's `state`, `stages` and `rev` (functions/ingest/transitions.ts). Beside it,
 * the unit's `unit-copies` item holds the copies of its geofences and places (`zones`, `places`),
 * which `getUnitItems` reads with it and shows as fields of the unit.
 */
import { z } from 'zod';
import { commandTypes, operatingModes } from '../../../shared/schemas/commands';
import { weeklyWindowsSchema } from '../../../shared/schemas/schedule';
import { sensorKinds } from '../../../shared/schemas/sensors';
import { ecoSensitivities, frequencyChangeStates, frequencyUnits, fuelTypes, serviceKinds, subscriptionTypes } from '../../../shared/schemas/unit-editor';
import type { LiveAudience } from '../../../shared/mqtt-topics';
import { IMEI_PATTERN } from '../../../shared/validators/imei';

const ioStates = z.record(z.string(), z.boolean());
const optionalNumber = z.number().optional();

/** The unit's latest state as ingest stores it (functions/ingest/types.ts UnitState). */
export const storedStateSchema = z.object({
  ts: z.number(),
  lat: z.number(),
  lon: z.number(),
  speed: optionalNumber,
  heading: optionalNumber,
  alt: optionalNumber,
  sats: optionalNumber,
  hdop: optionalNumber,
  ignition: z.boolean().optional(),
  movement: z.boolean().optional(),
  extVolts: optionalNumber,
  batVolts: optionalNumber,
  din: ioStates.optional(),
  dout: ioStates.optional(),
  odometer: optionalNumber,
  engineSeconds: optionalNumber,
  lastSeen: z.number(),
});

/** A side effect a state transition decided on, kept until it is sent (functions/ingest/transitions.ts). */
export const pendingEffectSchema = z.object({
  kind: z.string(),
  status: z.enum(['pending', 'sending']),
  payload: z.record(z.string(), z.unknown()),
  at: z.number(),
});
export type PendingEffect = z.infer<typeof pendingEffectSchema>;

export const openCommandSchema = z.object({ id: z.string(), type: z.enum(commandTypes), createdAt: z.number() });
/** The command still waiting for its answer (functions/units/command-repository.ts). */
export type OpenCommand = z.infer<typeof openCommandSchema>;

/** A string set as DynamoDB returns it (a Set), or a list as older items or tests wrote it. */
const stringSet = z.union([z.set(z.string()), z.array(z.string())]).transform((v) => [...v].sort());

/** Present but malformed presentation fields read as absent: a bad colour must not hide a unit. */
const lenient = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

/** A map by id whose malformed entries read as absent (one bad zone must not disarm the others). */
const lenientEntries = <T extends z.ZodType>(schema: T) =>
  z
    .record(z.string(), schema.nullable().catch(null))
    .transform((entries) => Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== null)) as Record<string, z.output<T>>)
    .optional()
    .catch(undefined);

/**
 * A geofence as the event engine reads it, copied for each unit it is assigned to (the unit's
 * `unit-copies` item) by the geofences capability (functions/geofences) in the transaction that
 * saves the geofence, so that ingest finds a unit's zones in the call that reads the unit. A circle is `lat`, `lon`, `radius`; a
 * polygon also has its corners as [lon, lat] (`lat`/`lon` then its centre, `radius` what encloses it).
 */
export const unitZoneSchema = z.object({
  name: z.string(),
  lat: z.number(),
  lon: z.number(),
  radius: z.number().positive(),
  polygon: z.array(z.tuple([z.number(), z.number()])).min(3).optional(),
  /** Alarms on enter and exit go to the alarm receivers. */
  alarm: z.boolean(),
  /** An inactive zone raises nothing and tracks nothing. */
  active: z.boolean(),
  /** Leaving the zone switches the unit to theft mode. */
  theftMode: z.boolean(),
  /** Weekly windows in which the zone is switched off (deactivation days and times). */
  off: weeklyWindowsSchema,
  /** The zone `off` is read in. */
  timeZone: z.string(),
});
export type UnitZone = z.infer<typeof unitZoneSchema>;

/** A place's categorisation rule as trip detection reads it, copied onto each unit the place is assigned to (functions/places). */
export const unitPlaceSchema = z.object({
  label: z.string(),
  lat: z.number(),
  lon: z.number(),
  radius: z.number().positive(),
  rule: z.object({
    when: z.enum(['start', 'end', 'between']),
    type: z.enum(['business', 'private', 'other']),
    otherPlaceId: z.string().optional(),
  }),
  /** Weekly windows in which the rule applies; empty: always. */
  schedule: weeklyWindowsSchema,
  timeZone: z.string(),
});
export type UnitPlace = z.infer<typeof unitPlaceSchema>;

/**
 * A BLE sensor as ingest reads it, copied into the unit's `unit-copies` item (`sensors`, by sensor
 * id) by the sensors capability (functions/sensors) in the transaction that adds it, which also
 * holds the limit of 4 per unit. `createdAt` (epoch ms) orders them: Teltonika trackers report
 * sensors by slot, in the order they were added.
 */
export const unitSensorSchema = z.object({
  mac: z.string(),
  name: z.string(),
  kind: z.enum(sensorKinds),
  createdAt: z.number(),
  thresholds: z.object({
    tempMin: z.number().optional(),
    tempMax: z.number().optional(),
    humMin: z.number().optional(),
    humMax: z.number().optional(),
    doorOpen: z.boolean().optional(),
    lowBattery: z.boolean().optional(),
  }),
});
export type UnitSensor = z.infer<typeof unitSensorSchema>;

/** A service interval as the unit item keeps it (shared/schemas/unit-editor.ts): every km, engine hours or months from the last service. */
export const storedServiceIntervalSchema = z.object({
  name: z.string(),
  kind: z.enum(serviceKinds),
  every: z.number().positive(),
  lastService: z.union([z.number(), z.string()]),
  /** Position in the editor's list. */
  order: z.number(),
});
export type StoredServiceInterval = z.infer<typeof storedServiceIntervalSchema>;

/**
 * The latest odometer and operating-hours entries as ingest reads them (docs/decisions/0027): a
 * copy in the unit's `unit-copies` item, written in the transaction that adds or deletes an entry
 * (`correctionsRev`), so that the service stage counts from the reading without a read per
 * position. The odometer's counter is the trip counter at the entry (`source` says whose); the
 * hours' is the tracker's engine seconds then (absent: the tracker reported none).
 */
export const odometerCorrectionSchema = z.object({
  atTs: z.number(),
  valueKm: z.number(),
  counterM: z.number().optional(),
  source: z.enum(['tracker', 'computed']).optional(),
});
export type OdometerCorrection = z.infer<typeof odometerCorrectionSchema>;
export const hoursCorrectionSchema = z.object({ atTs: z.number(), valueHours: z.number(), counterS: z.number().optional() });
export type HoursCorrection = z.infer<typeof hoursCorrectionSchema>;

export const unitItemSchema = z.object({
  imei: z.string().regex(IMEI_PATTERN),
  accountId: z.string().min(1),
  name: z.string(),
  registrationNumber: lenient(z.string()),
  vehicleType: z.string(),
  protocol: z.enum(['native', 'teltonika']),
  /** When it was registered to its owner; items written before registrations kept it have none. */
  createdAt: z.string().optional(),
  color: lenient(z.string().regex(/^#[0-9a-f]{6}$/i)),
  symbol: lenient(z.string().min(1)),
  driver: lenient(z.string().min(1)),
  /** Minutes without movement (or with ignition off) that end a trip (trip detection); default 3. */
  timeTillParkedMinutes: lenient(z.number().int().min(1).max(1440)),
  /** Free-text department names of the first data model (nothing writes them any more); shown after the assigned departments. */
  departments: lenient(z.array(z.string())),
  /** The account's departments and tags (functions/organisation) the unit carries, by id: names are resolved when read, so a rename shows at once. */
  departmentIds: stringSet.optional().catch(undefined),
  tagIds: stringSet.optional().catch(undefined),
  // The unit editor (functions/units/editor; the object description, theft info and name history live in `unit-details`).
  subscriptionType: lenient(z.enum(subscriptionTypes)),
  fuelType: lenient(z.enum(fuelTypes)),
  /** Litres (kWh for electricity) per 10 km. */
  consumption: lenient(z.number().positive()),
  /** Litres (kWh, kg) per hour of idling. */
  idleConsumption: lenient(z.number().positive()),
  /** CO2 g/km. */
  co2: lenient(z.number().nonnegative()),
  nextInspection: lenient(z.string()),
  ecoSensitivity: lenient(z.enum(ecoSensitivities)),
  /** Input labels: "1".."3" to a non-empty name. */
  dinLabels: lenient(z.record(z.string(), z.string().min(1))),
  reportFrequency: lenient(z.object({ value: z.number().int().positive(), unit: z.enum(frequencyUnits) })),
  /** Set by support: the owner may not change the report frequency ('denied') or it is locked ('locked'). */
  reportFrequencyChange: lenient(z.enum(frequencyChangeStates)),
  /** When the registration number was changed last (epoch ms, at most the last two) and its revision: the 2-per-24-h rule. */
  registrationChanges: lenient(z.array(z.number())),
  registrationRev: lenient(z.number().int().nonnegative()),
  /** Service intervals by id (read by ingest's service stage, functions/units/editor/service-stage.ts). */
  serviceIntervals: lenient(z.record(z.string(), storedServiceIntervalSchema)),
  /** The geofences assigned to the unit, by geofence id (at most MAX_GEOFENCES_PER_UNIT). */
  zones: lenientEntries(unitZoneSchema),
  /** The places assigned to the unit with their rules, by place id. */
  places: lenientEntries(unitPlaceSchema),
  /** Copies of the unit's BLE sensors by sensor id (unit-copies; functions/sensors). */
  sensors: lenientEntries(unitSensorSchema),
  /** Overspeed alarm: above this speed, km/h, for at least `overspeedSeconds` (default 30). Unset: no alarm. */
  overspeedKmh: lenient(z.number().int().min(1).max(350)),
  overspeedSeconds: lenient(z.number().int().min(0).max(3600)),
  /** Low-battery alarm on (default) or off. */
  lowBatteryAlert: lenient(z.boolean()),
  /** Digital inputs ("1".."3") whose changes are alarms; the others' changes are only recorded (many trackers wire ignition to an input). */
  dinAlarms: lenient(z.record(z.string(), z.boolean())),
  /** Output labels: "1".."3" to a non-empty name. */
  doutLabels: lenient(z.record(z.string(), z.string().min(1))),
  /** The latest odometer and operating-hours readings (unit-copies; docs/decisions/0027). */
  odometerCorrection: lenient(odometerCorrectionSchema),
  hoursCorrection: lenient(hoursCorrectionSchema),
  operatingMode: lenient(z.enum(operatingModes)),
  /** Access lock (functions/units/lock-repository.ts): the locker's user id, their name then, and when (ISO 8601). */
  lockedBy: lenient(z.string().min(1)),
  lockedByName: lenient(z.string()),
  lockedAt: lenient(z.string()),
  openCommand: lenient(openCommandSchema),
  lastCommandAnswer: lenient(z.object({ text: z.string(), receivedAt: z.number() })),
  viewers: stringSet.optional().catch(undefined),
  state: lenient(storedStateSchema),
  /** Each ingest stage's own state (trip detection, the event engine), by stage name. */
  stages: lenient(z.record(z.string(), z.unknown())),
  /** Side effects decided and not yet sent, by effect id. */
  effects: lenient(z.record(z.string(), pendingEffectSchema)),
  /** Ingest's revision of state, stages and effects: each transition is conditional on it. */
  rev: lenient(z.number().int().nonnegative()),
});
export type UnitItem = z.infer<typeof unitItemSchema>;
export type StoredUnitState = z.infer<typeof storedStateSchema>;

export class CorruptUnitItemError extends Error {
  override name = 'CorruptUnitItemError';
}

/** The item as read, or an error naming what is wrong with its identity fields. */
export function parseUnitItem(raw: Record<string, unknown>): UnitItem {
  return parseWith(unitItemSchema, raw);
}

function parseWith<T>(schema: z.ZodType<T>, raw: Record<string, unknown>): T {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const where = parsed.error.issues.map((i) => i.path.join('.') || '(item)').join(', ');
    throw new CorruptUnitItemError(`units item ${JSON.stringify(raw['imei'])} is malformed at ${where}`);
  }
  return parsed.data;
}

/**
 * What the map's view of a unit reads of its item (functions/tracking/stored-shape.ts `toMapUnit`,
 * the lock rules and the account check): a projection, without the stage states, effects, copies
 * and settings that make up most of a unit's item, so that a page of 5,000 units reads, moves and
 * parses about half the bytes.
 */
const MAP_FIELDS = {
  imei: true,
  accountId: true,
  name: true,
  registrationNumber: true,
  vehicleType: true,
  color: true,
  symbol: true,
  operatingMode: true,
  state: true,
  lockedBy: true,
  lockedByName: true,
} as const;
const mapUnitItemSchema = unitItemSchema.pick(MAP_FIELDS);
export type MapUnitItem = z.infer<typeof mapUnitItemSchema>;

/** How a read of units items asks for them and parses them: the whole item, or the map's projection. */
export interface UnitItemRead<T> {
  /** The top-level attributes to read; all when absent. */
  readonly attributes?: readonly string[];
  readonly parse: (raw: Record<string, unknown>) => T;
}
export const WHOLE_UNIT: UnitItemRead<UnitItem> = { parse: parseUnitItem };
export const MAP_UNIT: UnitItemRead<MapUnitItem> = { attributes: Object.keys(MAP_FIELDS), parse: (raw) => parseWith(mapUnitItemSchema, raw) };
const membershipSchema = unitItemSchema.pick({ imei: true, accountId: true, departmentIds: true, tagIds: true });
export type UnitMembership = z.infer<typeof membershipSchema>;
/** A unit's departments and tags: what the organisation's lists and assignments read of every unit (kept by the `byAccountName` index). */
export const UNIT_MEMBERSHIP: UnitItemRead<UnitMembership> & { attributes: readonly string[] } = { attributes: ['imei', 'accountId', 'departmentIds', 'tagIds'], parse: (raw) => parseWith(membershipSchema, raw) };

/** The ProjectionExpression of a read (every name escaped: `name` and `state` are reserved words), or nothing for the whole item. */
export function projectionOf(read: UnitItemRead<unknown>): { ProjectionExpression: string; ExpressionAttributeNames: Record<string, string> } | Record<string, never> {
  if (!read.attributes) return {};
  return {
    ProjectionExpression: read.attributes.map((_, i) => `#p${i}`).join(', '),
    ExpressionAttributeNames: Object.fromEntries(read.attributes.map((a, i) => [`#p${i}`, a])),
  };
}

export const liveAudienceOf = (unit: Pick<UnitItem, 'accountId' | 'imei' | 'viewers'> & Partial<Pick<UnitItem, 'lockedBy'>>): LiveAudience => ({
  accountId: unit.accountId,
  imei: unit.imei,
  viewers: unit.viewers ?? [],
  // A locked unit is heard only by its locker (shared/mqtt-topics.ts liveTopicsOf).
  ...(unit.lockedBy !== undefined ? { lockedBy: unit.lockedBy } : {}),
});

/** When the unit was registered to its current owner, epoch ms (-Infinity when unknown). */
export function registeredAtOf(unit: Pick<UnitItem, 'createdAt'>): number {
  const at = unit.createdAt === undefined ? NaN : Date.parse(unit.createdAt);
  return Number.isNaN(at) ? -Infinity : at;
}

/** What registration and adding a unit write: the item's first fields. */
export interface UnitRecord {
  imei: string;
  accountId: string;
  name: string;
  registrationNumber?: string;
  vehicleType: string;
  protocol: 'native' | 'teltonika';
  createdAt: string;
}
