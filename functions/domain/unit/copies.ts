/**
 * The unit's `unit-copies` item: copies of its geofences, places and sensors, and its latest
 * odometer and operating-hours readings, written in the transactions of their owners.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../platform/db';
import { unitPlaceSchema, unitSensorSchema, unitZoneSchema, type HoursCorrection, type OdometerCorrection, type UnitItem, type UnitPlace, type UnitSensor, type UnitZone } from './schema';
import type { UnitTransactUpdate } from './writes';

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

