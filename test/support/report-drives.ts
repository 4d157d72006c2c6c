/**
 * Hand-made drives for the reports' API tests: a unit put straight into the units table, and a
 * trip stored as the ingest stage stores a detected one (so the day rollups follow it).
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { getPorts } from '../../functions/platform/container';
import { dynamo, tableName } from '../../functions/platform/db';
import { getUnitItem } from '../../functions/domain/unit/reads';
import type { UnitItem, UnitRecord } from '../../functions/domain/unit/schema';
import type { DetectedTrip } from '../../functions/trips/detect';
import { storeDetectedTrips } from '../../functions/trips/store-detected';
import { demoImei } from '../../infra/local/seed';
import { DEMO_REGISTERED_AT } from './positions';

const MIN = 60_000;

/** A car of the account with the demo IMEI of `index` (keep indexes apart from the seed's units). */
export async function newReportUnit(accountId: string, name: string, index: number): Promise<string> {
  const imei = demoImei(index);
  const unit: UnitRecord = { imei, accountId, name, registrationNumber: `ABC ${index % 1000}`, vehicleType: 'car', protocol: 'native', createdAt: DEMO_REGISTERED_AT.toISOString() };
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: unit }));
  return imei;
}

export interface Drive {
  at: number;
  minutes: number;
  counterM: number;
  distanceM: number;
  movingS: number;
  idleS: number;
  maxSpeedKmh: number;
}

/** Stores the drive as a detected trip; answers its trip id. */
export async function storeDrive(imei: string, d: Drive): Promise<string> {
  const trip: DetectedTrip = {
    startTs: d.at,
    stopTs: d.at + d.minutes * MIN,
    startLat: 59.33,
    startLon: 18.06,
    stopLat: 59.4,
    stopLon: 17.95,
    distanceM: d.distanceM,
    startCounterM: d.counterM,
    stopCounterM: d.counterM + d.distanceM,
    counterSource: 'tracker',
    maxSpeedKmh: d.maxSpeedKmh,
    movingS: d.movingS,
    idleS: d.idleS,
    basis: 'ignition',
  };
  await storeDetectedTrips((await getUnitItem(imei)) as UnitItem, [trip], getPorts());
  return `${imei}-${d.at}`;
}
