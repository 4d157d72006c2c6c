/**
 * Consumer of the trip-addresses queue (shared/queues.ts): each message names a stored trip
 * (`{ imei, startTs }`) whose start or stop address is missing. The address is looked up with the
 * geocoder and written only where the trip still has none (trip-repository.ts fillTripAddress,
 * conditional), so a redelivered message, or one racing the trip list, writes nothing twice and
 * never overwrites a user's edit. A geocoder that fails fails the message, which the queue hands
 * out again and finally moves to its dead-letter queue; a place the geocoder knows no address for
 * stays without one.
 */
import { queueConsumer } from '../platform/queue-consumer';
import { z } from 'zod';
import { getPorts } from '../platform/container';
import type { Ports } from '../platform/ports';
import { createGeocodeCache } from '../tracking/geocode-cache';
import { ADDRESS_LANGUAGE } from './store-detected';
import { fillTripAddress, getTrip } from './trip-repository';

export const tripAddressMessage = z.object({ imei: z.string().min(1), startTs: z.number().int() });
export type TripAddressMessage = z.infer<typeof tripAddressMessage>;

const cache = createGeocodeCache();

/** Fills in the addresses the trip lacks; throws when the geocoder fails (the queue retries). */
export async function fillTripAddresses(message: TripAddressMessage, ports: Pick<Ports, 'geocoder' | 'clock'> = getPorts()): Promise<void> {
  const trip = await getTrip(message.imei, message.startTs);
  if (!trip) return;
  const ends = [
    trip.startAddress === undefined ? (['start', trip.startLat, trip.startLon] as const) : null,
    trip.stopAddress === undefined ? (['stop', trip.stopLat, trip.stopLon] as const) : null,
  ].filter((e) => e !== null);
  for (const [end, lat, lon] of ends) {
    const address = await cache.reverse(ports.geocoder, lat, lon, ADDRESS_LANGUAGE, ports.clock.now());
    if (address?.label) await fillTripAddress(trip, end, address.label);
  }
}

export const createTripAddressConsumer = (fill: (message: TripAddressMessage) => Promise<void>) => queueConsumer('trip-addresses', tripAddressMessage, fill);

export const handler = createTripAddressConsumer((message) => fillTripAddresses(message));
