/**
 * The units a caller may see, enforced here in the data layer (docs/architecture.md rule 1): the account
 * comes from the verified token, an ordinary user reaches only the units granted to them, and a unit
 * of another account or one not granted is answered exactly like one that does not exist.
 */
import { GetCommand, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { AuthContext } from '../platform/auth-context';
import { dynamo, tableName } from '../platform/db';
import { NotFoundError } from '../platform/errors';
import type { UnitItem } from './stored-shape';

type Caller = Pick<AuthContext, 'accountId' | 'unitImeis'>;

function mayUse(caller: Caller, unit: UnitItem | undefined): unit is UnitItem {
  if (!unit || unit.accountId !== caller.accountId) return false;
  return caller.unitImeis === undefined || caller.unitImeis.includes(unit.imei);
}

/** Every unit of the caller's account it may see, by IMEI (the index's sort key). */
export async function listUnits(caller: Caller): Promise<UnitItem[]> {
  const units: UnitItem[] = [];
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('units'),
        IndexName: 'byAccount',
        KeyConditionExpression: 'accountId = :a',
        ExpressionAttributeValues: { ':a': caller.accountId },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of (page.Items ?? []) as UnitItem[]) if (mayUse(caller, item)) units.push(item);
    start = page.LastEvaluatedKey;
  } while (start);
  return units;
}

/** One unit the caller may see; anything else is NotFound, so existence is never revealed. */
export async function getUnit(caller: Caller, imei: string): Promise<UnitItem> {
  // Checked before the read: a not-granted IMEI costs no database call.
  if (caller.unitImeis !== undefined && !caller.unitImeis.includes(imei)) throw new NotFoundError();
  const out = await dynamo().send(new GetCommand({ TableName: tableName('units'), Key: { imei } }));
  const unit = out.Item as UnitItem | undefined;
  if (!mayUse(caller, unit)) throw new NotFoundError();
  return unit;
}
