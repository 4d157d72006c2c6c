/** A detected trip stored as the ingest stage stores it (functions/trips/store-detected.ts), for black-box tests. */
import { getUnitItem } from '../../functions/domain/unit/reads';
import type { UnitItem } from '../../functions/domain/unit/schema';
import { getPorts } from '../../functions/platform/container';
import type { DetectedTrip } from '../../functions/trips/detect';
import { storeDetectedTrips } from '../../functions/trips/store-detected';

export interface TestTripOptions {
  minutes?: number;
  distanceM?: number;
  counterStartM?: number;
  source?: 'tracker' | 'computed';
  /** Detection's times; absent: a trip detected before they were kept. */
  movingS?: number;
  idleS?: number;
}

/** Stores a trip of the unit from `startTs` (20 minutes, 12 km by default); answers its id. */
export async function storeTestTrip(imei: string, startTs: number, options: TestTripOptions = {}): Promise<string> {
  const minutes = options.minutes ?? 20;
  const distanceM = options.distanceM ?? 12_000;
  const counter = options.counterStartM ?? 0;
  const trip: DetectedTrip = {
    startTs,
    stopTs: startTs + minutes * 60_000,
    startLat: 59.33,
    startLon: 18.06,
    stopLat: 59.4,
    stopLon: 17.95,
    distanceM,
    startCounterM: counter,
    stopCounterM: counter + distanceM,
    counterSource: options.source ?? 'computed',
    maxSpeedKmh: 70,
    ...(options.movingS === undefined ? {} : { movingS: options.movingS }),
    ...(options.idleS === undefined ? {} : { idleS: options.idleS }),
    basis: 'ignition',
  };
  await storeDetectedTrips((await getUnitItem(imei)) as UnitItem, [trip], getPorts());
  return `${imei}-${startTs}`;
}
