/**
 * The trips table: reads are Queries on (imei, startTs) and GetItems; every change of an existing
 * trip is conditional on the version it was read at (`v`) and, unless it is the attestation itself,
 * on the trip not being attested. Trips are keyed by IMEI, which outlives a registration: what a
 * unit's owner reads starts at the unit's registration and belongs to its account (`ownTrips`).
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import { registeredAtOf, type UnitItem } from '../domain/unit/schema';
import { editableFields, editedFieldsOf, joinChanges, parseTripItem, type EditableField, type TripChange, type TripItem } from './trip-item';

export type OwnerUnit = Pick<UnitItem, 'imei' | 'accountId' | 'createdAt'>;

/** The trips of a unit that start in [fromMs, toMs], oldest first, of its current registration only. */
export async function unitTrips(unit: OwnerUnit, fromMs: number, toMs: number, options: { consistent?: boolean } = {}): Promise<TripItem[]> {
  const from = Math.max(fromMs, registeredAtOf(unit));
  if (!(from <= toMs)) return [];
  const trips: TripItem[] = [];
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('trips'),
        KeyConditionExpression: 'imei = :imei AND startTs BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':imei': unit.imei, ':from': from, ':to': toMs },
        ConsistentRead: options.consistent ?? false,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      const trip = parseTripItem(item);
      if (trip.accountId === unit.accountId) trips.push(trip);
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return trips;
}

/** The unit's nearest trip starting before `ts` (direction 'before') or after it ('after'), or null. */
export async function neighbourTrip(unit: OwnerUnit, ts: number, direction: 'before' | 'after'): Promise<TripItem | null> {
  const registeredAt = registeredAtOf(unit);
  const out = await dynamo().send(
    new QueryCommand({
      TableName: tableName('trips'),
      KeyConditionExpression: direction === 'before' ? 'imei = :imei AND startTs < :ts' : 'imei = :imei AND startTs > :ts',
      ExpressionAttributeValues: { ':imei': unit.imei, ':ts': ts },
      ScanIndexForward: direction === 'after',
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  const item = out.Items?.[0];
  if (!item) return null;
  const trip = parseTripItem(item);
  return trip.accountId === unit.accountId && trip.startTs >= registeredAt ? trip : null;
}

/**
 * The ends of the unit's latest `limit` trips starting before `ts` that carry an address, newest
 * first, of the unit's current registration and account: where it parked before.
 */
export async function recentTripEnds(unit: OwnerUnit, ts: number, limit: number): Promise<Array<{ lat: number; lon: number; address: string; end: 'start' | 'stop'; startTs: number }>> {
  const registeredAt = registeredAtOf(unit);
  const out = await dynamo().send(
    new QueryCommand({
      TableName: tableName('trips'),
      KeyConditionExpression: 'imei = :imei AND startTs < :ts',
      ExpressionAttributeValues: { ':imei': unit.imei, ':ts': ts },
      ScanIndexForward: false,
      Limit: limit,
      ConsistentRead: true,
    }),
  );
  const ends: Array<{ lat: number; lon: number; address: string; end: 'start' | 'stop'; startTs: number }> = [];
  for (const item of out.Items ?? []) {
    const trip = parseTripItem(item);
    if (trip.accountId !== unit.accountId || trip.startTs < registeredAt) continue;
    if (trip.stopAddress) ends.push({ lat: trip.stopLat, lon: trip.stopLon, address: trip.stopAddress, end: 'stop', startTs: trip.startTs });
    if (trip.startAddress) ends.push({ lat: trip.startLat, lon: trip.startLon, address: trip.startAddress, end: 'start', startTs: trip.startTs });
  }
  return ends;
}

/** Whether any trip of the IMEI starts strictly between two starts (merge: "the trip directly below"). */
export async function anyTripBetween(imei: string, afterTs: number, beforeTs: number): Promise<boolean> {
  if (beforeTs - afterTs < 2) return false;
  const out = await dynamo().send(
    new QueryCommand({
      TableName: tableName('trips'),
      KeyConditionExpression: 'imei = :imei AND startTs BETWEEN :a AND :b',
      ExpressionAttributeValues: { ':imei': imei, ':a': afterTs + 1, ':b': beforeTs - 1 },
      ProjectionExpression: 'startTs',
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  return (out.Items?.length ?? 0) > 0;
}

export async function getTrip(imei: string, startTs: number, options: { consistent?: boolean } = {}): Promise<TripItem | null> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('trips'), Key: { imei, startTs }, ConsistentRead: options.consistent ?? true }));
  return out.Item ? parseTripItem(out.Item) : null;
}

/** Stores a trip where none starts at that time; false when one does (a redelivery, or a trip already there). */
export async function putNewTrip(trip: TripItem): Promise<boolean> {
  try {
    await dynamo().send(new PutCommand({ TableName: tableName('trips'), Item: trip, ConditionExpression: 'attribute_not_exists(imei)' }));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Replaces a trip read at version `v` (not attested meanwhile) with another one of the same key. False when it moved. */
export async function replaceTrip(previous: Pick<TripItem, 'imei' | 'startTs' | 'v'>, next: TripItem): Promise<boolean> {
  try {
    await dynamo().send(
      new PutCommand({
        TableName: tableName('trips'),
        Item: { ...next, v: previous.v + 1 },
        ConditionExpression: 'v = :v AND attribute_not_exists(attestationId)',
        ExpressionAttributeValues: { ':v': previous.v },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Deletes a trip read at version `v`, unless it changed or was attested meanwhile. */
export async function deleteTrip(trip: Pick<TripItem, 'imei' | 'startTs' | 'v'>): Promise<boolean> {
  try {
    await dynamo().send(
      new DeleteCommand({
        TableName: tableName('trips'),
        Key: { imei: trip.imei, startTs: trip.startTs },
        ConditionExpression: 'v = :v AND attribute_not_exists(attestationId)',
        ExpressionAttributeValues: { ':v': trip.v },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Fills an address the geocoder had not answered when the trip was stored; never one that is
 * there (so a retry cannot overwrite anything). Not a change a user made: the version stays.
 */
export async function fillTripAddress(trip: Pick<TripItem, 'imei' | 'startTs'>, end: 'start' | 'stop', label: string): Promise<void> {
  const attribute = end === 'start' ? 'startAddress' : 'stopAddress';
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('trips'),
        Key: { imei: trip.imei, startTs: trip.startTs },
        UpdateExpression: 'SET #a = :label',
        ConditionExpression: 'attribute_exists(imei) AND attribute_not_exists(#a)',
        ExpressionAttributeNames: { '#a': attribute },
        ExpressionAttributeValues: { ':label': label },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** Tries of a change made on the trip as read, read again each time it moved meanwhile. */
const CHANGE_ATTEMPTS = 5;

/**
 * Makes a change on the trip as read (`write`: true when written, false when it moved since, null
 * when it may not be changed); when it moved, reads it again and makes the change on that, so that
 * a change log entry's old value is the value it replaced.
 */
async function changeAsRead<T>(trip: TripItem, write: (current: TripItem) => Promise<T | false | null>): Promise<T | null> {
  let current: TripItem | null = trip;
  for (let attempt = 0; attempt < CHANGE_ATTEMPTS && current; attempt++) {
    if (current.accountId !== trip.accountId) return null;
    const result = await write(current);
    if (result !== false) return result;
    current = await getTrip(trip.imei, trip.startTs);
  }
  return null;
}

/** The change log entries of setting `changes` on a trip: one per field whose value it changes. */
export function changeEntries(trip: TripItem, changes: Record<string, string | null>, by: string, at: number): TripChange[] {
  return Object.entries(changes).flatMap(([field, value]) => {
    const from = (trip as Record<string, unknown>)[field];
    const before = typeof from === 'string' ? from : null;
    const after = value ?? null;
    return before === after || !(editableFields as readonly string[]).includes(field) ? [] : [{ at, by, field: field as EditableField, from: before, to: after }];
  });
}

/**
 * A user's edit: sets (or, for null, removes) the given fields, records them in `edited`, adds an
 * entry per changed field to the trip's change log, and bumps the version; only on a trip of the
 * account that is not attested, and on the version read (read again when it moved, so the log's
 * old values are right). Null when it may not be changed (the caller reads again to tell why).
 */
export async function updateTripFields(trip: TripItem, changes: Record<string, string | null>, by: string, at: number): Promise<TripItem | null> {
  return changeAsRead(trip, async (current) => {
    if (current.attestationId !== undefined) return null;
    const fields = Object.keys(changes);
    const entries = changeEntries(current, changes, by, at);
    const names: Record<string, string> = { '#edited': 'edited' };
    const values: Record<string, unknown> = { ':account': trip.accountId, ':one': 1, ':fields': new Set(fields), ':at': at, ':by': by, ':v': current.v };
    const sets = ['editedAt = :at', 'editedBy = :by'];
    const removes: string[] = [];
    if (entries.length) {
      sets.push('changes = :changes');
      values[':changes'] = joinChanges(current.changes, entries);
    }
    fields.forEach((field, i) => {
      names[`#f${i}`] = field;
      const value = changes[field];
      if (value === null || value === undefined) removes.push(`#f${i}`);
      else {
        values[`:f${i}`] = value;
        sets.push(`#f${i} = :f${i}`);
      }
    });
    try {
      const out = await dynamo().send(
        new UpdateCommand({
          TableName: tableName('trips'),
          Key: { imei: trip.imei, startTs: trip.startTs },
          UpdateExpression: `SET ${sets.join(', ')} ADD v :one, #edited :fields${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
          ConditionExpression: 'v = :v AND accountId = :account AND attribute_not_exists(attestationId)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes ? parseTripItem(out.Attributes) : null;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  });
}

/**
 * A check-in's driver on one trip, with its change log entry (`by`: who checked in): not on an
 * attested trip, nor on one whose driver a user set. True when changed.
 */
export async function setCheckedInDriver(trip: TripItem, driverId: string, by: string, at: number): Promise<boolean> {
  const changed = await changeAsRead(trip, async (current) => {
    if (current.attestationId !== undefined || editedFieldsOf(current).includes('driverId') || current.driverId === driverId) return null;
    try {
      await dynamo().send(
        new UpdateCommand({
          TableName: tableName('trips'),
          Key: { imei: trip.imei, startTs: trip.startTs },
          UpdateExpression: 'SET driverId = :driver, changes = :changes ADD v :one',
          ConditionExpression: 'v = :v AND accountId = :account AND attribute_not_exists(attestationId)',
          ExpressionAttributeValues: {
            ':driver': driverId,
            ':account': trip.accountId,
            ':one': 1,
            ':v': current.v,
            ':changes': joinChanges(current.changes, changeEntries(current, { driverId }, by, at)),
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  });
  return changed === true;
}

/** Locks a trip for an attestation; false when it is gone or already attested. */
export async function lockTrip(trip: Pick<TripItem, 'imei' | 'startTs' | 'accountId'>, attestationId: string): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('trips'),
        Key: { imei: trip.imei, startTs: trip.startTs },
        UpdateExpression: 'SET attestationId = :id ADD v :one',
        ConditionExpression: 'accountId = :account AND attribute_not_exists(attestationId)',
        ExpressionAttributeValues: { ':id': attestationId, ':account': trip.accountId, ':one': 1 },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Unlocks a trip of an attestation (only of that one). */
export async function unlockTrip(trip: Pick<TripItem, 'imei' | 'startTs'>, attestationId: string): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('trips'),
        Key: { imei: trip.imei, startTs: trip.startTs },
        UpdateExpression: 'REMOVE attestationId ADD v :one',
        ConditionExpression: 'attestationId = :id',
        ExpressionAttributeValues: { ':id': attestationId, ':one': 1 },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
