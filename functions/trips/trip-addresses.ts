/**
 * Consumer of the trip-addresses queue (shared/queues.ts): each message names a stored trip
 * (`{ imei, startTs }`) whose start or stop address is missing. The address is looked up with the
 * geocoder and written only where the trip still has none (trip-repository.ts fillTripAddress,
 * conditional), so a redelivered message, or one racing the trip list, writes nothing twice and
 * never overwrites a user's edit. A geocoder that fails fails the message, which the queue hands
 * out again and finally moves to its dead-letter queue; a place the geocoder knows no address for
 * stays without one.
 *
 * An end where the unit parked before takes that address instead of asking the geocoder again:
 * the start of a trip that begins where the unit's previous trip stopped (within SAME_PLACE_M),
 * and any end within SAME_PLACE_M of an end of the unit's last RECENT_TRIPS trips (home, the
 * depot, a regular customer; the trip's own start for a round trip). One Query of those trips
 * (a few read units) replaces up to two geocoder calls, the largest per-trip cost on AWS
 * (docs/capacity.md). Addresses are never edited by users, so what is reused is the geocoder's
 * own answer. The instance's geocode cache rarely catches these: a parked unit's fixes wander
 * across its 11 m cells, and hours pass between the stop and the next start.
 */
import { z } from 'zod';
import { queueConsumer } from '../platform/queue-consumer';
import { getPorts } from '../platform/container';
import type { Ports } from '../platform/ports';
import { createGeocodeCache } from '../tracking/geocode-cache';
import { ADDRESS_LANGUAGE } from './store-detected';
import { RECENT_TRIPS, reusedAddress, type KnownEnd } from './known-places';
import { fillTripAddress, getTrip, recentTripEnds } from './trip-repository';

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
  if (ends.length === 0) return;
  const known: KnownEnd[] = await recentTripEnds({ imei: trip.imei, accountId: trip.accountId }, trip.startTs, RECENT_TRIPS);
  if (trip.startAddress) known.push({ lat: trip.startLat, lon: trip.startLon, address: trip.startAddress });
  for (const [end, lat, lon] of ends) {
    const label = reusedAddress(end, lat, lon, known) ?? (await cache.reverse(ports.geocoder, lat, lon, ADDRESS_LANGUAGE, ports.clock.now()))?.label;
    if (!label) continue;
    await fillTripAddress(trip, end, label);
    known.push({ lat, lon, address: label });
  }
}

export const createTripAddressConsumer = (fill: (message: TripAddressMessage) => Promise<void>) => queueConsumer('trip-addresses', tripAddressMessage, fill);

export const handler = createTripAddressConsumer((message) => fillTripAddresses(message));
