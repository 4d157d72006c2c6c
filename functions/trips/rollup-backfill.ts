/**
 * The backfill of what trip writes keep beside the trips, for trips stored before it was kept
 * (docs/decisions/0032-fleet-overview.md, docs/decisions/0036-day-rollups.md). The job
 * `trip-rollup-backfill` (infra/jobs.ts) walks the trips table in Scan pages (the one Scan of the
 * portal: every unit of every account, once per version) and, per unit of each page:
 *
 * 1. times the trips stored without `movingS`/`idleS` from their positions, where these still
 *    exist (trip-times.ts, the detector's own timing);
 * 2. recomputes the fleet overview's entries of the quarter hours and months its recent trips start
 *    in, with the very `refreshTripRollups` every trip write uses;
 * 3. recomputes the day rollups of the local days its trips start in (unit-days.ts), announcing
 *    each first as a trip write does, so that a recomputation racing it never writes older figures.
 *
 * Every step is a recomputation or a conditional fill, so a page done twice (a run cut short before
 * its checkpoint, two runs at once) changes nothing.
 *
 * Its state is one item of the trip-rollups table per version of the work, under a partition no
 * account has: the Scan's checkpoint (the last key of the last page done) while under way, `doneAt`
 * once the Scan has ended. Each run goes on from the checkpoint for a bounded time and stops after
 * the page it is on; a run after `doneAt` reads the marker and does nothing. A deployment that
 * finished an older version's marker runs the current version once more, from the start.
 */
import { GetCommand, ScanCommand, UpdateCommand, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { localDayOf, startOfLocalDay } from '../../shared/local-time';
import { FLEET_ATTEST_MONTHS_MAX, FLEET_MONTH_ZONE } from '../../shared/schemas/fleet-overview';
import { addMonthsToDay } from '../../shared/schemas/trips';
import { isConditionFailure } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import { getUnitItems } from '../domain/unit/reads';
import { DEFAULT_TRIP_SETTINGS, tripSettingsOf, type TripSettings } from './detect';
import { tripItemSchema, type TripItem } from './trip-item';
import { logger } from '../platform/logger';
import { fillTripTimes, isUntimed } from './trip-times';
import { QUARTER_KEEP_DAYS, refreshTripRollups } from './trip-rollups';
import { bumpUnitDays, recomputeUnitDaysAndMonths, rollupDaysOf } from './unit-days';

/**
 * The version of the work: 1 filled the trip rollups; 2 also times untimed trips and builds the
 * day rollups; 3 also their month items; 4 writes the trip rollups again in items split by unit
 * (trip-rollup-reads.ts), which the fleet overview reads instead of the earlier ones. Raising it
 * runs the backfill once more on every deployment.
 */
export const BACKFILL_VERSION = 4;
/** The marker's key: a partition no account has (account ids are UUIDs), an item per version. */
export const BACKFILL_MARKER = { accountId: '#migrations', sk: `trip-rollups-backfill#v${BACKFILL_VERSION}` } as const;
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
  /** Trips timed from their positions. */
  timed: number;
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

/** The earliest trip start the fleet overview's rollups still matter for: the first day of the oldest month the overview may check. */
export function backfillSince(nowMs: number): number {
  const thisMonth = `${localDayOf(nowMs, FLEET_MONTH_ZONE).slice(0, 7)}-01`;
  return startOfLocalDay(addMonthsToDay(thisMonth, -FLEET_ATTEST_MONTHS_MAX), FLEET_MONTH_ZONE);
}

async function inBatches<T>(items: readonly T[], size: number, fn: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

interface PageUnit {
  accountId: string;
  imei: string;
  trips: TripItem[];
}

/** The detection settings of the page's units, as they are now (defaults for a unit gone or of another account). */
async function settingsOf(units: readonly PageUnit[]): Promise<Map<string, TripSettings>> {
  const items = await getUnitItems([...new Set(units.map((u) => u.imei))]);
  const settings = new Map<string, TripSettings>();
  for (const u of units) {
    const item = items.get(u.imei);
    settings.set(`${u.accountId}|${u.imei}`, item && !(item instanceof Error) && item.accountId === u.accountId ? tripSettingsOf(item) : DEFAULT_TRIP_SETTINGS);
  }
  return settings;
}

/** One unit's part of a page: its untimed trips timed, then its fleet overview rollups and its day rollups recomputed. */
async function backfillUnit(unit: PageUnit, settings: TripSettings, since: number, quartersFrom: number): Promise<number> {
  let timed = 0;
  for (const trip of unit.trips) if (isUntimed(trip) && (await fillTripTimes(trip, settings))) timed++;
  const starts = unit.trips.map((t) => t.startTs);
  const recent = starts.filter((ts) => ts >= since);
  if (recent.length) await refreshTripRollups(unit.accountId, unit.imei, recent, { quartersFrom });
  const days = rollupDaysOf(starts);
  await bumpUnitDays(unit.accountId, unit.imei, days);
  await recomputeUnitDaysAndMonths(unit.accountId, unit.imei, days);
  return timed;
}

/**
 * Goes on with the backfill from its checkpoint until the Scan ends or `deadlineMs` has passed
 * (checked after each page, so a run does at least one); `nowMs` decides which trips' fleet
 * overview rollups still matter.
 */
export async function backfillTripRollups(nowMs: number, deadlineMs: number, pageItems = PAGE_ITEMS): Promise<BackfillReport> {
  const marker = await readMarker();
  const report: BackfillReport = { alreadyDone: marker.doneAt !== undefined, done: false, pages: 0, trips: 0, units: 0, timed: 0 };
  if (report.alreadyDone) return report;
  const since = backfillSince(nowMs);
  const quartersFrom = nowMs - QUARTER_KEEP_DAYS * 86_400_000;
  let cursor = marker.cursor;
  do {
    const page: ScanCommandOutput = await dynamo().send(new ScanCommand({ TableName: tableName('trips'), Limit: pageItems, ExclusiveStartKey: cursor }));
    const byUnit = new Map<string, PageUnit>();
    for (const item of page.Items ?? []) {
      const parsed = tripItemSchema.safeParse(item);
      if (!parsed.success) {
        logger.warn('backfill: a trip item that does not parse is left out', { imei: String(item['imei']), startTs: Number(item['startTs']) });
        continue;
      }
      const trip = parsed.data;
      const key = `${trip.accountId}|${trip.imei}`;
      const unit = byUnit.get(key) ?? { accountId: trip.accountId, imei: trip.imei, trips: [] };
      unit.trips.push(trip);
      byUnit.set(key, unit);
    }
    const units = [...byUnit.values()];
    const settings = units.length ? await settingsOf(units) : new Map<string, TripSettings>();
    await inBatches(units, UNITS_AT_ONCE, async (u) => {
      report.timed += await backfillUnit(u, settings.get(`${u.accountId}|${u.imei}`) ?? DEFAULT_TRIP_SETTINGS, since, quartersFrom);
    });
    report.pages += 1;
    report.trips += page.Items?.length ?? 0;
    report.units += byUnit.size;
    cursor = page.LastEvaluatedKey;
    if (!(await writeMarker(cursor, nowMs))) return report;
  } while (cursor && Date.now() < deadlineMs);
  report.done = cursor === undefined;
  return report;
}
