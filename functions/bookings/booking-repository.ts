/**
 * The bookings table (docs/decisions/0023-car-booking.md). Per vehicle, partition `unit#<imei>`:
 * - its bookings, sort key `at#<start ms, 13 digits>#<id>`, so a period is one Query by key;
 * - `lock`, whose `version` every booking write of the vehicle raises in its transaction.
 * Per booking, partition `booking#<id>` (sort key `id`): where the booking is (its vehicle and sort
 * key), so that PUT and DELETE by id find it with GetItem.
 * The sparse `byDriver` index (driverId, startTs) holds the booking items only: My booking.
 *
 * A write reads the version first and the vehicle's bookings after it (both strongly consistent),
 * and commits only if the version is still the one it read: a booking committed before the read of
 * the version is in the bookings it checked, one committed after it made the write lose. The loser
 * reads and checks again (booking-service.ts).
 */
import { GetCommand, QueryCommand, TransactWriteCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import { dynamo, tableName } from '../platform/db';

/** A booking is within one local day, and a day lasts at most 25 hours: the longest a booking can be. */
export const LONGEST_BOOKING_MS = 25 * 3_600_000;

const unitKey = (imei: string) => `unit#${imei}`;
const bookingKey = (id: string) => `booking#${id}`;
const LOCK = 'lock';
const POINTER = 'id';
const pad = (ms: number) => String(Math.max(0, Math.floor(ms))).padStart(13, '0');
export const slotKey = (startMs: number, id: string) => `at#${pad(startMs)}#${id}`;

export const storedBookingSchema = z.object({
  id: z.string(),
  imei: z.string(),
  accountId: z.string(),
  driverId: z.string(),
  startTs: z.number(),
  endTs: z.number(),
  purpose: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string().optional(),
  sk: z.string(),
});
export type StoredBooking = z.infer<typeof storedBookingSchema>;

const pointerSchema = z.object({ imei: z.string(), slot: z.string(), accountId: z.string() });

function parseBookings(items: readonly Record<string, unknown>[] | undefined): StoredBooking[] {
  const out: StoredBooking[] = [];
  for (const item of items ?? []) {
    const parsed = storedBookingSchema.safeParse(item);
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}

/** The vehicle's booking version (0 before its first booking), strongly consistent. */
export async function readVersion(imei: string): Promise<number> {
  const out = await dynamo().send(
    new GetCommand({ TableName: tableName('bookings'), Key: { pk: unitKey(imei), sk: LOCK }, ConsistentRead: true, ProjectionExpression: 'version' }),
  );
  const version = out.Item?.['version'];
  return typeof version === 'number' ? version : 0;
}

/** The vehicle's bookings that overlap [fromMs, toMs), by start: one Query on the key range. */
export async function unitBookings(imei: string, fromMs: number, toMs: number, consistent = false): Promise<StoredBooking[]> {
  const items: Record<string, unknown>[] = [];
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('bookings'),
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': unitKey(imei), ':from': `at#${pad(fromMs - LONGEST_BOOKING_MS)}`, ':to': `at#${pad(toMs)}` },
        ConsistentRead: consistent,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return parseBookings(items).filter((b) => b.startTs < toMs && b.endTs > fromMs);
}

/** A driver's bookings that overlap [fromMs, toMs), by start: one Query on the byDriver index. */
export async function driverBookings(driverId: string, fromMs: number, toMs: number): Promise<StoredBooking[]> {
  const items: Record<string, unknown>[] = [];
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('bookings'),
        IndexName: 'byDriver',
        KeyConditionExpression: 'driverId = :d AND startTs BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':d': driverId, ':from': fromMs - LONGEST_BOOKING_MS, ':to': toMs },
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return parseBookings(items).filter((b) => b.startTs < toMs && b.endTs > fromMs);
}

/** When the vehicle's earliest booking starts (ms), or null: the first item of its key range. */
export async function oldestUnitBooking(imei: string): Promise<number | null> {
  const out = await dynamo().send(
    new QueryCommand({
      TableName: tableName('bookings'),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :at)',
      ExpressionAttributeValues: { ':pk': unitKey(imei), ':at': 'at#' },
      ProjectionExpression: 'startTs',
      Limit: 1,
    }),
  );
  const at = out.Items?.[0]?.['startTs'];
  return typeof at === 'number' ? at : null;
}

/** When the driver's earliest booking starts (ms), or null. */
export async function oldestDriverBooking(driverId: string): Promise<number | null> {
  const out = await dynamo().send(
    new QueryCommand({
      TableName: tableName('bookings'),
      IndexName: 'byDriver',
      KeyConditionExpression: 'driverId = :d',
      ExpressionAttributeValues: { ':d': driverId },
      ProjectionExpression: 'startTs',
      Limit: 1,
    }),
  );
  const at = out.Items?.[0]?.['startTs'];
  return typeof at === 'number' ? at : null;
}

/** A booking by id, strongly consistent, or null (none, or its slot is gone). */
export async function getBooking(id: string): Promise<StoredBooking | null> {
  const table = tableName('bookings');
  const pointer = await dynamo().send(new GetCommand({ TableName: table, Key: { pk: bookingKey(id), sk: POINTER }, ConsistentRead: true }));
  const where = pointerSchema.safeParse(pointer.Item);
  if (!where.success) return null;
  const slot = await dynamo().send(new GetCommand({ TableName: table, Key: { pk: unitKey(where.data.imei), sk: where.data.slot }, ConsistentRead: true }));
  const parsed = storedBookingSchema.safeParse(slot.Item);
  return parsed.success ? parsed.data : null;
}

/** The versions a write read, per vehicle it touches. */
export type SeenVersions = ReadonlyMap<string, number>;

function bumpVersion(table: string, imei: string, seen: number) {
  return {
    Update: {
      TableName: table,
      Key: { pk: unitKey(imei), sk: LOCK },
      UpdateExpression: 'SET #v = :next',
      ConditionExpression: seen === 0 ? 'attribute_not_exists(#v)' : '#v = :seen',
      ExpressionAttributeNames: { '#v': 'version' },
      ExpressionAttributeValues: seen === 0 ? { ':next': 1 } : { ':next': seen + 1, ':seen': seen },
    },
  };
}

function putSlot(table: string, booking: StoredBooking) {
  return {
    Put: {
      TableName: table,
      Item: { pk: unitKey(booking.imei), ...booking },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/**
 * Writes a new booking, or moves `previous` to `next` (same id), in one transaction conditional on
 * the versions read of every vehicle it touches (and, for a change, on the booking being where it
 * was read). Throws DynamoDB's TransactionCanceledException when any of that changed.
 */
export async function commitBooking(next: StoredBooking, seen: SeenVersions, previous: StoredBooking | null): Promise<void> {
  const table = tableName('bookings');
  const items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']> = [...seen].map(([imei, version]) => bumpVersion(table, imei, version));
  const pointer = { pk: bookingKey(next.id), sk: POINTER, imei: next.imei, slot: next.sk, accountId: next.accountId };
  if (!previous) {
    items.push(putSlot(table, next), { Put: { TableName: table, Item: pointer, ConditionExpression: 'attribute_not_exists(pk)' } });
  } else {
    if (previous.imei !== next.imei || previous.sk !== next.sk) {
      items.push({ Delete: { TableName: table, Key: { pk: unitKey(previous.imei), sk: previous.sk }, ConditionExpression: 'attribute_exists(pk)' } }, putSlot(table, next));
    } else {
      items.push({ Put: { TableName: table, Item: { pk: unitKey(next.imei), ...next }, ConditionExpression: 'attribute_exists(pk)' } });
    }
    items.push({ Put: { TableName: table, Item: pointer, ConditionExpression: 'slot = :slot', ExpressionAttributeValues: { ':slot': previous.sk } } });
  }
  await dynamo().send(new TransactWriteCommand({ TransactItems: items }));
}

/** Deletes a booking as read: its slot and its pointer, conditional on the pointer still naming that slot. */
export async function removeBooking(booking: StoredBooking): Promise<void> {
  const table = tableName('bookings');
  await dynamo().send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: table, Key: { pk: unitKey(booking.imei), sk: booking.sk }, ConditionExpression: 'attribute_exists(pk)' } },
        {
          Delete: {
            TableName: table,
            Key: { pk: bookingKey(booking.id), sk: POINTER },
            ConditionExpression: 'slot = :slot',
            ExpressionAttributeValues: { ':slot': booking.sk },
          },
        },
      ],
    }),
  );
}
