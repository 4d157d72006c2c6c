/**
 * The other writes to the `units` item: its creation by registration, the driver set by a
 * check-in, and the departments and tags it carries.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from '../../platform/conditions';
import { dynamo, tableName } from '../../platform/db';
import type { UnitRecord } from '../unit/schema';
import { parseUnitItem } from './schema';

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
