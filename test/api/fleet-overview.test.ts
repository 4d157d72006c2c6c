/**
 * The fleet overview (GET /api/v1/user/fleet-overview) end to end on the embedded runtime, every
 * figure proved against data made through the real paths: trackers publishing over MQTT (status
 * now, low-battery alarms raised by the event engine), trips stored as the ingest stage stores them
 * (storeDetectedTrips, which keeps the rollups), service intervals and attestations through the
 * API. Today and the week are the caller's (TimeZone header): a trip five minutes before local
 * midnight is yesterday's. An ordinary user counts only the units granted to them; another
 * account's units never count; every answer is checked against the route's schema.
 *
 * Trips lie in the last months: DynamoDB Local deletes items past their expiry.
 */
import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetOverviewSchema, type FleetOverview } from '../../shared/schemas/fleet-overview';
import { addMonthsToDay } from '../../shared/schemas/trips';
import { addDays, localDayOf, monthDays, startOfLocalDay } from '../../shared/local-time';
import { getUnitItem } from '../../functions/domain/unit/reads';
import type { UnitItem, UnitRecord } from '../../functions/domain/unit/schema';
import { nextState } from '../../functions/ingest/state';
import { getPorts } from '../../functions/platform/container';
import { dynamo, tableName } from '../../functions/platform/db';
import type { DetectedTrip } from '../../functions/trips/detect';
import { storeDetectedTrips } from '../../functions/trips/store-detected';
import { BACKFILL_MARKER, backfillTripRollups } from '../../functions/trips/rollup-backfill';
import { handler as backfillJob } from '../../functions/jobs/trip-rollup-backfill';
import { QUARTER_KEEP_DAYS } from '../../functions/trips/trip-rollups';
import { quarterOf } from '../../functions/trips/trip-rollup-reads';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { demoImei } from '../../infra/local/seed';
import { callAs, demoCallers, type Caller } from '../support/api-caller';
import { eventually } from '../support/eventually';
import { DEMO_REGISTERED_AT, testPosition } from '../support/positions';
import { startRuntime } from '../support/runtime';
import { callerFor } from '../support/api-caller';
import { createTestUser } from '../support/sessions';
import { storeUnitState } from '../support/unit-state';

const STOCKHOLM = 'Europe/Stockholm';
const NEW_YORK = 'America/New_York';
const MIN = 60_000;
const PATH = '/api/v1/user/fleet-overview';

let rt: EmbeddedRuntime;
let admin: Caller;
let user: Caller;
let other: Caller;
// The demo account's five units; the ordinary user is granted I0 and I1.
const [I0, I1, I2, I3, I4] = [0, 1, 2, 3, 4].map(demoImei) as [string, string, string, string, string];
const OTHER = demoImei(700);

const overview = (who: Caller | null, zone = STOCKHOLM, query = '') => callAs<FleetOverview>(rt.url, 'GET', `${PATH}${query}`, who, undefined, zone);

async function figures(who: Caller, zone = STOCKHOLM): Promise<FleetOverview> {
  const res = await overview(who, zone);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  // apiFetch has checked the answer against the route's schema; parsed here as well, strictly typed.
  return fleetOverviewSchema.parse(res.body.data);
}

const at = (day: string, hhmm: string, zone = STOCKHOLM) => {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return startOfLocalDay(day, zone) + h * 3_600_000 + m * MIN;
};

interface StoredTrip {
  imei: string;
  startTs: number;
  distanceM: number;
}
const stored: StoredTrip[] = [];

/** Stores a detected trip as the ingest stage does (which refreshes the unit's rollups). */
async function storeTrip(imei: string, startTs: number, distanceM: number): Promise<void> {
  const trip: DetectedTrip = {
    startTs,
    stopTs: startTs + 10 * MIN,
    startLat: 59.33,
    startLon: 18.06,
    stopLat: 59.4,
    stopLon: 17.95,
    distanceM,
    startCounterM: 0,
    stopCounterM: distanceM,
    counterSource: 'computed',
    maxSpeedKmh: 70,
    basis: 'ignition',
  };
  await storeDetectedTrips((await getUnitItem(imei)) as UnitItem, [trip], getPorts());
  stored.push({ imei, startTs, distanceM });
}

/** What the overview must answer for trips, worked out from the trips stored: by the local day of each start. */
function expectedTrips(units: readonly string[], zone: string, fromDay: string, toDay: string): { distance: number; trips: number } {
  const mine = stored.filter((t) => units.includes(t.imei) && localDayOf(t.startTs, zone) >= fromDay && localDayOf(t.startTs, zone) <= toDay);
  return { distance: Math.round(mine.reduce((sum, t) => sum + t.distanceM, 0)) / 1000, trips: mine.length };
}

/** Monday of the week of `day`. */
const mondayOf = (day: string) => addDays(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7));
/** The month `n` months before the current one in Stockholm (yyyy-MM). */
const monthsAgo = (n: number) => addMonthsToDay(`${localDayOf(Date.now(), STOCKHOLM).slice(0, 7)}-01`, -n).slice(0, 7);

async function publish(imei: string, record: Record<string, unknown>): Promise<void> {
  const tracker = await mqtt.connectAsync(rt.mqttUrl, { clientId: imei, reconnectPeriod: 0 });
  await tracker.publishAsync(`trackers/${imei}/telemetry`, JSON.stringify({ lat: 59.3326, lon: 18.0649, sat: 9, ...record }), { qos: 1 });
  await tracker.endAsync();
}

const putUnit = (imei: string, body: unknown, who: Caller) => callAs(rt.url, 'PUT', `/api/v1/user/units/${imei}`, who, body);
const dateInterval = (lastService: string) => ({ serviceIntervals: [{ name: 'Inspection', kind: 'date', every: 12, lastService }] });

let today: string;
/**
 * On the first of a month, the trip five minutes before local midnight lies in the month before:
 * one more unit (I0) with unattested trips there.
 */
const eveInLastMonth = () => (localDayOf(at(today, '00:00') - 5 * MIN, STOCKHOLM).startsWith(monthsAgo(1)) ? 1 : 0);

beforeAll(async () => {
  rt = await startRuntime();
  ({ admin, user, other } = await demoCallers());
  const unit: UnitRecord = { imei: OTHER, accountId: other.accountId, name: 'Other van', vehicleType: 'van', protocol: 'native', createdAt: DEMO_REGISTERED_AT.toISOString() };
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: unit }));

  const now = Date.now();
  today = localDayOf(now, STOCKHOLM);

  // Status now, over the ingest path: I0 moving with a low battery (an alarm), I4 standing with the
  // ignition on with a low battery (another alarm), I1 parked; I2 last heard three hours ago while
  // parked (offline), I3 never heard from (offline). The other account's unit moves, alarmed too.
  await Promise.all([
    publish(I0, { ts: now - 20_000, spd: 52, ign: true, bat: 3.2 }),
    publish(I1, { ts: now - 20_000, spd: 0, ign: false }),
    publish(I4, { ts: now - 20_000, spd: 0, ign: true, bat: 3.1 }),
    publish(OTHER, { ts: now - 20_000, spd: 80, ign: true, bat: 3.0 }),
  ]);
  const threeHoursAgo = now - 3 * 3_600_000;
  await storeUnitState(I2, nextState(undefined, testPosition(threeHoursAgo, 59.3, 18.0, { speed: 0, ignition: false }), threeHoursAgo));

  // Trips: five minutes before and after local midnight, the week so far, last week, another account.
  await storeTrip(I0, at(today, '00:00') - 5 * MIN, 5_000);
  await storeTrip(I0, at(today, '00:05'), 7_000);
  await storeTrip(I0, at(today, '00:20'), 1_500);
  await storeTrip(I3, at(today, '00:30'), 4_000);
  await storeTrip(I1, at(addDays(today, -2), '12:00'), 2_000);
  await storeTrip(I1, at(addDays(mondayOf(today), -1), '12:00'), 11_000);
  await storeTrip(OTHER, at(today, '00:40'), 100_000);
  // Past months for the attestation figure: I0 attested the whole of its trips two months ago, only
  // part of them three months ago (a gap between its trips); I1 and I3 nothing last month.
  const [last, twoAgo, threeAgo] = [monthsAgo(1), monthsAgo(2), monthsAgo(3)];
  await storeTrip(I0, at(`${twoAgo}-10`, '09:00'), 3_000);
  await storeTrip(I0, at(`${twoAgo}-12`, '09:00'), 3_000);
  await storeTrip(I0, at(`${threeAgo}-05`, '09:00'), 3_000);
  await storeTrip(I0, at(`${threeAgo}-20`, '09:00'), 3_000);
  await storeTrip(I1, at(`${last}-10`, '09:00'), 3_000);
  await storeTrip(I3, at(`${last}-11`, '09:00'), 3_000);
  await storeTrip(OTHER, at(`${last}-11`, '09:00'), 3_000);
  const attest = (from: string, to: string) => callAs(rt.url, 'POST', '/api/v1/user/trips/attest', user, { imei: I0, from, to });
  expect((await attest(`${twoAgo}-01`, monthDays(twoAgo).last)).status).toBe(200);
  expect((await attest(`${threeAgo}-01`, `${threeAgo}-10`)).status).toBe(200);

  // Service: I1 overdue, I3 due within the fortnight, I4 just serviced; the other account's overdue.
  expect((await putUnit(I1, dateInterval(addMonthsToDay(today, -24)), admin)).status).toBe(200);
  expect((await putUnit(I3, dateInterval(addDays(addMonthsToDay(today, -12), 5)), admin)).status).toBe(200);
  expect((await putUnit(I4, dateInterval(today), admin)).status).toBe(200);
  expect((await putUnit(OTHER, dateInterval(addMonthsToDay(today, -24)), other)).status).toBe(200);
}, 120_000);

afterAll(async () => {
  await rt?.stop();
});

describe('GET /api/v1/user/fleet-overview', () => {
  it("counts every unit of an admin's account by status now, as reported over MQTT", async () => {
    const data = await eventually(() => figures(admin), (d) => d.status!.moving === 1 && d.status!.idling === 1 && d.status!.parked === 1, 'the reported states');
    expect(data.units).toBe(5);
    expect(data.status).toEqual({ moving: 1, idling: 1, parked: 1, offline: 2 });
  });

  it("sums today's and this week's trips by the local day of their start; a trip before local midnight is yesterday's", async () => {
    const data = await figures(admin);
    expect(data.today).toEqual({ from: today, to: today, distance: 12.5, trips: 3 });
    const monday = mondayOf(today);
    expect(data.week).toEqual({ from: monday, to: today, ...expectedTrips([I0, I1, I2, I3, I4], STOCKHOLM, monday, today) });
    // Five minutes before midnight counts this week only when yesterday was in it; last week's trip never.
    expect(data.week!.trips).toBe(3 + (addDays(today, -1) >= monday ? 1 : 0) + (addDays(today, -2) >= monday ? 1 : 0));
  });

  it("reckons the day and the week in the caller's time zone", async () => {
    const nyToday = localDayOf(Date.now(), NEW_YORK);
    const data = await figures(admin, NEW_YORK);
    expect(data.today).toEqual({ from: nyToday, to: nyToday, ...expectedTrips([I0, I1, I2, I3, I4], NEW_YORK, nyToday, nyToday) });
    expect(data.week).toEqual({ from: mondayOf(nyToday), to: nyToday, ...expectedTrips([I0, I1, I2, I3, I4], NEW_YORK, mondayOf(nyToday), nyToday) });
    // Stockholm's first minutes of a day are still the day before in New York.
    expect(localDayOf(at(today, '00:05'), NEW_YORK)).toBe(addDays(today, -1));
    expect(data.generatedAt).toMatch(/-0[45]:00$/);
  });

  it('counts the alarms of the last 24 hours, the units needing service and the months with unattested trips', async () => {
    const data = await eventually(() => figures(admin), (d) => d.alarms!.count >= 2, 'the low-battery alarms');
    expect(data.alarms).toMatchObject({ count: 2, truncated: false });
    expect(Date.parse(data.alarms!.since)).toBeGreaterThan(Date.now() - 24 * 3_600_000 - 60_000);
    expect(data.service).toEqual({ units: 2, overdue: 1 });
    // Last month I1 and I3; three months ago I0, whose attestation leaves its later trip uncovered.
    expect(data.attestation).toEqual({ checked: 3, months: [{ month: monthsAgo(1), units: 2 + eveInLastMonth() }, { month: monthsAgo(3), units: 1 }] });
    const longer = await overview(admin, STOCKHOLM, '?attestMonths=1');
    expect(longer.body.data?.attestation).toEqual({ checked: 1, months: [{ month: monthsAgo(1), units: 2 + eveInLastMonth() }] });
  });

  it('counts for an ordinary user only the units granted to them', async () => {
    const data = await eventually(() => figures(user), (d) => d.alarms!.count >= 1 && d.status!.moving === 1, 'the granted units');
    expect(data.units).toBe(2);
    expect(data.status).toEqual({ moving: 1, idling: 0, parked: 1, offline: 0 });
    expect(data.today).toEqual({ from: today, to: today, distance: 8.5, trips: 2 });
    expect(data.week).toMatchObject(expectedTrips([I0, I1], STOCKHOLM, mondayOf(today), today));
    expect(data.alarms!.count).toBe(1);
    expect(data.service).toEqual({ units: 1, overdue: 1 });
    expect(data.attestation!.months).toEqual([{ month: monthsAgo(1), units: 1 + eveInLastMonth() }, { month: monthsAgo(3), units: 1 }]);
  });

  it("answers only the sections of what an ordinary user's feature profile allows", async () => {
    const profiles = '/api/v1/administration/feature-profiles';
    const created = await callAs<{ id: string }>(rt.url, 'POST', profiles, admin, { name: `Map only ${Date.now()}`, features: ['realtimeMap'] });
    expect(created.status).toBe(201);
    const id = created.body.data?.id ?? '';
    expect((await callAs(rt.url, 'PUT', `${profiles}/${id}/users`, admin, { userIds: [user.userId] })).status).toBe(200);
    try {
      // No trip log: no trips and no attestation; no alarms; the map's status and the service figure stay.
      const mapOnly = await figures(user);
      expect(mapOnly).toMatchObject({ units: 2, today: null, week: null, attestation: null, alarms: null, service: { units: 1, overdue: 1 } });
      expect(mapOnly.status).toEqual({ moving: 1, idling: 0, parked: 1, offline: 0 });
      expect((await callAs(rt.url, 'PUT', `${profiles}/${id}`, admin, { name: 'Trips only', features: ['tripLog'] })).status).toBe(200);
      const tripsOnly = await figures(user);
      expect(tripsOnly).toMatchObject({ status: null, alarms: null, today: { distance: 8.5, trips: 2 } });
      expect(tripsOnly.attestation?.months).toEqual([{ month: monthsAgo(1), units: 1 + eveInLastMonth() }, { month: monthsAgo(3), units: 1 }]);
      // An admin in the same profile is never limited.
      expect((await callAs(rt.url, 'PUT', `${profiles}/${id}/users`, admin, { userIds: [user.userId, admin.userId] })).status).toBe(200);
      const all = await figures(admin);
      expect([all.status, all.today, all.alarms, all.attestation].every((section) => section !== null)).toBe(true);
    } finally {
      expect((await callAs(rt.url, 'DELETE', `${profiles}/${id}`, admin)).status).toBe(200);
    }
    expect((await figures(user)).alarms).not.toBeNull();
  });

  it("never counts another account's units, and counts only its own for it", async () => {
    const data = await eventually(() => figures(other), (d) => d.alarms!.count >= 1 && d.status!.moving === 1, "the other account's unit");
    expect(data).toMatchObject({
      units: 1,
      status: { moving: 1, idling: 0, parked: 0, offline: 0 },
      today: { distance: 100, trips: 1 },
      alarms: { count: 1 },
      service: { units: 1, overdue: 1 },
      attestation: { checked: 3, months: [{ month: monthsAgo(1), units: 1 }] },
    });
    // And the demo account's figures hold none of it (100 km today, the third alarm, the moving van).
    const demo = await figures(admin);
    expect([demo.today!.distance, demo.alarms!.count, demo.status!.moving, demo.units]).toEqual([12.5, 2, 1, 5]);
  });

  it('answers 401 without a session and the validation keys for a bad query or time zone', async () => {
    expect(await overview(null)).toEqual({ status: 401, body: { message: 'Unauthenticated.' } });
    for (const months of ['0', '13', 'x', '1.5']) {
      const res = await overview(admin, STOCKHOLM, `?attestMonths=${months}`);
      expect([res.status, res.body.errors], months).toEqual([422, { attestMonths: ['InvalidAttestMonths'] }]);
    }
    const zone = await overview(admin, 'Mars/Olympus');
    expect([zone.status, zone.body.errors]).toEqual([422, { TimeZone: ['InvalidTimeZone'] }]);
  });
});

describe('the trip-rollup-backfill job', () => {
  /** The account's rollup items, in key order. */
  const rollups = async (accountId: string) =>
    (await dynamo().send(new QueryCommand({ TableName: tableName('tripRollups'), KeyConditionExpression: 'accountId = :a', ExpressionAttributeValues: { ':a': accountId }, ConsistentRead: true }))).Items ?? [];
  const marker = () => dynamo().send(new DeleteCommand({ TableName: tableName('tripRollups'), Key: BACKFILL_MARKER }));

  it('fills the rollups of trips stored before they existed, resumably in pages; a second run changes nothing', async () => {
    // An account whose trips were stored before the rollups: stored, then their rollups taken away.
    const legacy = await createTestUser();
    const owner = await callerFor(legacy.username, legacy.password);
    const imei = demoImei(701);
    const unit: UnitRecord = { imei, accountId: owner.accountId, name: 'Old van', vehicleType: 'van', protocol: 'native', createdAt: DEMO_REGISTERED_AT.toISOString() };
    await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: unit }));
    await storeTrip(imei, at(today, '00:10'), 6_000);
    await storeTrip(imei, at(today, '00:50'), 2_500);
    const monthAgo = at(`${monthsAgo(1)}-03`, '07:00');
    await storeTrip(imei, monthAgo, 9_000);
    const written = await rollups(owner.accountId);
    // What the trip writes keep, less what is already past its expiry (a quarter hour over 35 days
    // old; DynamoDB deletes it, and the backfill does not write it): the 3rd of last month's is
    // kept early in a month.
    const kept = written.filter((i) => Number(i['expiresAt']) > Date.now() / 1000);
    const monthAgoKept = quarterOf(monthAgo) + QUARTER_KEEP_DAYS * 86_400_000 > Date.now();
    expect(kept.map((i) => String(i['sk']).slice(0, 2)).sort()).toEqual(['m#', 'm#', 'q#', 'q#', ...(monthAgoKept ? ['q#'] : [])]);
    for (const item of written) await dynamo().send(new DeleteCommand({ TableName: tableName('tripRollups'), Key: { accountId: owner.accountId, sk: item['sk'] } }));
    const before = await figures(owner);
    expect([before.today!.trips, before.today!.distance, before.attestation!.months]).toEqual([0, 0, []]);

    // As if the table had just been deployed: no marker yet. Runs with no time left do one page
    // each (two trips a page here) and go on from the stored checkpoint.
    await marker();
    const runs = [];
    for (let run = 0; run < 200; run += 1) {
      const report = await backfillTripRollups(Date.now(), 0, 2);
      runs.push(report);
      if (report.done || report.alreadyDone) break;
    }
    expect(runs.length).toBeGreaterThan(1);
    expect(runs.slice(0, -1).every((r) => r.pages === 1 && !r.done)).toBe(true);
    expect(runs.at(-1)?.done || runs.at(-1)?.alreadyDone).toBe(true);

    const after = await figures(owner);
    expect(after.today).toMatchObject({ trips: 2, distance: 8.5 });
    expect(after.week!.trips).toBeGreaterThanOrEqual(2);
    expect(after.attestation!.months).toEqual([{ month: monthsAgo(1), units: 1 }]);
    const filled = await rollups(owner.accountId);
    // What it wrote is what the trip writes had kept (expiry included).
    expect(filled).toEqual(kept);

    // The job as scheduled: done, so it only reads the marker.
    expect(await backfillJob({ job: 'trip-rollup-backfill' })).toMatchObject({ alreadyDone: true, pages: 0 });
    // Run whole again from the start (the marker gone), twice at once: the same values.
    await marker();
    const again = await Promise.all([backfillJob({ job: 'trip-rollup-backfill' }), backfillJob({ job: 'trip-rollup-backfill' })]);
    expect(again.some((r) => r.done)).toBe(true);
    expect(await rollups(owner.accountId)).toEqual(kept);
    expect(await figures(owner)).toMatchObject({ today: after.today, attestation: after.attestation });
  });
});
