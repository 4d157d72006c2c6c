/**
 * Trips as the API answers them: odometers from the unit's odometer entries and the driver's name,
 * read once for any number of trips.
 */
import type { Trip } from '../../shared/schemas/trips';
import type { UnitItem } from '../domain/unit/schema';
import { odometersOf, resolvedOdometerEntries } from './odometer';
import { namesOf } from './people';
import { toTrip, type TripItem } from './trip-item';

export async function tripViews(unit: UnitItem, trips: readonly TripItem[], zone: string): Promise<Trip[]> {
  if (!trips.length) return [];
  const [entries, names] = await Promise.all([
    resolvedOdometerEntries(unit),
    namesOf(unit.accountId, trips.map((t) => t.driverId)),
  ]);
  return trips.map((t) => toTrip(t, zone, odometersOf(t, entries), t.driverId ? (names.get(t.driverId) ?? null) : null));
}

export async function tripView(unit: UnitItem, trip: TripItem, zone: string): Promise<Trip> {
  const [view] = await tripViews(unit, [trip], zone);
  return view as Trip;
}
