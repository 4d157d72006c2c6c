/**
 * The one owner of the `units` item. Registration creates it; tracking, commands and ingest read
 * it; ingest moves its state, the commands service its open command, and grants its viewers. Every
 * read goes through `parseUnitItem` (zod), so no capability casts the item or reads `unknown`
 * fields, and every write other capabilities need is an operation here.
 *
 * The item: the registration record (imei, accountId, name, ...), what later features set
 * (colour, symbol, driver, departments, output labels, operating mode), the commands service's
 * `openCommand` and `lastCommandAnswer`, the ordinary users it is granted to (`viewers`, a string
 * set), and ingest's `state`, `stages` and `rev` (functions/ingest/transitions.ts). Beside it,
 * the unit's `unit-copies` item holds the copies of its geofences and places (`zones`, `places`),
 * which `getUnitItems` reads with it and shows as fields of the unit.
 */
import { BatchGetCommand, GetCommand, PutCommand, type BatchGetCommandOutput, QueryCommand, UpdateCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import { commandTypes, operatingModes } from '../../shared/schemas/commands';
import { weeklyWindowsSchema } from '../../shared/schemas/schedule';
import { sensorKinds } from '../../shared/schemas/sensors';
import { ecoSensitivities, frequencyChangeStates, frequencyUnits, fuelTypes, serviceKinds, subscriptionTypes } from '../../shared/schemas/unit-editor';
import type { LiveAudience } from '../../shared/mqtt-topics';
import { IMEI_PATTERN } from '../../shared/validators/imei';
import { isConditionFailure } from './conditions';
import { dynamo, tableName } from './db';
import type { UnitRecord } from './records';

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

const openCommandSchema = z.object({ id: z.string(), type: z.enum(commandTypes), createdAt: z.number() });
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
  const parsed = unitItemSchema.safeParse(raw);
  if (!parsed.success) {
    const where = parsed.error.issues.map((i) => i.path.join('.') || '(item)').join(', ');
    throw new CorruptUnitItemError(`units item ${JSON.stringify(raw['imei'])} is malformed at ${where}`);
  }
  return parsed.data;
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

export async function getUnitItem(imei: string, options: { consistent?: boolean } = {}): Promise<UnitItem | null> {
  if (!IMEI_PATTERN.test(imei)) return null;
  const out = await dynamo().send(new GetCommand({ TableName: tableName('units'), Key: { imei }, ConsistentRead: options.consistent ?? false }));
  return out.Item ? parseUnitItem(out.Item) : null;
}

/**
 * Many units at once, read strongly consistent, each with its geofence and place copies (the
 * `unit-copies` item, in the same BatchGetItem): what ingest compares a batch with and what the
 * geofence and place writes plan from. Copies of another account (left from a previous owner)
 * are not the unit's. An item that does not parse is answered as its error, so that it costs only
 * its own unit's messages.
 */
export async function getUnitItems(imeis: readonly string[]): Promise<Map<string, UnitItem | CorruptUnitItemError>> {
  const table = tableName('units');
  const copiesTable = tableName('unitCopies');
  const raw = new Map<string, Record<string, unknown>>();
  const copies = new Map<string, Record<string, unknown>>();
  const valid = [...new Set(imeis)].filter((imei) => IMEI_PATTERN.test(imei));
  // 100 keys per call: 50 units and their copies.
  for (let i = 0; i < valid.length; i += 50) {
    const keys = valid.slice(i, i + 50).map((imei) => ({ imei }));
    // Unprocessed keys (throttling) are rare: the whole chunk is asked again; reads are idempotent.
    for (let attempt = 0; ; attempt++) {
      if (attempt) await new Promise((r) => setTimeout(r, Math.random() * Math.min(20 * 2 ** attempt, 1000)));
      const out: BatchGetCommandOutput = await dynamo().send(
        new BatchGetCommand({ RequestItems: { [table]: { Keys: keys, ConsistentRead: true }, [copiesTable]: { Keys: keys, ConsistentRead: true } } }),
      );
      for (const item of out.Responses?.[table] ?? []) raw.set(String(item['imei']), item);
      for (const item of out.Responses?.[copiesTable] ?? []) copies.set(String(item['imei']), item);
      if (!out.UnprocessedKeys || Object.keys(out.UnprocessedKeys).length === 0) break;
      if (attempt > 8) throw new Error('units: keys left unprocessed after retries');
    }
  }
  const found = new Map<string, UnitItem | CorruptUnitItemError>();
  for (const [imei, item] of raw) {
    const own = copies.get(imei);
    const merged =
      own && own['accountId'] === item['accountId']
        ? { ...item, zones: own['zones'], places: own['places'], sensors: own['sensors'], odometerCorrection: own['odometerCorrection'], hoursCorrection: own['hoursCorrection'] }
        : item;
    try {
      found.set(imei, parseUnitItem(merged));
    } catch (error) {
      if (!(error instanceof CorruptUnitItemError)) throw error;
      found.set(imei, error);
    }
  }
  return found;
}

/** Every unit of an account, by IMEI (the byAccount index's sort key). */
export async function listAccountUnits(accountId: string): Promise<UnitItem[]> {
  const units: UnitItem[] = [];
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('units'),
        IndexName: 'byAccount',
        KeyConditionExpression: 'accountId = :a',
        ExpressionAttributeValues: { ':a': accountId },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) units.push(parseUnitItem(item));
    start = page.LastEvaluatedKey;
  } while (start);
  return units;
}

/** Keeps a tracker's command answer on its unit: true when kept, false when the unit holds a newer one (or is gone). */
export async function keepLastCommandAnswer(imei: string, answer: { text: string; receivedAt: number }): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('units'),
        Key: { imei },
        UpdateExpression: 'SET #a = :a',
        ConditionExpression: 'attribute_exists(imei) AND (attribute_not_exists(#a) OR #a.#r < :r)',
        ExpressionAttributeNames: { '#a': 'lastCommandAnswer', '#r': 'receivedAt' },
        ExpressionAttributeValues: { ':a': answer, ':r': answer.receivedAt },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** What one ingest transition writes: the new state, every stage's state, and the effects not yet sent. */
export interface UnitTransition {
  state: StoredUnitState;
  stages: Record<string, unknown>;
  effects: Record<string, PendingEffect>;
}

/**
 * Writes a transition computed from `from` (the item as read): only if the item is still that
 * registration at that revision, so a transition is applied once, from the state it was computed
 * from, however often a batch is retried. True when written; false when the item moved meanwhile
 * (or is gone, or the IMEI was registered again): read it again and recompute.
 */
export async function commitUnitTransition(from: Pick<UnitItem, 'imei' | 'accountId' | 'createdAt' | 'rev'>, next: UnitTransition): Promise<boolean> {
  const rev = from.rev ?? 0;
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('units'),
        Key: { imei: from.imei },
        UpdateExpression: 'SET #state = :state, stages = :stages, effects = :effects, #rev = :next',
        ConditionExpression: [
          'accountId = :account',
          from.createdAt === undefined ? 'attribute_not_exists(createdAt)' : 'createdAt = :created',
          from.rev === undefined ? 'attribute_not_exists(#rev)' : '#rev = :rev',
        ].join(' AND '),
        ExpressionAttributeNames: { '#state': 'state', '#rev': 'rev' },
        ExpressionAttributeValues: {
          ':state': next.state,
          ':stages': next.stages,
          ':effects': next.effects,
          ':next': rev + 1,
          ':account': from.accountId,
          ...(from.createdAt === undefined ? {} : { ':created': from.createdAt }),
          ...(from.rev === undefined ? {} : { ':rev': rev }),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Claims a pending effect before it is sent: true for exactly one caller, however many retries
 * race for it. A claimed effect is never sent again (at most once even if the sender dies after
 * the claim); together with the transition that created it exactly once, it is sent once.
 */
export async function claimUnitEffect(imei: string, effectId: string): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('units'),
        Key: { imei },
        UpdateExpression: 'SET effects.#id.#status = :sending',
        ConditionExpression: 'effects.#id.#status = :pending',
        ExpressionAttributeNames: { '#id': effectId, '#status': 'status' },
        ExpressionAttributeValues: { ':sending': 'sending', ':pending': 'pending' },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Drops a sent (or abandoned) effect from the unit. */
export async function removeUnitEffect(imei: string, effectId: string): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName('units'),
      Key: { imei },
      UpdateExpression: 'REMOVE effects.#id',
      ConditionExpression: 'attribute_exists(effects.#id)',
      ExpressionAttributeNames: { '#id': effectId },
    }),
  ).catch((error: unknown) => {
    if (!isConditionFailure(error)) throw error;
  });
}

/** What the commands service reads before it opens a command: the unit's owner, its open command and whether it keeps output labels as a map. */
export interface UnitCommandState {
  accountId: string;
  open: OpenCommand | null;
  /** The item holds `doutLabels` as a map (a label is then set inside it, else the map is written whole). */
  labelsMap: boolean;
}

/** The command state of an item already read; a malformed open command reads as none. */
export function unitCommandStateOf(unit: Pick<UnitItem, 'accountId' | 'openCommand'> & { doutLabels?: unknown }): UnitCommandState {
  return { accountId: unit.accountId, open: unit.openCommand ?? null, labelsMap: isPlainMap(unit.doutLabels) };
}

const isPlainMap = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Set);

/** The unit's command state read strongly consistent; null when the unit is gone. */
export async function getUnitCommandState(imei: string): Promise<UnitCommandState | null> {
  if (!IMEI_PATTERN.test(imei)) return null;
  const out = await dynamo().send(
    new GetCommand({ TableName: tableName('units'), Key: { imei }, ConsistentRead: true, ProjectionExpression: 'accountId, openCommand, doutLabels' }),
  );
  const item = out.Item;
  if (!item || typeof item['accountId'] !== 'string') return null;
  const open = openCommandSchema.safeParse(item['openCommand']);
  return { accountId: item['accountId'], open: open.success ? open.data : null, labelsMap: isPlainMap(item['doutLabels']) };
}

/** One Update of a TransactWriteItems call (the commands service writes the unit and its commands together). */
export interface UnitTransactUpdate {
  Update: {
    TableName: string;
    Key: { imei: string };
    UpdateExpression: string;
    ConditionExpression: string;
    ExpressionAttributeNames: Record<string, string>;
    ExpressionAttributeValues: Record<string, unknown>;
  };
}

/**
 * Opens `next` as the unit's command, in the transaction that saves it: only while the unit still
 * belongs to `seen.accountId` and its open command is still `seen.open`, so two commands racing
 * for one unit can never both stay open. A DOUT label is set (or, empty, removed) with it.
 */
export function openUnitCommandUpdate(imei: string, seen: UnitCommandState, next: OpenCommand, label?: { output: number; text: string }): UnitTransactUpdate {
  const names: Record<string, string> = { '#open': 'openCommand' };
  const values: Record<string, unknown> = { ':open': next, ':account': seen.accountId };
  const sets = ['#open = :open'];
  const removes: string[] = [];
  const conditions = ['attribute_exists(imei)', 'accountId = :account'];
  if (seen.open) {
    conditions.push('#open.#id = :prev');
    names['#id'] = 'id';
    values[':prev'] = seen.open.id;
  } else {
    conditions.push('attribute_not_exists(#open)');
  }
  if (label) {
    // A nested path can only be set inside an existing map, so a unit without labels gets the whole
    // map; the condition makes sure the map is still as seen.
    names['#labels'] = 'doutLabels';
    values[':map'] = 'M';
    if (seen.labelsMap) {
      conditions.push('attribute_type(#labels, :map)');
      names['#output'] = String(label.output);
      if (label.text) {
        sets.push('#labels.#output = :label');
        values[':label'] = label.text;
      } else {
        removes.push('#labels.#output');
      }
    } else {
      conditions.push('NOT attribute_type(#labels, :map)');
      if (label.text) {
        sets.push('#labels = :labels');
        values[':labels'] = { [String(label.output)]: label.text };
      }
    }
  }
  return {
    Update: {
      TableName: tableName('units'),
      Key: { imei },
      UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** Closes the unit's open command `commandId` (answered) in the transaction that closes it; an acknowledged operating mode becomes the unit's. */
export function closeUnitCommandUpdate(imei: string, commandId: string, operatingMode?: UnitItem['operatingMode']): UnitTransactUpdate {
  return {
    Update: {
      TableName: tableName('units'),
      Key: { imei },
      UpdateExpression: `REMOVE #open${operatingMode ? ' SET operatingMode = :mode' : ''}`,
      ConditionExpression: '#open.#id = :id',
      ExpressionAttributeNames: { '#open': 'openCommand', '#id': 'id' },
      ExpressionAttributeValues: { ':id': commandId, ...(operatingMode ? { ':mode': operatingMode } : {}) },
    },
  };
}

/**
 * The Put that creates a unit's item in the registration transaction, only where no item with
 * that IMEI exists. The record is checked against the item's schema first, so what registration
 * writes is what every reader can parse.
 */
export function newUnitItemPut(record: UnitRecord): { Put: { TableName: string; Item: UnitRecord; ConditionExpression: string; ExpressionAttributeNames: Record<string, string> } } {
  parseUnitItem({ ...record });
  return {
    Put: { TableName: tableName('units'), Item: record, ConditionExpression: 'attribute_not_exists(#k)', ExpressionAttributeNames: { '#k': 'imei' } },
  };
}

/**
 * The unit's current driver as the map and the units list show it (`driver`, a display name): the
 * trip log's driver check-in (functions/trips) sets it, only while the unit is still the
 * account's. False when it is not (gone, or registered to another account).
 */
export async function setUnitDriver(imei: string, accountId: string, driverName: string): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('units'),
        Key: { imei },
        UpdateExpression: 'SET driver = :driver',
        ConditionExpression: 'accountId = :account',
        ExpressionAttributeValues: { ':driver': driverName, ':account': accountId },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

// ------------------------------------------------------------------------------------------------
// Copies of geofences and places on the units they are assigned to: `zones` (by geofence id, read
// by the event engine) and `places` (by place id, read by trip detection), kept in a `unit-copies`
// item per unit beside the units item: every position's transition rewrites the units item, and
// DynamoDB charges a write by the whole item's size, so what changes rarely is kept out of it.
// `getUnitItems` reads both in one call. Written only in the transaction that saves or deletes the
// geofence or place, so an item and its copies never disagree.
// ------------------------------------------------------------------------------------------------

type CopyMap = 'zones' | 'places' | 'sensors';

/**
 * Sets copy `id` in the unit's `map`, only while the copies are `accountId`'s and the map is as
 * read: a nested path can only be set inside an existing map, so a unit without one (`hasMap`
 * false) gets the whole map, on condition that it still has none. With `max`, only while the map
 * holds fewer copies or already this one, so two saves racing for a unit's last slot cannot both
 * win.
 */
function setCopyUpdate(map: CopyMap, imei: string, accountId: string, id: string, copy: unknown, hasMap: boolean, max?: number): UnitTransactUpdate {
  const names: Record<string, string> = { '#map': map };
  const values: Record<string, unknown> = { ':account': accountId, ':M': 'M' };
  let update: string;
  let condition: string;
  if (hasMap) {
    names['#id'] = id;
    values[':copy'] = copy;
    update = 'SET #map.#id = :copy';
    condition = 'accountId = :account AND attribute_type(#map, :M)';
    if (max !== undefined) {
      values[':max'] = max;
      condition += ' AND (size(#map) < :max OR attribute_exists(#map.#id))';
    }
  } else {
    values[':whole'] = { [id]: copy };
    update = 'SET #map = :whole, accountId = :account';
    condition = '(attribute_not_exists(accountId) OR accountId = :account) AND NOT attribute_type(#map, :M)';
  }
  return {
    Update: { TableName: tableName('unitCopies'), Key: { imei }, UpdateExpression: update, ConditionExpression: condition, ExpressionAttributeNames: names, ExpressionAttributeValues: values },
  };
}

/**
 * Removes copy `id` from the unit's `map` (which it holds). Ids are the account's own, so this
 * needs no owner condition.
 */
function removeCopyUpdate(map: CopyMap, imei: string, id: string): UnitTransactUpdate {
  return {
    Update: {
      TableName: tableName('unitCopies'),
      Key: { imei },
      UpdateExpression: 'REMOVE #map.#id',
      ConditionExpression: 'attribute_type(#map, :M)',
      ExpressionAttributeNames: { '#map': map, '#id': id },
      ExpressionAttributeValues: { ':M': 'M' },
    },
  };
}

/** Writes a unit's copies whole, outside any save (seeding a demo or a benchmark, tests). */
export async function putUnitCopies(imei: string, accountId: string, copies: { zones?: Record<string, UnitZone>; places?: Record<string, UnitPlace> }): Promise<void> {
  await dynamo().send(new PutCommand({ TableName: tableName('unitCopies'), Item: { imei, accountId, ...copies } }));
}

/** What a zone write needs of the unit as read: its owner and whether it holds `zones` as a map. */
export interface UnitZonesSeen {
  imei: string;
  accountId: string;
  /** The item holds `zones` as a map (a zone is then set inside it, else the map is written whole). */
  zonesMap: boolean;
  /** The geofence ids on the unit now. */
  zoneIds: readonly string[];
}

export function unitZonesSeenOf(unit: Pick<UnitItem, 'imei' | 'accountId' | 'zones'>): UnitZonesSeen {
  return { imei: unit.imei, accountId: unit.accountId, zonesMap: unit.zones !== undefined, zoneIds: Object.keys(unit.zones ?? {}) };
}

/** Sets the copy of geofence `zoneId` on the unit in the geofence's transaction; at most `max` zones per unit. */
export function putUnitZoneUpdate(seen: UnitZonesSeen, zoneId: string, zone: UnitZone, max: number): UnitTransactUpdate {
  return setCopyUpdate('zones', seen.imei, seen.accountId, zoneId, unitZoneSchema.parse(zone), seen.zonesMap, max);
}

/** Removes the copy of geofence `zoneId` from the unit; null when the unit holds no zones map (nothing to remove). */
export function removeUnitZoneUpdate(seen: UnitZonesSeen, zoneId: string): UnitTransactUpdate | null {
  return seen.zonesMap ? removeCopyUpdate('zones', seen.imei, zoneId) : null;
}

/** Sets the copy of place `placeId` on a unit of `accountId` in the place's transaction (`hasPlaces`: the unit holds a `places` map, as read). */
export function setUnitPlaceUpdate(imei: string, accountId: string, placeId: string, place: UnitPlace, hasPlaces: boolean): UnitTransactUpdate {
  return setCopyUpdate('places', imei, accountId, placeId, unitPlaceSchema.parse(place), hasPlaces);
}

/** Removes the copy of place `placeId` from a unit that holds a `places` map. */
export function removeUnitPlaceUpdate(imei: string, placeId: string): UnitTransactUpdate {
  return removeCopyUpdate('places', imei, placeId);
}

/**
 * Sets the copy of sensor `sensorId` on a unit of `accountId` in the transaction that adds or edits
 * the sensor (`hasSensors`: the unit holds a `sensors` map, as read); with `max`, only while the
 * unit has fewer sensors or already this one.
 */
export function setUnitSensorUpdate(imei: string, accountId: string, sensorId: string, sensor: UnitSensor, hasSensors: boolean, max?: number): UnitTransactUpdate {
  return setCopyUpdate('sensors', imei, accountId, sensorId, unitSensorSchema.parse(sensor), hasSensors, max);
}

/** Removes the copy of sensor `sensorId` from a unit that holds a `sensors` map. */
export function removeUnitSensorUpdate(imei: string, sensorId: string): UnitTransactUpdate {
  return removeCopyUpdate('sensors', imei, sensorId);
}

// ------------------------------------------------------------------------------------------------
// The latest odometer and operating-hours readings, copied into `unit-copies` for ingest
// (docs/decisions/0027-odometer-and-operating-hours.md). An entry's put or delete and the copy
// are one transaction, conditional on the copies' `correctionsRev` as read, so of two racing
// entry writes one is planned again and the copy is always the latest entry's.
// ------------------------------------------------------------------------------------------------

export type CorrectionField = 'odometerCorrection' | 'hoursCorrection';

/** The copies item's owner and corrections revision as read (strongly consistent). */
export interface CorrectionsSeen {
  accountId: string | undefined;
  rev: number | undefined;
}

export async function getCorrectionsSeen(imei: string): Promise<CorrectionsSeen> {
  const out = await dynamo().send(
    new GetCommand({ TableName: tableName('unitCopies'), Key: { imei }, ConsistentRead: true, ProjectionExpression: 'accountId, correctionsRev' }),
  );
  const accountId = out.Item?.['accountId'];
  const rev = out.Item?.['correctionsRev'];
  return { accountId: typeof accountId === 'string' ? accountId : undefined, rev: typeof rev === 'number' ? rev : undefined };
}

/**
 * Sets (or, null, removes) the unit's copy of its latest reading, only while the copies are still
 * as seen. Null when the copies belong to a previous owner of the IMEI (their zones are ignored;
 * their item is not taken over here, and ingest then counts from the raw counters).
 */
export function setUnitCorrectionUpdate(
  imei: string,
  accountId: string,
  field: CorrectionField,
  correction: OdometerCorrection | HoursCorrection | null,
  seen: CorrectionsSeen,
): UnitTransactUpdate | null {
  if (seen.accountId !== undefined && seen.accountId !== accountId) return null;
  const names: Record<string, string> = { '#c': field, '#rev': 'correctionsRev' };
  const values: Record<string, unknown> = { ':account': accountId, ':next': (seen.rev ?? 0) + 1 };
  const sets = ['accountId = :account', '#rev = :next'];
  if (correction) {
    sets.push('#c = :c');
    values[':c'] = correction;
  }
  const condition = [
    seen.accountId === undefined ? 'attribute_not_exists(accountId)' : 'accountId = :account',
    seen.rev === undefined ? 'attribute_not_exists(#rev)' : '#rev = :rev',
  ];
  if (seen.rev !== undefined) values[':rev'] = seen.rev;
  return {
    Update: {
      TableName: tableName('unitCopies'),
      Key: { imei },
      UpdateExpression: `SET ${sets.join(', ')}${correction ? '' : ' REMOVE #c'}`,
      ConditionExpression: condition.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** The units item's attribute holding the ids of a kind of organisation item (functions/organisation). */
export const unitOrganisationAttribute = { departments: 'departmentIds', tags: 'tagIds' } as const;

/**
 * Adds (or removes) organisation item `id` of a kind to (from) the unit's id set, only while the
 * unit is `accountId`'s. A set ADD or DELETE touches nothing else of the item, so it never clashes
 * with ingest's transitions or another assignment of another item.
 */
export async function setUnitOrganisationItem(imei: string, accountId: string, kind: keyof typeof unitOrganisationAttribute, id: string, carry: boolean): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('units'),
        Key: { imei },
        UpdateExpression: `${carry ? 'ADD' : 'DELETE'} #set :id`,
        ConditionExpression: 'accountId = :account',
        ExpressionAttributeNames: { '#set': unitOrganisationAttribute[kind] },
        ExpressionAttributeValues: { ':id': new Set([id]), ':account': accountId },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
