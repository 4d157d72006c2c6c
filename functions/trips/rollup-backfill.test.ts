/**
 * The backfill (version 2) and the nightly re-derivation against DynamoDB Local: trips stored before
 * they were timed get the detector's own times from their positions (a merged trip the sum of its
 * parts', each part its own), trips without positions stay untimed and are counted as such, every
 * unit's day rollups are built, the marker makes a second run one read, and an older version's
 * done marker does not stop it. The nightly job queues the last complete days of the units that
 * have them, and their recomputation makes good what a lost message left.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { imeiFrom } from '../../shared/validators/imei';
import { addDays, localDayOf } from '../../shared/local-time';
import type { LocalQueues } from '../../infra/local/queues';
import { useLocalTables } from '../../test/support/local-tables';
import { testPosition } from '../../test/support/positions';
import { useWorkQueues } from '../../test/support/work-queues';
import { storePosition } from '../ingest/repository';
import type { Position } from '../ingest/types';
import { getPorts } from '../platform/container';
import { dynamo, tableName } from '../platform/db';
import { DEFAULT_TRIP_SETTINGS, detectWindow, type DetectedTrip } from './detect';
import { BACKFILL_MARKER, backfillTripRollups } from './rollup-backfill';
import { partOf, type TripItem } from './trip-item';
import { getTrip } from './trip-repository';
import { ROLLUP_ZONE } from './unit-day-item';
import { readUnitDays } from './unit-day-reads';
import { rederiveUnitDays } from './unit-day-rederive';
import { tripsChanged } from './unit-days';

const ACCOUNT = `acc-${randomUUID()}`;
let serial = 0;
const nextImei = () => imeiFrom(`35693812${String(700000 + serial++).padStart(6, '0')}`);
const MIN = 60_000;
/** 08:00 Stockholm time, three days ago. */
const T0 = Math.floor((Date.now() - 3 * 86_400_000) / 86_400_000) * 86_400_000 + 6 * 3_600_000;

/** Ignition on, a drive north with a red light of two minutes in its middle, a fix every 30 s, then the ignition off. */
function drive(fromTs: number, lat: number): Position[] {
  const out: Position[] = [];
  for (let i = 0; i <= 40; i++) {
    const waiting = i >= 20 && i < 24;
    out.push(testPosition(fromTs + i * 30_000, lat + Math.min(i, 20) * 0.003 + Math.max(0, i - 24) * 0.003, 18, { ignition: true, movement: !waiting, speed: waiting ? 0 : 45 }));
  }
  const last = out[out.length - 1] as Position;
  out.push(testPosition(last.ts + 30_000, last.lat, last.lon, { ignition: false, movement: false, speed: 0 }));
  return out;
}

/** The stored item of a detected trip as an older version stored it: without its times. */
function untimed(imei: string, d: DetectedTrip, fields: Partial<TripItem> = {}): TripItem {
  const { movingS: _m, idleS: _i, ...rest } = d;
  return { ...rest, imei, accountId: ACCOUNT, type: 'business', v: 0, ...fields };
}

const put = (t: TripItem) => dynamo().send(new PutCommand({ TableName: tableName('trips'), Item: t }));

let queues: LocalQueues;
beforeAll(async () => {
  await useLocalTables();
  queues = await useWorkQueues(['unit-day-rollup']);
});

describe('the backfill, version 2', () => {
  it('times the untimed trips from their positions, builds every day rollup, and then only reads its marker', async () => {
    const imei = nextImei();
    const positions = [...drive(T0, 59.3), ...drive(T0 + 60 * MIN, 59.5), ...drive(T0 + 120 * MIN, 59.7)];
    for (const p of positions) await storePosition(imei, p, p.ts, 3650);
    const detected = detectWindow(positions, DEFAULT_TRIP_SETTINGS);
    expect(detected).toHaveLength(3);
    const [a, b, c] = detected as [DetectedTrip, DetectedTrip, DetectedTrip];
    expect(a.idleS).toBeGreaterThan(0);
    // A merged trip of the first two, as a merge stores it, and the third; one more trip without positions, the next day.
    const first = untimed(imei, a);
    const second = untimed(imei, b);
    await put({ ...first, stopTs: b.stopTs, distanceM: a.distanceM + b.distanceM, stopCounterM: b.stopCounterM, joined: [partOf(first), partOf(second)], v: 1 });
    await put(untimed(imei, c));
    const lost = untimed(imei, { ...c, startTs: c.startTs + 86_400_000, stopTs: c.stopTs + 86_400_000 });
    await put(lost);
    // As if a version 1 backfill had finished here.
    await dynamo().send(new PutCommand({ TableName: tableName('tripRollups'), Item: { accountId: '#migrations', sk: 'trip-rollups-backfill', doneAt: 1 } }));

    const runs = [];
    for (let run = 0; run < 50; run++) {
      const report = await backfillTripRollups(Date.now(), 0, 2);
      runs.push(report);
      if (report.done || report.alreadyDone) break;
    }
    expect(runs.at(-1)).toMatchObject({ done: true });
    expect(runs.reduce((sum, r) => sum + r.timed, 0)).toBe(2);

    const merged = (await getTrip(imei, a.startTs)) as TripItem;
    expect([merged.movingS, merged.idleS]).toEqual([a.movingS! + b.movingS!, a.idleS! + b.idleS!]);
    expect(merged.joined?.map((p) => [p.movingS, p.idleS])).toEqual([
      [a.movingS, a.idleS],
      [b.movingS, b.idleS],
    ]);
    expect(merged.v).toBe(1);
    expect(await getTrip(imei, c.startTs)).toMatchObject({ movingS: c.movingS, idleS: c.idleS, v: 0 });
    expect((await getTrip(imei, lost.startTs))?.movingS).toBeUndefined();

    const day = localDayOf(a.startTs, ROLLUP_ZONE);
    const days = await readUnitDays(ACCOUNT, imei, day, addDays(day, 1));
    expect(days).toMatchObject([
      { day, trips: 2, distanceM: a.distanceM + b.distanceM + c.distanceM, movingS: a.movingS! + b.movingS! + c.movingS!, idleS: a.idleS! + b.idleS! + c.idleS!, figuresMissing: 0 },
      { day: addDays(day, 1), trips: 1, movingS: 0, idleS: 0, figuresMissing: 1 },
    ]);

    expect(await backfillTripRollups(Date.now(), Date.now() + 10_000)).toMatchObject({ alreadyDone: true, pages: 0 });
    await dynamo().send(new DeleteCommand({ TableName: tableName('tripRollups'), Key: BACKFILL_MARKER }));
  });
});

describe('the nightly re-derivation', () => {
  it('queues the last three complete days of the units that have them, and their recomputation makes good a lost message', async () => {
    const imei = nextImei();
    const now = Date.now();
    const today = localDayOf(now, ROLLUP_ZONE);
    const dayMs = (days: number) => now - days * 86_400_000;
    const trips: TripItem[] = [1, 3, 4].map((back) => ({
      imei, startTs: dayMs(back), accountId: ACCOUNT, stopTs: dayMs(back) + 10 * MIN, startLat: 59, startLon: 18, stopLat: 59.1, stopLon: 18,
      distanceM: 5_000, startCounterM: 0, stopCounterM: 5_000, counterSource: 'computed', type: 'business', movingS: 500, idleS: 10, v: 0,
    }));
    for (const t of trips) await put(t);
    // The trips were announced, but their messages were lost.
    const lost = { queues: { send: async () => undefined } };
    await tripsChanged(lost, ACCOUNT, imei, trips.map((t) => t.startTs));
    expect(await readUnitDays(ACCOUNT, imei, addDays(today, -5), today)).toEqual([]);

    const report = await rederiveUnitDays(now, getPorts());
    expect(report.days).toEqual([addDays(today, -3), addDays(today, -2), addDays(today, -1)]);
    await queues.drained();
    const rebuilt = await readUnitDays(ACCOUNT, imei, addDays(today, -5), today);
    // Four days back is older than the three it re-derives.
    expect(rebuilt.map((d) => d.day)).toEqual([localDayOf(dayMs(3), ROLLUP_ZONE), localDayOf(dayMs(1), ROLLUP_ZONE)]);
    expect(rebuilt.every((d) => d.trips === 1 && d.distanceM === 5_000)).toBe(true);
  });
});
