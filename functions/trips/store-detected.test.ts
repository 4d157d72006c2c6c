/**
 * Storing detected trips and re-detecting them after late data, against DynamoDB Local with the
 * real detector: new trips get type, driver, addresses and expiry; a redelivery changes nothing;
 * user edits are never overwritten and are carried to the re-detected trip that overlaps most;
 * attested trips are never changed; a geocoder failure never loses a trip.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { imeiFrom } from '../../shared/validators/imei';
import { useLocalTables } from '../../test/support/local-tables';
import { useWorkQueues } from '../../test/support/work-queues';
import type { LocalQueues } from '../../infra/local/queues';
import { testPosition } from '../../test/support/positions';
import { storePosition } from '../ingest/repository';
import type { Position } from '../ingest/types';
import { getPorts, overridePorts } from '../platform/container';
import { dynamo, tableName } from '../platform/db';
import type { Address } from '../platform/ports';
import { getUnitItem } from '../domain/unit/reads';
import { forgetSubscribers } from '../webhooks/emit';
import type { DeliveryMessage } from '../webhooks/delivery-message';
import type { UnitItem } from '../domain/unit/schema';
import { putCheckIn } from './check-in-repository';
import { detectWindow, tripSettingsOf, type DetectedTrip } from './detect';
import { rebaseCounters, redetectTrips, storeDetectedTrips } from './store-detected';
import { toTrip, type TripItem } from './trip-item';
import { withAddresses } from './trip-addresses';
import { getTrip, lockTrip, unitTrips, updateTripFields } from './trip-repository';
import { readUnitDays } from './unit-day-reads';
import { ROLLUP_ZONE } from './unit-day-item';
import { localDayOf } from '../../shared/local-time';

const ACCOUNT = `acc-${randomUUID()}`;
/** Long: DynamoDB Local deletes expired items, and these tests store history at fixed dates. */
const RETENTION_DAYS = 3650;
const MIN = 60_000;
let serial = 0;
const nextImei = () => imeiFrom(`35693809${String(400000 + serial++).padStart(6, '0')}`);

const now = Date.parse('2025-06-02T12:00:00.000Z');
let geocoderFails = false;
let geocoderCalls = 0;
/** Where the geocoder knows no address (its answer is null): latitudes from this one up to one degree north. */
const nowhereLat = 61.5;
/** Whether the geocoder holds each answer until released (a slow geocoder). */
let geocoderGate: Promise<void> | null = null;

/** A day of its own per test, so that the shared address cache never answers for another test. */
let day = Date.parse('2025-05-01T06:00:00.000Z');
beforeEach(() => {
  day += 86_400_000;
  geocoderFails = false;
});

async function registerUnit(): Promise<UnitItem> {
  const imei = nextImei();
  await dynamo().send(
    new PutCommand({
      TableName: tableName('units'),
      Item: { imei, accountId: ACCOUNT, name: `Unit ${imei}`, vehicleType: 'car', protocol: 'native', createdAt: '2025-01-01T00:00:00.000Z' },
    }),
  );
  return (await getUnitItem(imei)) as UnitItem;
}

/** Ignition on, driving north at about 47 km/h, a fix every 30 s. */
function drive(fromTs: number, minutes: number, lat: number, lon: number): Position[] {
  return Array.from({ length: minutes * 2 + 1 }, (_, i) => testPosition(fromTs + i * 30_000, lat + i * 0.0035, lon, { ignition: true, movement: true, speed: 47 }));
}

const endOf = (positions: Position[]) => positions[positions.length - 1] as Position;

async function store(imei: string, positions: readonly Position[]): Promise<void> {
  for (const p of positions) await storePosition(imei, p, p.ts, RETENTION_DAYS);
}

/** What the ingest stage would detect over the positions stored so far. */
async function detectStored(unit: UnitItem, fromTs: number, toTs: number): Promise<DetectedTrip[]> {
  const { queryPositions } = await import('../tracking/position-repository');
  const { items } = await queryPositions(unit.imei, fromTs, toTs, 100_000);
  return detectWindow(
    items.map((p) => ({ ts: p.ts, lat: p.lat, lon: p.lon, fix: true, speed: p.speed, ignition: p.ignition, movement: undefined, odometer: undefined })),
    tripSettingsOf(unit),
  );
}

/** Ignition off at a place: the tracker's last record before it sleeps. */
const off = (ts: number, at: Position) => testPosition(ts, at.lat, at.lon, { ignition: false, movement: false, speed: 0 });

/**
 * Two drives of 20 minutes an hour apart, stored as the stage stores them. After each the
 * ignition goes off and the tracker sleeps (no positions while parked).
 */
async function twoDrives(unit: UnitItem): Promise<{ a: Position[]; b: Position[]; trips: TripItem[] }> {
  const a = drive(day, 20, 59.3, 18.0);
  const b = drive(endOf(a).ts + 60 * MIN, 20, endOf(a).lat, endOf(a).lon);
  await store(unit.imei, [...a, off(endOf(a).ts + 30_000, endOf(a)), ...b, off(endOf(b).ts + 30_000, endOf(b))]);
  const detected = await detectStored(unit, day - MIN, endOf(b).ts + MIN);
  expect(detected).toHaveLength(2);
  await storeDetectedTrips(unit, detected, getPorts());
  await queues.drained();
  return { a, b, trips: await unitTrips(unit, day - MIN, day + 86_400_000, { consistent: true }) };
}

/** Ignition on, east and back west again, a fix every 30 s, from `fromTs` for `minutes`. */
function outAndBack(fromTs: number, minutes: number, at: Position): Position[] {
  const steps = minutes * 2;
  return Array.from({ length: steps }, (_, i) => {
    const leg = i < steps / 2 ? i : steps - i;
    return testPosition(fromTs + i * 30_000, at.lat, at.lon + leg * 0.006, { ignition: true, movement: true, speed: 40 });
  });
}

let queues: LocalQueues;
beforeAll(async () => {
  await useLocalTables();
  // What a list leaves to the trip-addresses queue comes from its real consumer (functions/trips/trip-addresses.ts).
  queues = await useWorkQueues(['trip-addresses', 'unit-day-rollup']);
  await dynamo().send(new PutCommand({ TableName: tableName('accounts'), Item: { accountId: ACCOUNT, name: 'Trips AB', retentionDays: RETENTION_DAYS } }));
  overridePorts({
    clock: { now: () => new Date(now) },
    geocoder: {
      async reverse(lat: number, lon: number): Promise<Address | null> {
        geocoderCalls++;
        if (geocoderGate) await geocoderGate;
        if (geocoderFails) throw new Error('geocoder down');
        if (lat >= nowhereLat && lat < nowhereLat + 1) return null;
        return { label: `Road ${lat.toFixed(4)} ${lon.toFixed(4)}`, lat, lon };
      },
      async search() {
        return [];
      },
    },
  });
});

describe('storeDetectedTrips', () => {
  it('stores a new trip with the default type, the driver checked in at its start and the retention expiry; its addresses come when it is first shown', async () => {
    const unit = await registerUnit();
    await putCheckIn({ imei: unit.imei, fromTs: day - 3_600_000, accountId: ACCOUNT, driverId: 'driver-1', by: 'u', via: 'manual', createdAt: now });
    await putCheckIn({ imei: unit.imei, fromTs: day + 30 * MIN, accountId: ACCOUNT, driverId: 'driver-2', by: 'u', via: 'manual', createdAt: now });
    const calls = geocoderCalls;
    const { trips: stored } = await twoDrives(unit);
    // Stored without asking the geocoder, and nothing queued for it.
    expect(geocoderCalls).toBe(calls);
    expect(stored.map((t) => [t.startAddress, t.stopAddress])).toEqual([
      [undefined, undefined],
      [undefined, undefined],
    ]);
    const trips = await withAddresses(stored, 10_000);
    expect(await unitTrips(unit, day - MIN, day + 86_400_000, { consistent: true })).toEqual(trips);
    expect(trips.map((t) => [t.type, t.driverId, t.v])).toEqual([
      ['business', 'driver-1', 0],
      ['business', 'driver-2', 0],
    ]);
    // Their day's rollup, from the unit-day-rollup queue.
    const local = localDayOf(day, ROLLUP_ZONE);
    expect(await readUnitDays(ACCOUNT, unit.imei, local, local)).toMatchObject([
      {
        trips: 2,
        distanceM: trips[0]!.distanceM + trips[1]!.distanceM,
        movingS: trips[0]!.movingS! + trips[1]!.movingS!,
        figuresMissing: 0,
        drivers: { 'driver-1': { trips: 1 }, 'driver-2': { trips: 1 } },
      },
    ]);
    const [first] = trips as [TripItem];
    expect(first.startAddress).toMatch(/^Road 59\.3000 18\.0000$/);
    expect(first.stopAddress).toMatch(/^Road /);
    expect(first.expiresAt).toBe(Math.floor((first.stopTs + RETENTION_DAYS * 86_400_000) / 1000));
    expect(first.distanceM).toBeGreaterThan(7_000);
    // The detector's time in motion and idling are kept with the trip.
    expect(first.movingS).toBeGreaterThan(0);
    expect(first.movingS).toBeLessThanOrEqual((first.stopTs - first.startTs) / 1000);
    expect(first.idleS).toBeGreaterThanOrEqual(0);
  });

  it('changes nothing when the same trips come again, and never overwrites what a user edited', async () => {
    const unit = await registerUnit();
    const { trips } = await twoDrives(unit);
    const [first] = trips as [TripItem];
    await updateTripFields(first, { purpose: 'Customer visit', type: 'private' }, 'user-1', now);
    const before = await unitTrips(unit, day - MIN, day + 86_400_000, { consistent: true });

    const detected = await detectStored(unit, day - MIN, day + 86_400_000);
    await storeDetectedTrips(unit, detected, getPorts());
    await storeDetectedTrips(unit, detected, getPorts());
    await queues.drained();
    expect(await unitTrips(unit, day - MIN, day + 86_400_000, { consistent: true })).toEqual(before);
    expect(before[0]).toMatchObject({ purpose: 'Customer visit', type: 'private', edited: ['purpose', 'type'], editedBy: 'user-1', v: 1 });
  });

  it('answers a shown trip without addresses while the geocoder fails and queues it; the queue asks until its dead-letter queue, a later list asks again', async () => {
    const unit = await registerUnit();
    const a = drive(day, 15, 57.7, 11.9);
    await store(unit.imei, [...a, off(endOf(a).ts + 30_000, endOf(a))]);
    const detected = await detectStored(unit, day - MIN, day + 3_600_000);
    await storeDetectedTrips(unit, detected, getPorts());
    await queues.drained();
    const stored = (await getTrip(unit.imei, detected[0]!.startTs)) as TripItem;
    expect(stored.distanceM).toBe(detected[0]!.distanceM);
    geocoderFails = true;
    const deadBefore = queues.deadLetters('trip-addresses').length;
    const callsBefore = geocoderCalls;
    const [shown] = await withAddresses([stored], 10_000);
    expect([shown?.startAddress, shown?.stopAddress]).toEqual([undefined, undefined]);
    await queues.drained();
    // The list's own try, then maxReceiveCount (5) receives, then the dead-letter queue.
    expect(geocoderCalls - callsBefore).toBe(6);
    const dead = queues.deadLetters('trip-addresses').slice(deadBefore);
    expect(dead.map((m) => [JSON.parse(m.body), m.receiveCount])).toEqual([[{ imei: unit.imei, startTs: detected[0]!.startTs }, 5]]);
    const unfilled = await getTrip(unit.imei, detected[0]!.startTs);
    expect([unfilled?.startAddress, unfilled?.stopAddress]).toEqual([undefined, undefined]);

    geocoderFails = false;
    const [again] = await withAddresses([stored], 10_000);
    expect(again).toMatchObject({ startAddress: 'Road 57.7000 11.9000', v: 0 });
    expect(await getTrip(unit.imei, detected[0]!.startTs)).toEqual(again);
  });

  it('answers what a slow geocoder did not give within the budget as it is, and the queue fills it for the next list', async () => {
    const unit = await registerUnit();
    const a = drive(day, 15, 58.3, 12.3);
    await store(unit.imei, [...a, off(endOf(a).ts + 30_000, endOf(a))]);
    await storeDetectedTrips(unit, await detectStored(unit, day - MIN, day + 3_600_000), getPorts());
    const [stored] = await unitTrips(unit, day - MIN, day + 3_600_000, { consistent: true });
    let release = () => {};
    geocoderGate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const [shown] = await withAddresses([stored as TripItem], 50);
    expect([shown?.startAddress, shown?.stopAddress]).toEqual([undefined, undefined]);
    geocoderGate = null;
    release();
    await queues.drained();
    const [next] = await unitTrips(unit, day - MIN, day + 3_600_000, { consistent: true });
    expect(next).toMatchObject({ startAddress: 'Road 58.3000 12.3000', stopAddress: expect.stringMatching(/^Road /) });
    const calls = geocoderCalls;
    expect(await withAddresses([next as TripItem], 10_000)).toEqual([next]);
    expect(geocoderCalls).toBe(calls);
  });

  it('keeps an empty address where the geocoder knows none, shown as null and not asked again', async () => {
    const unit = await registerUnit();
    const a = drive(day, 15, nowhereLat, 20.5);
    await store(unit.imei, [...a, off(endOf(a).ts + 30_000, endOf(a))]);
    await storeDetectedTrips(unit, await detectStored(unit, day - MIN, day + 3_600_000), getPorts());
    const [stored] = await unitTrips(unit, day - MIN, day + 3_600_000, { consistent: true });
    const [shown] = await withAddresses([stored as TripItem], 10_000);
    expect(shown).toMatchObject({ startAddress: '', stopAddress: '' });
    expect(toTrip(shown as TripItem, 'Europe/Stockholm', { start: null, stop: null }, null)).toMatchObject({ startAddress: null, stopAddress: null });
    const calls = geocoderCalls;
    const [again] = await unitTrips(unit, day - MIN, day + 3_600_000, { consistent: true });
    expect(await withAddresses([again as TripItem], 10_000)).toEqual([shown]);
    expect(geocoderCalls).toBe(calls);
  });

  it("takes an end's address from where the unit parked before (the previous stop, an end of a recent trip) without asking the geocoder; elsewhere it asks", async () => {
    const unit = await registerUnit();
    /** One drive, stored as the stage does hours apart and shown; the geocoder's calls for it. */
    const driveAndStore = async (fromTs: number, lat: number, lon: number) => {
      const positions = drive(fromTs, 10, lat, lon);
      await store(unit.imei, [...positions, off(endOf(positions).ts + 30_000, endOf(positions))]);
      const detected = await detectStored(unit, fromTs - MIN, endOf(positions).ts + MIN);
      await storeDetectedTrips(unit, detected, getPorts());
      const calls = geocoderCalls;
      await withAddresses([(await getTrip(unit.imei, detected[0]!.startTs)) as TripItem], 10_000);
      return { end: endOf(positions), trip: (await getTrip(unit.imei, detected[0]!.startTs)) as TripItem, calls: geocoderCalls - calls };
    };
    const first = await driveAndStore(day, 59.1, 17.5);
    expect(first.calls).toBe(2);
    // Parked, then off again 9 m north of where it stopped: another cell of the geocode cache, the same place.
    const second = await driveAndStore(first.end.ts + 3 * 3_600_000, first.end.lat + 0.00008, first.end.lon);
    expect(second.calls).toBe(1);
    expect(second.trip.startAddress).toBe(first.trip.stopAddress);
    expect(second.trip.stopAddress).toMatch(/^Road /);
    // Towed 200 m away while parked: a place of its own.
    const third = await driveAndStore(second.end.ts + 3 * 3_600_000, second.end.lat + 0.0018, second.end.lon);
    expect(third.calls).toBe(2);
    expect(third.trip.startAddress).not.toBe(second.trip.stopAddress);
    // Towed back home, then the first day's drive again: both ends are places it parked before.
    const fourth = await driveAndStore(third.end.ts + 3 * 3_600_000, 59.1, 17.5);
    expect(fourth.calls).toBe(0);
    expect(fourth.trip).toMatchObject({ startAddress: first.trip.startAddress, stopAddress: first.trip.stopAddress });
  });

  it('leaves out trips from before the unit was registered', async () => {
    const unit = { ...(await registerUnit()), createdAt: new Date(day + 86_400_000).toISOString() };
    const a = drive(day, 15, 58.0, 12.0);
    await store(unit.imei, [...a, off(endOf(a).ts + 30_000, endOf(a))]);
    await storeDetectedTrips(unit, await detectStored(unit, day - MIN, day + 3_600_000), getPorts());
    expect(await unitTrips({ ...unit, createdAt: undefined }, day - MIN, day + 86_400_000, { consistent: true })).toEqual([]);
  });
});

describe('redetectTrips', () => {
  it('adds a trip that late positions reveal between two stored ones and leaves those untouched', async () => {
    const unit = await registerUnit();
    const { a, trips } = await twoDrives(unit);
    // The tracker's buffer: a short drive in the parked hour, delivered late.
    const late = drive(endOf(a).ts + 15 * MIN, 6, endOf(a).lat, endOf(a).lon + 0.01);
    const lateOff = off(endOf(late).ts + 30_000, endOf(late));
    await store(unit.imei, [...late, lateOff]);
    await redetectTrips(unit, late[0]!.ts, lateOff.ts, getPorts());
    await queues.drained();

    const after = await unitTrips(unit, day - MIN, day + 86_400_000, { consistent: true });
    expect(after).toHaveLength(3);
    expect(after[0]).toEqual(trips[0]);
    expect(after[1]).toMatchObject({ startTs: late[0]!.ts, stopTs: lateOff.ts, type: 'business', v: 0 });
    // The computed counter runs on from the trip before it, and the trip after now counts the new one's distance.
    expect(after[1]!.startCounterM).toBeGreaterThanOrEqual(trips[0]!.stopCounterM);
    const { startCounterM, stopCounterM, distanceM, v, ...same } = trips[1]!;
    expect(after[2]).toMatchObject(same);
    expect(after[2]!.startCounterM).toBeGreaterThanOrEqual(after[1]!.stopCounterM);
    expect(after[2]!.startCounterM).toBeGreaterThan(startCounterM);
    expect(Math.abs(after[2]!.distanceM - distanceM)).toBeLessThan(2);
    expect([stopCounterM, v]).toEqual([startCounterM + distanceM, 0]);
  });

  it("sends the trip it adds to the account's webhooks once, and not the trips it leaves as they were", async () => {
    const unit = await registerUnit();
    const { a, trips } = await twoDrives(unit);
    const sent: DeliveryMessage[] = [];
    const { queues: real } = getPorts();
    overridePorts({ queues: { send: async (queue, message, options) => (queue === 'webhook-delivery' ? void sent.push(message as DeliveryMessage) : real.send(queue, message, options)) } });
    await dynamo().send(new PutCommand({ TableName: tableName('webhooks'), Item: { accountId: ACCOUNT, sk: 'hook#trips', id: 'trips', url: 'https://example.com/hook', events: ['tripClosed'], active: true } }));
    forgetSubscribers(ACCOUNT);
    try {
      const late = drive(endOf(a).ts + 15 * MIN, 6, endOf(a).lat, endOf(a).lon + 0.01);
      const lateOff = off(endOf(late).ts + 30_000, endOf(late));
      await store(unit.imei, [...late, lateOff]);
      await redetectTrips(unit, late[0]!.ts, lateOff.ts, getPorts());
      // Again, as a redelivered queue message would: nothing changes, nothing is sent.
      await redetectTrips(unit, late[0]!.ts, lateOff.ts, getPorts());
      await queues.drained();
      expect(sent.map((m) => m.event?.data['tripId'])).toEqual([`${unit.imei}.${late[0]!.ts}`]);
      expect(sent[0]).toMatchObject({ accountId: ACCOUNT, hookId: 'trips', event: { type: 'tripClosed', sourceId: `trip:${unit.imei}.${late[0]!.ts}` } });
      expect(trips.map((t) => t.startTs)).not.toContain(late[0]!.ts);
    } finally {
      overridePorts({ queues: real });
      await dynamo().send(new PutCommand({ TableName: tableName('webhooks'), Item: { accountId: ACCOUNT, sk: 'hook#trips', id: 'trips', url: 'https://example.com/hook', events: ['tripClosed'], active: false } }));
      forgetSubscribers(ACCOUNT);
    }
  });

  it('joins two trips that late positions show were one, carrying the edits over, and is idempotent', async () => {
    const unit = await registerUnit();
    const { a, b, trips } = await twoDrives(unit);
    const [first, second] = trips as [TripItem, TripItem];
    await updateTripFields(second, { purpose: 'Delivery', passengers: 'Kim' }, 'user-2', now);

    // Late: the "parked" hour was a drive east and back with the ignition on.
    const between = outAndBack(endOf(a).ts + MIN, 58, endOf(a));
    await store(unit.imei, between);
    await redetectTrips(unit, between[0]!.ts, endOf(between).ts, getPorts());
    await queues.drained();

    const after = await unitTrips(unit, day - MIN, day + 86_400_000, { consistent: true });
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ startTs: first.startTs, purpose: 'Delivery', passengers: 'Kim', edited: ['passengers', 'purpose'] });
    // The edits' change log goes with them.
    expect(after[0]!.changes).toEqual([
      { at: now, by: 'user-2', field: 'purpose', from: null, to: 'Delivery' },
      { at: now, by: 'user-2', field: 'passengers', from: null, to: 'Kim' },
    ]);
    // The day's rollup is the one trip now.
    const local = localDayOf(first.startTs, ROLLUP_ZONE);
    expect(await readUnitDays(ACCOUNT, unit.imei, local, local)).toMatchObject([{ trips: 1, distanceM: after[0]!.distanceM, movingS: after[0]!.movingS }]);
    expect(after[0]!.stopTs).toBeGreaterThanOrEqual(endOf(b).ts);
    expect(after[0]!.distanceM).toBeGreaterThan(first.distanceM + second.distanceM);

    await redetectTrips(unit, between[0]!.ts, endOf(between).ts, getPorts());

    await queues.drained();
    await redetectTrips(unit, day, endOf(b).ts, getPorts());
    await queues.drained();
    expect(await unitTrips(unit, day - MIN, day + 86_400_000, { consistent: true })).toEqual(after);
  });

  it('never changes an attested trip, nor the trips that what it finds over it would replace', async () => {
    const unit = await registerUnit();
    const { a, trips } = await twoDrives(unit);
    expect(await lockTrip(trips[0]!, 'attestation-1')).toBe(true);
    const locked = await unitTrips(unit, day - MIN, day + 86_400_000, { consistent: true });

    const between = outAndBack(endOf(a).ts + MIN, 58, endOf(a));
    await store(unit.imei, between);
    await redetectTrips(unit, between[0]!.ts, endOf(between).ts, getPorts());
    await queues.drained();
    expect(await unitTrips(unit, day - MIN, day + 86_400_000, { consistent: true })).toEqual(locked);
  });

  it("reconciles a trip stopping after the window's late positions up to where the stage has settled, and only then", async () => {
    const unit = await registerUnit();
    const { b } = await twoDrives(unit);
    // After the last stored trip: a drive whose ignition off came in a message of its own, stored before it.
    const late = drive(endOf(b).ts + 30 * MIN, 10, endOf(b).lat, endOf(b).lon);
    const lateOff = off(endOf(late).ts + 30_000, endOf(late));
    const parkedSince = testPosition(lateOff.ts + 20 * MIN, lateOff.lat, lateOff.lon, { ignition: false, speed: 0 });
    await store(unit.imei, [...late, lateOff, parkedSince]);
    const trips = () => unitTrips(unit, day - MIN, day + 86_400_000, { consistent: true });
    // Its stop (the ignition off) is past the window: without a settled time, it is left to the stage.
    await redetectTrips(unit, late[0]!.ts, endOf(late).ts, getPorts());
    expect(await trips()).toHaveLength(2);
    await redetectTrips(unit, late[0]!.ts, endOf(late).ts, getPorts(), parkedSince.ts - 3 * MIN);
    const after = await trips();
    expect(after.map((t) => [t.startTs, t.stopTs])).toEqual([...after.slice(0, 2).map((t) => [t.startTs, t.stopTs]), [late[0]!.ts, lateOff.ts]]);
  });

  it('deletes a stored trip the positions no longer show', async () => {
    const unit = await registerUnit();
    const { trips } = await twoDrives(unit);
    // A phantom trip stored by mistake between the two, with no positions of its own.
    const phantom: TripItem = { ...trips[0]!, startTs: trips[0]!.stopTs + 10 * MIN, stopTs: trips[0]!.stopTs + 20 * MIN, v: 0 };
    await dynamo().send(new PutCommand({ TableName: tableName('trips'), Item: phantom }));
    await redetectTrips(unit, phantom.startTs, phantom.stopTs, getPorts());
    await queues.drained();
    expect(await unitTrips(unit, day - MIN, day + 86_400_000, { consistent: true })).toEqual(trips);
  });
});

describe('rebaseCounters', () => {
  const trip = (startTs: number, stopTs: number, start: number, stop: number): DetectedTrip => ({
    startTs, stopTs, startLat: 0, startLon: 0, stopLat: 0, stopLon: 0, distanceM: stop - start, startCounterM: start, stopCounterM: stop,
    counterSource: 'computed', maxSpeedKmh: 0, basis: 'movement',
  });

  it('reads the offset off a trip the run reproduces, else off the trip before the window', () => {
    const storedTrip = { ...trip(100, 200, 5_000, 6_000), joined: undefined } as unknown as TripItem;
    expect(rebaseCounters([trip(100, 200, 0, 1_000), trip(300, 400, 1_500, 2_000)], [storedTrip], null).map((d) => d.startCounterM)).toEqual([5_000, 6_500]);
    const previous = { ...trip(0, 50, 9_000, 9_400), joined: undefined } as unknown as TripItem;
    // The run's version of the previous trip stopped at 400: the counter was 9 400 there.
    expect(rebaseCounters([trip(0, 50, 0, 400), trip(300, 400, 500, 900)], [], previous).map((d) => d.startCounterM)).toEqual([9_000, 9_500]);
  });
});

describe('place rules (functions/places/place-rules.ts) on new trips', () => {
  /** The unit as the stage reads it, with a place rule copied on: trips that start at 59.3, 18.0 are private. */
  const withHomeRule = (unit: UnitItem): UnitItem => ({
    ...unit,
    places: { home: { label: 'Home', lat: 59.3, lon: 18.0, radius: 200, rule: { when: 'start', type: 'private' }, schedule: [], timeZone: 'Europe/Stockholm' } },
  });

  it("gives a new trip the type of the rule it matches, others the default; a user's later edit wins over it", async () => {
    const unit = withHomeRule(await registerUnit());
    const { trips } = await twoDrives(unit);
    expect(trips.map((t) => [t.type, t.edited])).toEqual([
      ['private', undefined],
      ['business', undefined],
    ]);
    await updateTripFields(trips[0]!, { type: 'other' }, 'user-1', now);
    await storeDetectedTrips(unit, await detectStored(unit, day - MIN, day + 86_400_000), getPorts());
    expect((await getTrip(unit.imei, trips[0]!.startTs))?.type).toBe('other');
  });

  it('gives a re-detected trip the type of the rule it matches', async () => {
    const plain = await registerUnit();
    const { a, trips } = await twoDrives(plain);
    expect(trips.map((t) => t.type)).toEqual(['business', 'business']);
    const between = outAndBack(endOf(a).ts + MIN, 58, endOf(a));
    await store(plain.imei, between);
    await redetectTrips(withHomeRule(plain), between[0]!.ts, endOf(between).ts, getPorts());
    await queues.drained();
    const after = await unitTrips(plain, day - MIN, day + 86_400_000, { consistent: true });
    expect(after.map((t) => [t.startTs, t.type])).toEqual([[trips[0]!.startTs, 'private']]);
  });
});
