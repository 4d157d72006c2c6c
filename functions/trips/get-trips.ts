import { routes } from '../../shared/routes';
import type { TripList, TripType } from '../../shared/schemas/trips';
import { httpHandler } from '../platform/http';
import { unitFor } from './access';
import { localDaysRange } from '../../shared/local-time';
import { withAddresses } from './trip-addresses';
import { unitTrips } from './trip-repository';
import { tripViews } from './trip-views';

/**
 * How long a list waits for the addresses of trips shown for the first time (trip-addresses.ts):
 * a day's trips are filled within it; a long period's rest arrives on the next list.
 */
export const LIST_ADDRESS_BUDGET_MS = 2_000;

export const handler = httpHandler(routes.getTrips, async ({ auth, query, timeZone, ports }): Promise<TripList> => {
  const unit = await unitFor(auth, query.imei);
  const { fromMs, toMs } = localDaysRange(query.from, query.to, timeZone);
  const stored = await withAddresses(await unitTrips(unit, fromMs, toMs - 1), LIST_ADDRESS_BUDGET_MS, ports);
  const trips = await tripViews(unit, stored, timeZone);
  const totals: TripList['totals'] = { business: { count: 0, distance: 0 }, private: { count: 0, distance: 0 }, other: { count: 0, distance: 0 } };
  const metres: Record<TripType, number> = { business: 0, private: 0, other: 0 };
  for (const trip of stored) {
    totals[trip.type].count++;
    metres[trip.type] += trip.distanceM;
  }
  for (const type of Object.keys(metres) as TripType[]) totals[type].distance = Math.round(metres[type]) / 1000;
  return { trips, totals };
});
