/**
 * Consumer of the trip-addresses queue (shared/queues.ts): each message names a stored trip
 * (`{ imei, startTs }`) whose start or stop address is missing. The address is looked up with the
 * geocoder and written only where the trip still has none (trip-repository.ts fillTripAddress,
 * conditional), so a redelivered message, or one racing the trip list, writes nothing twice and
 * never overwrites a user's edit. A geocoder that fails fails the message, which the queue hands
 * out again and finally moves to its dead-letter queue; a place the geocoder knows no address for
 * stays without one.
 *
 * A trip that starts where the unit's previous trip stopped (within SAME_PLACE_M: the vehicle was
 * parked there) takes that trip's stop address instead of asking the geocoder again: one
 * Query of a trip item (one read unit) instead of a geocoder call (the
 * largest per-trip cost on AWS, docs/capacity.md), for about every other address of a fleet that
 * parks between trips. The instance's geocode cache rarely catches it: a parked unit's fixes
 * wander across its 11 m cells, and hours pass between the stop and the next start.
 */
import { z } from 'zod';
import { distanceM } from '../../shared/geo';
import { queueConsumer } from '../platform/queue-consumer';
import { getPorts } from '../platform/container';
import type { Ports } from '../platform/ports';
import { createGeocodeCache } from '../tracking/geocode-cache';
import { ADDRESS_LANGUAGE } from './store-detected';
import type { TripItem } from './trip-item';
import { fillTripAddress, getTrip, neighbourTrip } from './trip-repository';

export const tripAddressMessage = z.object({ imei: z.string().min(1), startTs: z.number().int() });
export type TripAddressMessage = z.infer<typeof tripAddressMessage>;

const cache = createGeocodeCache();

/** Metres between the previous trip's stop and this trip's start within which both are one place. */
export const SAME_PLACE_M = 30;

/** The stop address of the unit's trip before this one, when that trip (of the same account) stopped where this one starts. */
async function previousStopAddress(trip: Pick<TripItem, 'imei' | 'startTs' | 'accountId' | 'startLat' | 'startLon'>): Promise<string | undefined> {
  const previous = await neighbourTrip({ imei: trip.imei, accountId: trip.accountId }, trip.startTs, 'before');
  if (!previous?.stopAddress) return undefined;
  return distanceM(previous.stopLat, previous.stopLon, trip.startLat, trip.startLon) <= SAME_PLACE_M ? previous.stopAddress : undefined;
}

/** Fills in the addresses the trip lacks; throws when the geocoder fails (the queue retries). */
export async function fillTripAddresses(message: TripAddressMessage, ports: Pick<Ports, 'geocoder' | 'clock'> = getPorts()): Promise<void> {
  const trip = await getTrip(message.imei, message.startTs);
  if (!trip) return;
  const ends = [
    trip.startAddress === undefined ? (['start', trip.startLat, trip.startLon] as const) : null,
    trip.stopAddress === undefined ? (['stop', trip.stopLat, trip.stopLon] as const) : null,
  ].filter((e) => e !== null);
  for (const [end, lat, lon] of ends) {
    const parkedAt = end === 'start' ? await previousStopAddress(trip) : undefined;
    const label = parkedAt ?? (await cache.reverse(ports.geocoder, lat, lon, ADDRESS_LANGUAGE, ports.clock.now()))?.label;
    if (label) await fillTripAddress(trip, end, label);
  }
}

export const createTripAddressConsumer = (fill: (message: TripAddressMessage) => Promise<void>) => queueConsumer('trip-addresses', tripAddressMessage, fill);

export const handler = createTripAddressConsumer((message) => fillTripAddresses(message));
