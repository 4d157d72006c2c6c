/** Reads of the `units` item (with its `unit-copies` beside it), each parsed by the item's schema. */
import { BatchGetCommand, GetCommand, type BatchGetCommandOutput, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { IMEI_PATTERN } from '../../../shared/validators/imei';
import { dynamo, tableName } from '../../platform/db';
import { queryAll } from '../../platform/queries';
import { CorruptUnitItemError, parseUnitItem, projectionOf, WHOLE_UNIT, type UnitItem, type UnitItemRead } from './schema';

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
  const items = await queryAll(
    (start) =>
      new QueryCommand({
        TableName: tableName('units'),
        IndexName: 'byAccount',
        KeyConditionExpression: 'accountId = :a',
        ExpressionAttributeValues: { ':a': accountId },
        ExclusiveStartKey: start,
      }),
  );
  return items.map(parseUnitItem);
}

/**
 * Every unit of an account as `read` projects it, from the `byAccountName` index: it keeps only
 * the list's fields (shared/tables.ts UNIT_LIST_FIELDS), so reading it for every unit of a large
 * account costs a fraction of the whole items. `read` may ask only for what that index keeps.
 */
export async function listAccountUnitsFromNameIndex<T>(accountId: string, read: UnitItemRead<T> & { attributes: readonly string[] }): Promise<T[]> {
  const items = await queryAll(
    (start) =>
      new QueryCommand({
        TableName: tableName('units'),
        IndexName: 'byAccountName',
        KeyConditionExpression: 'accountId = :a',
        ExpressionAttributeValues: { ':a': accountId },
        ...projectionOf(read),
        ExclusiveStartKey: start,
      }),
  );
  return items.map(read.parse);
}

/**
 * At most `limit` units of an account after the IMEI `after` (and up to `until`, inclusive, when
 * given), in IMEI order (the byAccount index's sort key), read with Query pages of that account
 * alone; `more` tells whether any follow. One unit
 * more than asked is read, so that a page ending exactly at the last unit says so.
 */
export async function queryAccountUnitsPage<T = UnitItem>(
  accountId: string,
  after: string | undefined,
  limit: number,
  until?: string,
  read: UnitItemRead<T> = WHOLE_UNIT as unknown as UnitItemRead<T>,
): Promise<{ items: T[]; more: boolean }> {
  const raw: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined = after ? { accountId, imei: after } : undefined;
  const projection = projectionOf(read);
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('units'),
        IndexName: 'byAccount',
        KeyConditionExpression: until === undefined ? 'accountId = :a' : 'accountId = :a AND imei <= :u',
        ExpressionAttributeValues: { ':a': accountId, ...(until === undefined ? {} : { ':u': until }) },
        ...projection,
        Limit: limit + 1 - raw.length,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    raw.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start && raw.length <= limit);
  return { items: raw.slice(0, limit).map(read.parse), more: raw.length > limit };
}

/** The greatest IMEI of the account's units (one key read from the end of `byAccount`), or null without units. */
export async function lastAccountImei(accountId: string): Promise<string | null> {
  const page = await dynamo().send(
    new QueryCommand({
      TableName: tableName('units'),
      IndexName: 'byAccount',
      KeyConditionExpression: 'accountId = :a',
      ExpressionAttributeValues: { ':a': accountId },
      ProjectionExpression: 'imei',
      ScanIndexForward: false,
      Limit: 1,
    }),
  );
  const imei = page.Items?.[0]?.['imei'];
  return typeof imei === 'string' ? imei : null;
}

/**
 * The units items of these IMEIs (without their copies), eventually consistent, 100 keys per call
 * and a few calls at once; an IMEI without an item is left out.
 */
export async function getUnitItemsByImei<T extends { imei: string } = UnitItem>(imeis: readonly string[], how: UnitItemRead<T> = WHOLE_UNIT as unknown as UnitItemRead<T>): Promise<T[]> {
  const table = tableName('units');
  const valid = [...new Set(imeis)].filter((imei) => IMEI_PATTERN.test(imei));
  const chunks: string[][] = [];
  for (let i = 0; i < valid.length; i += 100) chunks.push(valid.slice(i, i + 100));
  const found = new Map<string, T>();
  const projection = projectionOf(how);
  const read = async (chunk: string[]) => {
    let keys: Record<string, unknown>[] = chunk.map((imei) => ({ imei }));
    for (let attempt = 0; keys.length; attempt++) {
      if (attempt > 8) throw new Error('units: keys left unprocessed after retries');
      if (attempt) await new Promise((r) => setTimeout(r, Math.random() * Math.min(20 * 2 ** attempt, 1000)));
      const out: BatchGetCommandOutput = await dynamo().send(new BatchGetCommand({ RequestItems: { [table]: { Keys: keys, ...projection } } }));
      for (const item of out.Responses?.[table] ?? []) found.set(String(item['imei']), how.parse(item));
      keys = out.UnprocessedKeys?.[table]?.Keys ?? [];
    }
  };
  for (let i = 0; i < chunks.length; i += 4) await Promise.all(chunks.slice(i, i + 4).map(read));
  return valid.flatMap((imei) => found.get(imei) ?? []);
}
