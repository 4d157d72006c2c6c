/**
 * Driver check-ins (table `driver-check-ins`: partition `imei`, sort `fromTs`): each says who
 * drives the unit from when, until the next one. The driver of a trip is the check-in in force at
 * its start: one Query, newest first, limited to one item, bounded below by the unit's
 * registration so an earlier owner's check-ins never count.
 *
 * The same table keeps the server secret of the QR check-in codes (`qr-code-secret.ts`) under a
 * partition key that is not an IMEI.
 */
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../platform/db';
import { registeredAtOf, type UnitItem } from '../domain/unit/schema';

export interface CheckInItem {
  imei: string;
  fromTs: number;
  accountId: string;
  driverId: string;
  /** Who checked the driver in, and how. */
  by: string;
  via: 'manual' | 'qr';
  createdAt: number;
}

type Unit = Pick<UnitItem, 'imei' | 'accountId' | 'createdAt'>;

function lowerBound(unit: Unit): number {
  const at = registeredAtOf(unit);
  return Number.isFinite(at) ? at : 0;
}

/** The check-in in force at `ts` (the latest at or before it), or null. */
export async function checkInAt(unit: Unit, ts: number): Promise<CheckInItem | null> {
  const from = lowerBound(unit);
  if (ts < from) return null;
  const out = await dynamo().send(
    new QueryCommand({
      TableName: tableName('driverCheckIns'),
      KeyConditionExpression: 'imei = :imei AND fromTs BETWEEN :from AND :ts',
      ExpressionAttributeValues: { ':imei': unit.imei, ':from': from, ':ts': ts },
      ScanIndexForward: false,
      Limit: 1,
    }),
  );
  const item = out.Items?.[0] as CheckInItem | undefined;
  return item && item.accountId === unit.accountId ? item : null;
}

/** The first check-in after `ts`, or null. */
export async function checkInAfter(unit: Unit, ts: number): Promise<CheckInItem | null> {
  const out = await dynamo().send(
    new QueryCommand({
      TableName: tableName('driverCheckIns'),
      KeyConditionExpression: 'imei = :imei AND fromTs > :ts',
      ExpressionAttributeValues: { ':imei': unit.imei, ':ts': Math.max(ts, lowerBound(unit) - 1) },
      ScanIndexForward: true,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  const item = out.Items?.[0] as CheckInItem | undefined;
  return item && item.accountId === unit.accountId ? item : null;
}

/** Records a check-in; a second one at the same instant replaces the first. */
export async function putCheckIn(item: CheckInItem): Promise<void> {
  await dynamo().send(new PutCommand({ TableName: tableName('driverCheckIns'), Item: item }));
}

/** The driver of a trip starting at `ts`: the check-in in force then, or none. */
export async function driverAt(unit: Unit, ts: number): Promise<string | undefined> {
  return (await checkInAt(unit, ts))?.driverId;
}
