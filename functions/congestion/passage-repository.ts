/**
 * The passages table: per unit of an account (`pk` = `<accountId>#<imei>`, an IMEI outlives a
 * registration) one item per congestion tax passage, sorted by time (`sk` = the passage's ISO time,
 * `#`, the station id). Written by the passage stage at ingest (passage-stage.ts), read by the
 * congestion report (functions/reports/kinds/congestion.ts) one Query per unit and period.
 */
import { DeleteCommand, PutCommand, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { CongestionCity } from '../../shared/congestion/control-points';
import type { Passage } from '../../shared/congestion/passages';
import { forEachLimit } from '../ingest/batch-write';
import { isConditionFailure } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';

/** A stored passage: the detected one with where on the step it crossed. */
export interface StoredPassage extends Passage {
  /** Where the step crossed the line, interpolated between its fixes. */
  lat?: number | undefined;
  lon?: number | undefined;
}

export const passagePk = (accountId: string, imei: string) => `${accountId}#${imei}`;
export const passageSk = (p: Pick<Passage, 'time' | 'stationId'>) => `${new Date(p.time).toISOString()}#${p.stationId}`;
const skBound = (ms: number) => new Date(ms).toISOString();

function toItem(accountId: string, imei: string, p: StoredPassage): Record<string, unknown> {
  return {
    pk: passagePk(accountId, imei),
    sk: passageSk(p),
    accountId,
    imei,
    ts: p.time,
    stationId: p.stationId,
    city: p.city,
    station: p.station,
    direction: p.direction,
    uncertain: p.uncertain,
    ...(p.essingeleden ? { essingeleden: true } : {}),
    ...(p.backa ? { backa: p.backa } : {}),
    ...(p.lat !== undefined && p.lon !== undefined ? { lat: p.lat, lon: p.lon } : {}),
  };
}

function fromItem(item: Record<string, unknown>): StoredPassage {
  const p: StoredPassage = {
    stationId: String(item['stationId']),
    city: item['city'] as CongestionCity,
    station: String(item['station']),
    direction: item['direction'] === 'out' ? 'out' : 'in',
    time: Number(item['ts']),
    uncertain: item['uncertain'] === true,
  };
  if (item['essingeleden'] === true) p.essingeleden = true;
  if (item['backa'] === 'station' || item['backa'] === 'control') p.backa = item['backa'];
  if (typeof item['lat'] === 'number' && typeof item['lon'] === 'number') {
    p.lat = item['lat'];
    p.lon = item['lon'];
  }
  return p;
}

/** Stores a passage once: a passage already stored (a redelivered batch, a retried effect) is left as it is. True when new. */
export async function putPassage(accountId: string, imei: string, p: StoredPassage): Promise<boolean> {
  try {
    await dynamo().send(new PutCommand({ TableName: tableName('passages'), Item: toItem(accountId, imei, p), ConditionExpression: 'attribute_not_exists(sk)' }));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** A unit's passages with times in [fromMs, toMs], oldest first: one Query, followed page by page. */
export async function unitPassages(accountId: string, imei: string, fromMs: number, toMs: number, options: { consistent?: boolean } = {}): Promise<StoredPassage[]> {
  const out: StoredPassage[] = [];
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('passages'),
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        // '~' sorts after '#' and every station id: the last millisecond's passages are in.
        ExpressionAttributeValues: { ':pk': passagePk(accountId, imei), ':from': skBound(fromMs), ':to': `${skBound(toMs)}~` },
        ConsistentRead: options.consistent === true,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) out.push(fromItem(item));
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}

/** The unit's last passage before `beforeMs`, or null. */
export async function lastPassageBefore(accountId: string, imei: string, beforeMs: number): Promise<StoredPassage | null> {
  const page = await dynamo().send(
    new QueryCommand({
      TableName: tableName('passages'),
      KeyConditionExpression: 'pk = :pk AND sk < :before',
      ExpressionAttributeValues: { ':pk': passagePk(accountId, imei), ':before': skBound(beforeMs) },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  const item = page.Items?.[0];
  return item ? fromItem(item) : null;
}

/** Deletes stored passages a re-detected window no longer finds (few: a late window's). */
export async function deletePassages(accountId: string, imei: string, passages: readonly Pick<Passage, 'time' | 'stationId'>[]): Promise<void> {
  const pk = passagePk(accountId, imei);
  await forEachLimit(passages, 8, async (p) => {
    await dynamo().send(new DeleteCommand({ TableName: tableName('passages'), Key: { pk, sk: passageSk(p) } }));
  });
}
