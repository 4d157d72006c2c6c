import { routes } from '../../shared/routes';
import type { TripList, TripType } from '../../shared/schemas/trips';
import { httpHandler } from '../platform/http';
import type { Ports } from '../platform/ports';
import { unitFor } from './access';
import { localDaysRange } from '../../shared/local-time';
import { fillMissingAddresses } from './store-detected';
import type { TripItem } from './trip-item';
import { unitTrips } from './trip-repository';
import { tripViews } from './trip-views';

/** Trips of an answer whose addresses are retried at most per request, and for how long. */
const ADDRESS_RETRIES = 10;
const ADDRESS_RETRY_BUDGET_MS = 1_500;

/**
 * Addresses the geocoder did not answer when a trip was stored are asked again here, for a few
 * trips and within a time budget, so a list never waits long for them; what comes back is stored
 * and shown, the rest stays null until the next list.
 */
async function retryAddresses(trips: TripItem[], ports: Pick<Ports, 'geocoder' | 'clock'>): Promise<TripItem[]> {
  const missing = trips.filter((t) => t.startAddress === undefined || t.stopAddress === undefined).slice(0, ADDRESS_RETRIES);
  if (!missing.length) return trips;
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ADDRESS_RETRY_BUDGET_MS);
  });
  const filled = new Map<TripItem, TripItem>();
  const work = Promise.all(
    missing.map(async (trip) => {
      const labels: Partial<Pick<TripItem, 'startAddress' | 'stopAddress'>> = {};
      await fillMissingAddresses(trip, ports, (end, label) => {
        labels[end === 'start' ? 'startAddress' : 'stopAddress'] = label;
      });
      filled.set(trip, { ...trip, ...labels });
    }),
  ).catch(() => undefined);
  await Promise.race([work, budget]);
  clearTimeout(timer);
  return trips.map((t) => filled.get(t) ?? t);
}

export const handler = httpHandler(routes.getTrips, async ({ auth, query, timeZone, ports }): Promise<TripList> => {
  const unit = await unitFor(auth, query.imei);
  const { fromMs, toMs } = localDaysRange(query.from, query.to, timeZone);
  const stored = await retryAddresses(await unitTrips(unit, fromMs, toMs - 1), ports);
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
