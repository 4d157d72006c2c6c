/**
 * The one-off backfill of the trip rollups (docs/decisions/0032-fleet-overview.md): trips stored
 * before the trip-rollups table existed have no entries there, so the fleet overview would count
 * none of them. The job `trip-rollup-backfill` (infra/jobs.ts) walks the trips table in Scan pages
 * (the one Scan of the portal: every unit of every account, once) and recomputes, per unit of each
 * page, the entries of the quarter hours and months its trips start in, with the very
 * `refreshTripRollups` every trip write uses. A recomputation writes the same value however often
 * it runs, so a page done twice (a run cut short before its checkpoint, two runs at once) changes
 * nothing.
 *
 * Its state is one item of the trip-rollups table, under a partition no account has: the Scan's
 * checkpoint (the last key of the last page done) while under way, `doneAt` once the Scan has
 * ended. Each run goes on from the checkpoint for a bounded time and stops after the page it is
 * on; a run after `doneAt` reads the marker and does nothing.
 */
import { GetCommand, ScanCommand, UpdateCommand, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { localDayOf, startOfLocalDay } from '../../shared/local-time';
import { FLEET_ATTEST_MONTHS_MAX, FLEET_MONTH_ZONE } from '../../shared/schemas/fleet-overview';
import { addMonthsToDay } from '../../shared/schemas/trips';
import { isConditionFailure } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import { QUARTER_KEEP_DAYS, refreshTripRollups } from './trip-rollups';

/** The marker's key: a partition no account has (account ids are UUIDs). */
export const BACKFILL_MARKER = { accountId: '#migrations', sk: 'trip-rollups-backfill' } as const;
/** Trips read per Scan page. */
const PAGE_ITEMS = 500;
/** Units refreshed at once within a page. */
const UNITS_AT_ONCE = 8;

export interface BackfillReport {
  /** The backfill had finished before this run. */
  alreadyDone: boolean;
  /** It finished in this run. */
  done: boolean;
  pages: number;
  trips: number;
  units: number;
}

interface Marker {
  doneAt?: number;
  cursor?: Record<string, unknown>;
}

async function readMarker(): Promise<Marker> {
  const res = await dynamo().send(new GetCommand({ TableName: tableName('tripRollups'), Key: BACKFILL_MARKER, ConsistentRead: true }));
  return (res.Item ?? {}) as Marker;
}

/**
 * Stores the checkpoint, or `doneAt` when `cursor` is undefined; false when the backfill is
 * already done (a run beside this one finished it), so this one stops too.
 */
async function writeMarker(cursor: Record<string, unknown> | undefined, nowMs: number): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('tripRollups'),
        Key: BACKFILL_MARKER,
        UpdateExpression: cursor ? 'SET #c = :c, updatedAt = :now' : 'SET doneAt = :now, updatedAt = :now REMOVE #c',
        ConditionExpression: 'attribute_not_exists(doneAt)',
        ExpressionAttributeNames: { '#c': 'cursor' },
        ExpressionAttributeValues: { ':now': nowMs, ...(cursor ? { ':c': cursor } : {}) },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** The earliest trip start any rollup still matters for: the first day of the oldest month the overview may check. */
export function backfillSince(nowMs: number): number {
  const thisMonth = `${localDayOf(nowMs, FLEET_MONTH_ZONE).slice(0, 7)}-01`;
  return startOfLocalDay(addMonthsToDay(thisMonth, -FLEET_ATTEST_MONTHS_MAX), FLEET_MONTH_ZONE);
}

async function inBatches<T>(items: readonly T[], size: number, fn: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

/**
 * Goes on with the backfill from its checkpoint until the Scan ends or `deadlineMs` has passed
 * (checked after each page, so a run does at least one); `nowMs` decides which trips still matter.
 */
export async function backfillTripRollups(nowMs: number, deadlineMs: number, pageItems = PAGE_ITEMS): Promise<BackfillReport> {
  const marker = await readMarker();
  const report: BackfillReport = { alreadyDone: marker.doneAt !== undefined, done: false, pages: 0, trips: 0, units: 0 };
  if (report.alreadyDone) return report;
  const since = backfillSince(nowMs);
  const quartersFrom = nowMs - QUARTER_KEEP_DAYS * 86_400_000;
  let cursor = marker.cursor;
  do {
    const page: ScanCommandOutput = await dynamo().send(
      new ScanCommand({
        TableName: tableName('trips'),
        ProjectionExpression: 'imei, startTs, accountId',
        FilterExpression: 'startTs >= :since',
        ExpressionAttributeValues: { ':since': since },
        Limit: pageItems,
        ExclusiveStartKey: cursor,
      }),
    );
    const byUnit = new Map<string, { accountId: string; imei: string; starts: number[] }>();
    for (const item of page.Items ?? []) {
      const accountId = String(item['accountId'] ?? '');
      const imei = String(item['imei']);
      if (!accountId) continue;
      const key = `${accountId}|${imei}`;
      const unit = byUnit.get(key) ?? { accountId, imei, starts: [] };
      unit.starts.push(Number(item['startTs']));
      byUnit.set(key, unit);
    }
    await inBatches([...byUnit.values()], UNITS_AT_ONCE, (u) => refreshTripRollups(u.accountId, u.imei, u.starts, { quartersFrom }));
    report.pages += 1;
    report.trips += page.Items?.length ?? 0;
    report.units += byUnit.size;
    cursor = page.LastEvaluatedKey;
    if (!(await writeMarker(cursor, nowMs))) return report;
  } while (cursor && Date.now() < deadlineMs);
  report.done = cursor === undefined;
  return report;
}
