/**
 * BLE sensors in the `sensors` table (pk imei, sk sensor id), the claim of each MAC in
 * `sensor-macs` (pk mac: one unit of one account at a time, across all accounts) and the sensor's
 * copy in the unit's `unit-copies` item (`sensors`, read by ingest with the unit). Adding a sensor
 * writes all three in one transaction whose conditions are the rules: the MAC is not claimed, the
 * unit holds fewer than 4 sensors (`size(sensors) < 4` on the copies), and the unit is still the
 * account's. So two accounts adding one MAC at once, or six adds racing for a unit's four slots,
 * cannot both win.
 */
import { randomBytes } from 'node:crypto';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { SENSORS_PER_UNIT, sensorMessageKeys as keys, type SensorKind, type StoredThresholds } from '../../shared/schemas/sensors';
import { cancellationCodes, isConditionFailure, lostTransactionRace } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors';
import { removeUnitSensorUpdate, setUnitSensorUpdate } from '../domain/unit/copies';
import { getUnitItems } from '../domain/unit/reads';
import type { UnitItem, UnitSensor } from '../domain/unit/schema';

export interface SensorItem {
  imei: string;
  id: string;
  accountId: string;
  mac: string;
  name: string;
  kind: SensorKind;
  thresholds: StoredThresholds;
  /** `paired` once the tracker acknowledged a pairing command (or at once on a Teltonika tracker). */
  status: 'pending' | 'paired';
  /** The latest pairing command sent for it. */
  commandId?: string;
  /** Epoch ms: orders a unit's sensors (the slots of a Teltonika tracker). */
  createdAtMs: number;
  createdAt: string;
  updatedAt: string;
}

interface MacClaim {
  mac: string;
  imei: string;
  sensorId: string;
  accountId: string;
}

/** Each lost race is another add's commit: six at once need at most six rounds; the rest is slack. */
const MAX_ATTEMPTS = 25;
const pause = (attempt: number) => new Promise((r) => setTimeout(r, Math.random() * Math.min(10 * 2 ** attempt, 200)));

/** Sortable by creation (fixed-width epoch ms first), unique by its random tail. */
export function newSensorId(at: number): string {
  return `${String(at).padStart(13, '0')}-${randomBytes(4).toString('hex')}`;
}

export function sensorCopyOf(item: Pick<SensorItem, 'mac' | 'name' | 'kind' | 'createdAtMs' | 'thresholds'>): UnitSensor {
  return { mac: item.mac, name: item.name, kind: item.kind, createdAt: item.createdAtMs, thresholds: { ...item.thresholds } };
}

/** A unit's sensors of this account, oldest first (a re-registered IMEI does not show a previous owner's). */
export async function listSensorItems(imei: string, accountId: string): Promise<SensorItem[]> {
  const items: SensorItem[] = [];
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('sensors'),
        KeyConditionExpression: 'imei = :i',
        FilterExpression: 'accountId = :a',
        ExpressionAttributeValues: { ':i': imei, ':a': accountId },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...((page.Items ?? []) as SensorItem[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

export async function getSensorItem(imei: string, id: string, accountId: string): Promise<SensorItem> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('sensors'), Key: { imei, id }, ConsistentRead: true }));
  const item = out.Item as SensorItem | undefined;
  if (!item || item.accountId !== accountId) throw new NotFoundError(keys.SensorNotRegistered);
  return item;
}

async function macClaim(mac: string): Promise<MacClaim | null> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('sensorMacs'), Key: { mac }, ConsistentRead: true }));
  return (out.Item as MacClaim | undefined) ?? null;
}

async function unitSensorsAsRead(imei: string, accountId: string): Promise<UnitItem['sensors'] | null> {
  const unit = (await getUnitItems([imei])).get(imei);
  if (!unit || unit instanceof Error || unit.accountId !== accountId) return null;
  return unit.sensors;
}

export interface NewSensor {
  mac: string;
  name: string;
  kind: SensorKind;
  thresholds: StoredThresholds;
  status: SensorItem['status'];
}

/**
 * Adds a sensor to a unit of the account: the sensor, its MAC's claim and its copy on the unit in
 * one transaction. 422 `errors.mac` MacInUse (another unit's) or SensorAlreadyPaired (this
 * unit's), 422 `errors.sensors` AllSensorSlotsTaken at 4; 404 when the unit is no longer the
 * account's.
 */
export async function addSensor(unit: Pick<UnitItem, 'imei' | 'accountId' | 'sensors'>, input: NewSensor, now: number): Promise<SensorItem> {
  const { imei, accountId } = unit;
  const at = new Date(now).toISOString();
  const item: SensorItem = { imei, id: newSensorId(now), accountId, ...input, createdAtMs: now, createdAt: at, updatedAt: at };
  const claim: MacClaim = { mac: input.mac, imei, sensorId: item.id, accountId };
  let sensors = unit.sensors;
  for (let attempt = 1; ; attempt++) {
    const held = Object.values(sensors ?? {});
    if (held.some((s) => s.mac === input.mac)) throw new ValidationError({ mac: [keys.SensorAlreadyPaired] }, keys.SensorAlreadyPaired);
    if (held.length >= SENSORS_PER_UNIT) throw new ValidationError({ sensors: [keys.AllSensorSlotsTaken] }, keys.AllSensorSlotsTaken);
    try {
      await dynamo().send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: tableName('sensors'), Item: { ...item }, ConditionExpression: 'attribute_not_exists(id)' } },
            { Put: { TableName: tableName('sensorMacs'), Item: { ...claim }, ConditionExpression: 'attribute_not_exists(mac)' } },
            setUnitSensorUpdate(imei, accountId, item.id, sensorCopyOf(item), sensors !== undefined, SENSORS_PER_UNIT),
            {
              ConditionCheck: {
                TableName: tableName('units'),
                Key: { imei },
                ConditionExpression: 'accountId = :a',
                ExpressionAttributeValues: { ':a': accountId },
              },
            },
          ],
        }),
      );
      return item;
    } catch (error) {
      const codes = cancellationCodes(error);
      if (!codes) throw error;
      if (codes[3] === 'ConditionalCheckFailed') throw new NotFoundError();
      if (codes[1] === 'ConditionalCheckFailed') {
        const owner = await macClaim(input.mac);
        if (owner) {
          const key = owner.imei === imei && owner.accountId === accountId ? keys.SensorAlreadyPaired : keys.MacInUse;
          throw new ValidationError({ mac: [key] }, key);
        }
        // Freed meanwhile: try again.
      }
      if (attempt >= MAX_ATTEMPTS) throw new ConflictError();
      if (!lostTransactionRace(error) && !codes.includes('ConditionalCheckFailed')) throw error;
      // The copies changed (another add or delete): read them again and decide on what is there now.
      if (attempt > 1 || codes.includes('TransactionConflict')) await pause(attempt);
      const fresh = await unitSensorsAsRead(imei, accountId);
      if (fresh === null) throw new NotFoundError();
      sensors = fresh;
    }
  }
}

/** Sets the name and thresholds of a sensor, and its copy on the unit, in one transaction. */
export async function updateSensor(item: SensorItem, change: { name: string; thresholds: StoredThresholds }, now: number): Promise<SensorItem> {
  const next: SensorItem = { ...item, ...change, updatedAt: new Date(now).toISOString() };
  try {
    await dynamo().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName('sensors'),
              Key: { imei: item.imei, id: item.id },
              UpdateExpression: 'SET #n = :n, thresholds = :t, updatedAt = :u',
              ConditionExpression: 'accountId = :a',
              ExpressionAttributeNames: { '#n': 'name' },
              ExpressionAttributeValues: { ':n': next.name, ':t': next.thresholds, ':u': next.updatedAt, ':a': item.accountId },
            },
          },
          setUnitSensorUpdate(item.imei, item.accountId, item.id, sensorCopyOf(next), true),
        ],
      }),
    );
  } catch (error) {
    // Deleted meanwhile (its copy went with it).
    if (cancellationCodes(error)?.includes('ConditionalCheckFailed')) throw new NotFoundError(keys.SensorNotRegistered);
    throw error;
  }
  return next;
}

/** Removes the sensor, frees its MAC and removes its copy from the unit, in one transaction; false when it was gone already. */
export async function deleteSensor(item: SensorItem): Promise<boolean> {
  try {
    await dynamo().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: tableName('sensors'),
              Key: { imei: item.imei, id: item.id },
              ConditionExpression: 'accountId = :a',
              ExpressionAttributeValues: { ':a': item.accountId },
            },
          },
          {
            Delete: {
              TableName: tableName('sensorMacs'),
              Key: { mac: item.mac },
              ConditionExpression: 'sensorId = :s',
              ExpressionAttributeValues: { ':s': item.id },
            },
          },
          removeUnitSensorUpdate(item.imei, item.id),
        ],
      }),
    );
    return true;
  } catch (error) {
    if (cancellationCodes(error)?.includes('ConditionalCheckFailed')) return false;
    throw error;
  }
}

/** Remembers the pairing command sent for a sensor (while it still exists). */
export async function setSensorCommand(item: Pick<SensorItem, 'imei' | 'id' | 'accountId'>, commandId: string): Promise<void> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('sensors'),
        Key: { imei: item.imei, id: item.id },
        UpdateExpression: 'SET commandId = :c',
        ConditionExpression: 'accountId = :a',
        ExpressionAttributeValues: { ':c': commandId, ':a': item.accountId },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/**
 * The tracker acknowledged pairing `mac`: the unit's sensor with that MAC is `paired`. By MAC, not
 * by command id, so an acknowledgement that arrives before the command id is stored on the sensor
 * still counts. Idempotent; false when the unit has no such sensor (removed meanwhile).
 */
export async function markSensorPaired(imei: string, mac: string): Promise<boolean> {
  const claim = await macClaim(mac);
  if (!claim || claim.imei !== imei) return false;
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('sensors'),
        Key: { imei, id: claim.sensorId },
        UpdateExpression: 'SET #s = :paired',
        ConditionExpression: 'mac = :m',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':paired': 'paired', ':m': mac },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
