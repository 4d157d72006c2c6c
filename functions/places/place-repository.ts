/**
 * The places table (partition `accountId`, sort `id`): an account's places are one Query. Every
 * write is one transaction with the copies on the units (UnitItem.places, functions/domain/
 * unit/copies.ts) and is conditional on the version (`v`) of each place it was decided on, so two
 * saves that would contradict each other (a 'between' rule naming a place being deleted or losing
 * units) cannot both succeed.
 */
import { QueryCommand, TransactWriteCommand, type QueryCommandOutput, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import { placeRuleSchema, type Place } from '../../shared/schemas/places';
import { weeklyWindowsSchema } from '../../shared/schemas/schedule';
import { lostTransactionRace } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import { ConflictError } from '../platform/errors';
import { removeUnitPlaceUpdate, setUnitPlaceUpdate } from '../domain/unit/copies';
import type { UnitItem, UnitPlace } from '../domain/unit/schema';
import { placeMessageKeys as keys } from '../../shared/schemas/places';

const stringList = z.union([z.set(z.string()), z.array(z.string())]).transform((v) => [...v].sort());

export const placeItemSchema = z.object({
  accountId: z.string().min(1),
  id: z.string().min(1),
  label: z.string(),
  address: z.string().catch(''),
  lat: z.number(),
  lon: z.number(),
  radius: z.number(),
  imeis: stringList,
  rule: placeRuleSchema,
  schedule: weeklyWindowsSchema.catch([]),
  timeZone: z.string(),
  v: z.number().int().nonnegative(),
  createdAt: z.number().optional(),
  updatedAt: z.number().optional(),
  updatedBy: z.string().optional(),
});
export type PlaceItem = z.infer<typeof placeItemSchema>;

export function toPlace(item: PlaceItem): Place {
  return {
    id: item.id,
    label: item.label,
    address: item.address,
    lat: item.lat,
    lon: item.lon,
    radius: item.radius,
    imeis: item.imeis,
    rule: item.rule,
    schedule: item.schedule,
    timeZone: item.timeZone,
  };
}

/** What a unit carries of a place: what trip detection needs. */
export function unitCopyOf(item: Pick<PlaceItem, 'label' | 'lat' | 'lon' | 'radius' | 'rule' | 'schedule' | 'timeZone'>): UnitPlace {
  return { label: item.label, lat: item.lat, lon: item.lon, radius: item.radius, rule: item.rule, schedule: item.schedule, timeZone: item.timeZone };
}

/** Every place of an account, read strongly consistent (a save decides on them). */
export async function accountPlaces(accountId: string): Promise<PlaceItem[]> {
  const places: PlaceItem[] = [];
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('places'),
        KeyConditionExpression: 'accountId = :a',
        ExpressionAttributeValues: { ':a': accountId },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    for (const raw of page.Items ?? []) {
      const parsed = placeItemSchema.safeParse(raw);
      if (parsed.success) places.push(parsed.data);
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return places;
}

/** What one save writes, decided by the service (functions/places/place-service.ts). */
export interface PlaceWrite {
  /** The place as it will be; null deletes `previous`. */
  next: PlaceItem | null;
  /** The place as read (null: a new one). */
  previous: PlaceItem | null;
  /** Places the decision read and that must not have changed meanwhile. */
  unchanged: readonly PlaceItem[];
  /** Places whose version goes up (a new 'between' rule names them), so their own saves see it. */
  touched: readonly PlaceItem[];
  /** The units to carry the copy (as read), and the units to lose it. */
  setOn: readonly UnitItem[];
  removeFrom: readonly UnitItem[];
}

const placeKey = (item: Pick<PlaceItem, 'accountId' | 'id'>) => ({ accountId: item.accountId, id: item.id });

export async function writePlace(write: PlaceWrite): Promise<void> {
  const { next, previous } = write;
  const place = (next ?? previous) as PlaceItem;
  const items: NonNullable<TransactWriteCommandInput['TransactItems']> = [];
  if (next) {
    items.push({
      Put: {
        TableName: tableName('places'),
        Item: next,
        ConditionExpression: previous ? 'v = :v' : 'attribute_not_exists(id)',
        ...(previous ? { ExpressionAttributeValues: { ':v': previous.v } } : {}),
      },
    });
  } else if (previous) {
    items.push({ Delete: { TableName: tableName('places'), Key: placeKey(previous), ConditionExpression: 'v = :v', ExpressionAttributeValues: { ':v': previous.v } } });
  }
  for (const other of write.touched) {
    items.push({
      Update: { TableName: tableName('places'), Key: placeKey(other), UpdateExpression: 'SET v = :next', ConditionExpression: 'v = :v', ExpressionAttributeValues: { ':v': other.v, ':next': other.v + 1 } },
    });
  }
  for (const other of write.unchanged) {
    if (write.touched.some((t) => t.id === other.id)) continue;
    items.push({ ConditionCheck: { TableName: tableName('places'), Key: placeKey(other), ConditionExpression: 'v = :v', ExpressionAttributeValues: { ':v': other.v } } });
  }
  if (next) for (const unit of write.setOn) items.push(setUnitPlaceUpdate(unit.imei, next.accountId, next.id, unitCopyOf(next), unit.places !== undefined));
  for (const unit of write.removeFrom) items.push(removeUnitPlaceUpdate(unit.imei, place.id));
  try {
    await dynamo().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (lostTransactionRace(error)) throw new ConflictError(keys.CouldNotSavePlace);
    throw error;
  }
}
