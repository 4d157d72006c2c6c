/**
 * The fleet of `npm run bench:map`: one account with an admin and N units written straight into
 * DynamoDB (batch writes, each units item with the latest `state` ingest would have stored), and the
 * live position messages that move them, in the exact shape ingest publishes.
 */
import { BatchWriteCommand, type BatchWriteCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { LivePositionMessage } from '../../shared/schemas/live';
import { imeiFrom } from '../../shared/validators/imei';
import type { UnitState } from '../../functions/ingest/types';
import { toUnitState } from '../../functions/tracking/stored-shape';
import type { UnitItem } from '../../functions/domain/unit/schema';
import { dynamo, tableName } from '../../functions/platform/db';
import { seededRandom } from '../../infra/local/simulator/random';

/** Greater Stockholm: where the fleet is spread. */
const AREA = { south: 59.15, north: 59.55, west: 17.65, east: 18.45 };
const TYPES = ['car', 'van', 'lorry', 'bus', 'trailer', 'excavator'] as const;
const BATCH = 25;
const WRITERS = 8;

export interface BenchFleet {
  accountId: string;
  imeis: string[];
  /** Where each unit is now; moved by `nextMove`. */
  lat: Float64Array;
  lon: Float64Array;
  heading: Float64Array;
}

/** IMEIs of the bench fleet: TAC 35693806 (the demo fleet's is 35693803), with a valid check digit. */
const benchImei = (i: number) => imeiFrom(`35693806${String(i).padStart(6, '0')}`);

/** `registeredAt`: when the units were registered (default `now`); a unit's trips and positions count from then. */
export async function seedFleet(accountId: string, count: number, now = Date.now(), registeredAt = now): Promise<BenchFleet> {
  const random = seededRandom(4242);
  const fleet: BenchFleet = { accountId, imeis: [], lat: new Float64Array(count), lon: new Float64Array(count), heading: new Float64Array(count) };
  const createdAt = new Date(registeredAt).toISOString();
  const items: UnitItem[] = [];
  for (let i = 0; i < count; i++) {
    const imei = benchImei(i);
    const lat = random.between(AREA.south, AREA.north);
    const lon = random.between(AREA.west, AREA.east);
    const heading = random.int(0, 359);
    fleet.imeis.push(imei);
    fleet.lat[i] = lat;
    fleet.lon[i] = lon;
    fleet.heading[i] = heading;
    const seen = now - random.int(0, 3_600_000);
    const state: UnitState = {
      ts: seen, lat, lon, speed: random.int(0, 90), heading, alt: undefined, sats: 9, hdop: 0.9, ignition: true, movement: true,
      extVolts: 13.8, batVolts: 4.1, din: undefined, dout: undefined, odometer: random.int(0, 300_000_000), engineSeconds: undefined, lastSeen: seen,
    };
    items.push({
      imei,
      accountId,
      name: `Unit ${String(i + 1).padStart(5, '0')}`,
      registrationNumber: `BEN${String(i).padStart(5, '0')}`,
      vehicleType: TYPES[i % TYPES.length] as string,
      protocol: 'native',
      createdAt,
      state,
    });
  }

  await putAll('units', items as unknown as Record<string, unknown>[]);
  return fleet;
}

/** Writes items in batches of 25, a few writers at once; DynamoDB may hand back unprocessed items under load. */
export async function putAll(table: 'units' | 'trips' | 'tripRollups', items: readonly Record<string, unknown>[]): Promise<void> {
  let next = 0;
  const writer = async () => {
    while (next < items.length) {
      const batch = items.slice(next, next + BATCH);
      next += BATCH;
      let request: Record<string, Array<{ PutRequest: { Item: Record<string, unknown> } }>> | undefined = {
        [tableName(table)]: batch.map((item) => ({ PutRequest: { Item: item } })),
      };
      for (let attempt = 0; request && Object.keys(request).length; attempt++) {
        if (attempt > 8) throw new Error('DynamoDB Local kept items unprocessed');
        const out: BatchWriteCommandOutput = await dynamo().send(new BatchWriteCommand({ RequestItems: request }));
        request = out.UnprocessedItems as typeof request;
        if (request && Object.keys(request).length) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
}

/** Unit i drives on: about 10 s at 30 to 90 km/h along its heading, which drifts a little. */
export function nextMove(fleet: BenchFleet, i: number, now: number): LivePositionMessage {
  const heading = ((fleet.heading[i] as number) + (Math.random() - 0.5) * 30 + 360) % 360;
  const speed = 30 + Math.random() * 60;
  const metres = (speed / 3.6) * 10;
  const rad = (heading * Math.PI) / 180;
  let lat = (fleet.lat[i] as number) + (metres * Math.cos(rad)) / 111_320;
  let lon = (fleet.lon[i] as number) + (metres * Math.sin(rad)) / (111_320 * Math.cos(((fleet.lat[i] as number) * Math.PI) / 180));
  // Keep the fleet in its area: turn back at the edge.
  if (lat < AREA.south || lat > AREA.north || lon < AREA.west || lon > AREA.east) {
    lat = fleet.lat[i] as number;
    lon = fleet.lon[i] as number;
    fleet.heading[i] = (heading + 180) % 360;
  } else {
    fleet.heading[i] = heading;
  }
  fleet.lat[i] = lat;
  fleet.lon[i] = lon;
  const state: UnitState = {
    ts: now, lat, lon, speed: Math.round(speed), heading: Math.round(heading), alt: undefined, sats: 9, hdop: 0.9, ignition: true,
    movement: true, extVolts: 13.8, batVolts: 4.1, din: undefined, dout: undefined, odometer: undefined, engineSeconds: undefined, lastSeen: now,
  };
  return { type: 'position', imei: fleet.imeis[i] as string, ...toUnitState(state) };
}
