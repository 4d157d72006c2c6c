/**
 * The nightly re-derivation of the day rollups (docs/decisions/0036-day-rollups.md): the last
 * REDERIVE_DAYS complete local days (ROLLUP_ZONE) of every unit that has a day item on them are put
 * on the unit-day-rollup queue again, whose consumer recomputes them from the trips. It heals what
 * a trip write left announced but not queued (a failure between the two), and a recomputation a
 * lost message never made. The units are found on the unit-days table's `byDay` index (one Query
 * per day, followed page by page), not by a Scan: every trip write creates its day's item first.
 */
import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { addDays, localDayOf } from '../../shared/local-time';
import { dynamo, tableName } from '../platform/db';
import type { Ports } from '../platform/ports';
import { ROLLUP_ZONE } from './unit-day-item';

/** Complete local days re-derived per run: yesterday and the two before it. */
export const REDERIVE_DAYS = 3;

export interface RederiveReport {
  days: string[];
  units: number;
}

/** The units (account and IMEI) with an item on a day. */
async function unitsOn(day: string): Promise<{ accountId: string; imei: string }[]> {
  const units: { accountId: string; imei: string }[] = [];
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('unitDays'),
        IndexName: 'byDay',
        KeyConditionExpression: '#day = :day',
        ExpressionAttributeNames: { '#day': 'day' },
        ExpressionAttributeValues: { ':day': day },
        ProjectionExpression: 'accountId, imei',
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      if (typeof item['accountId'] === 'string' && typeof item['imei'] === 'string') units.push({ accountId: item['accountId'], imei: item['imei'] });
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return units;
}

/** Queues the recomputation of the last REDERIVE_DAYS complete local days before `nowMs`, one message per unit. */
export async function rederiveUnitDays(nowMs: number, ports: Pick<Ports, 'queues'>): Promise<RederiveReport> {
  const today = localDayOf(nowMs, ROLLUP_ZONE);
  const days = Array.from({ length: REDERIVE_DAYS }, (_, i) => addDays(today, i - REDERIVE_DAYS));
  const byUnit = new Map<string, { accountId: string; imei: string; days: string[] }>();
  for (const day of days) {
    for (const unit of await unitsOn(day)) {
      const key = `${unit.accountId}|${unit.imei}`;
      const entry = byUnit.get(key) ?? { ...unit, days: [] };
      entry.days.push(day);
      byUnit.set(key, entry);
    }
  }
  for (const message of byUnit.values()) await ports.queues.send('unit-day-rollup', message);
  return { days, units: byUnit.size };
}
