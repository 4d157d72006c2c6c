/**
 * Trip addresses are looked up when a trip is first shown or reported, not when it is stored: the
 * trip list (get-trips.ts) and the reports (functions/reports/build.ts) call `withAddresses` on
 * the trips they are about to answer with. On AWS each lookup is a paid Amazon Location request,
 * the largest per-trip cost (docs/capacity.md), and many trips are never shown: a trailer's, a
 * tool's, a private car's that nobody opens. A trip the geocoder knows no address for keeps an
 * empty one, so it is not asked again at every list.
 *
 * The trips of one unit are filled oldest first, so that each can take an address from the one
 * before it; units are filled side by side. What a caller's time budget leaves, or a failing
 * geocoder, goes to the trip-addresses queue (shared/queues.ts), whose consumer
 * (`fillTripAddresses`) fills it in the background for the next list; the queue hands a failing
 * message out again and finally moves it to its dead-letter queue. Each address is written only
 * where the trip still has none (trip-repository.ts fillTripAddress, conditional), so a
 * redelivered message, or one racing a list, writes nothing twice and never overwrites an edit.
 *
 * An end where the unit parked before takes that address instead of asking the geocoder again:
 * the start of a trip that begins where the unit's previous trip stopped (within SAME_PLACE_M),
 * and any end within SAME_PLACE_M of an end of the unit's last RECENT_TRIPS trips (home, the
 * depot, a regular customer; the trip's own start for a round trip). One Query of those trips
 * (a few read units) replaces up to two geocoder calls. Addresses are never edited by users, so
 * what is reused is the geocoder's own answer. The instance's geocode cache rarely catches these:
 * a parked unit's fixes wander across its 11 m cells, and hours pass between the stop and the
 * next start.
 */
import { z } from 'zod';
import type { Language } from '../../shared/schemas/common';
import { mapLimited } from '../platform/concurrency';
import { queueConsumer } from '../platform/queue-consumer';
import { getPorts } from '../platform/container';
import { logger } from '../platform/logger';
import type { Ports } from '../platform/ports';
import { createGeocodeCache } from '../tracking/geocode-cache';
import { RECENT_TRIPS, reusedAddress, type KnownEnd } from './known-places';
import type { TripItem } from './trip-item';
import { fillTripAddress, getTrip, recentTripEnds } from './trip-repository';

export const tripAddressMessage = z.object({ imei: z.string().min(1), startTs: z.number().int() });
export type TripAddressMessage = z.infer<typeof tripAddressMessage>;

type AddressPorts = Pick<Ports, 'geocoder' | 'clock'>;
type Addresses = Partial<Pick<TripItem, 'startAddress' | 'stopAddress'>>;

/** Addresses are stored in Swedish: the trip log is the Swedish körjournal (docs/decisions/0015-trip-log.md). */
export const ADDRESS_LANGUAGE: Language = 'sv';
/** Units whose trips are filled at once. */
const UNITS_AT_ONCE = 4;

const cache = createGeocodeCache();

/** Whether the geocoder was never asked for one of the trip's ends ('' is an answer: no address there). */
export const lacksAddress = (trip: Pick<TripItem, 'startAddress' | 'stopAddress'>): boolean => trip.startAddress === undefined || trip.stopAddress === undefined;

/** Looks up and stores the addresses the trip lacks; throws when the geocoder fails. */
async function fillEnds(trip: TripItem, ports: AddressPorts): Promise<Addresses> {
  const ends = [
    trip.startAddress === undefined ? (['start', trip.startLat, trip.startLon] as const) : null,
    trip.stopAddress === undefined ? (['stop', trip.stopLat, trip.stopLon] as const) : null,
  ].filter((e) => e !== null);
  const filled: Addresses = {};
  if (ends.length === 0) return filled;
  const known: KnownEnd[] = await recentTripEnds({ imei: trip.imei, accountId: trip.accountId }, trip.startTs, RECENT_TRIPS);
  if (trip.startAddress) known.push({ lat: trip.startLat, lon: trip.startLon, address: trip.startAddress });
  for (const [end, lat, lon] of ends) {
    const label = reusedAddress(end, lat, lon, known) ?? (await cache.reverse(ports.geocoder, lat, lon, ADDRESS_LANGUAGE, ports.clock.now()))?.label ?? '';
    await fillTripAddress(trip, end, label);
    filled[end === 'start' ? 'startAddress' : 'stopAddress'] = label;
    if (label) known.push({ lat, lon, address: label });
  }
  return filled;
}

/** The trip-addresses queue's work: fills in the addresses the stored trip lacks; throws when the geocoder fails (the queue retries). */
export async function fillTripAddresses(message: TripAddressMessage, ports: AddressPorts = getPorts()): Promise<void> {
  const trip = await getTrip(message.imei, message.startTs);
  if (trip) await fillEnds(trip, ports);
}

/**
 * The trips with the addresses they lacked, for a list or a report about to show them: looked up
 * within `budgetMs`, each unit's trips oldest first. Trips the budget or a failing geocoder left
 * without are answered as they are and queued, so the next list has them.
 */
export async function withAddresses(trips: readonly TripItem[], budgetMs: number, ports: Pick<Ports, 'geocoder' | 'clock' | 'queues'> = getPorts()): Promise<TripItem[]> {
  const lacking = trips.filter(lacksAddress);
  if (!lacking.length) return [...trips];
  const byUnit = new Map<string, TripItem[]>();
  for (const trip of [...lacking].sort((a, b) => a.startTs - b.startTs)) byUnit.set(trip.imei, [...(byUnit.get(trip.imei) ?? []), trip]);
  const filled = new Map<TripItem, TripItem>();
  let expired = false;
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, budgetMs);
  });
  const work = mapLimited([...byUnit.values()], UNITS_AT_ONCE, async (unitTrips) => {
    for (const trip of unitTrips) {
      if (expired) return;
      try {
        filled.set(trip, { ...trip, ...(await fillEnds(trip, ports)) });
      } catch (error) {
        // The queue asks again; this unit's later trips would meet the same geocoder.
        logger.warn('trip address not found; queued', { error: error instanceof Error ? error.message : String(error) });
        return;
      }
    }
  });
  await Promise.race([work, budget]);
  expired = true;
  clearTimeout(timer);
  const answered = trips.map((t) => filled.get(t) ?? t);
  await Promise.all(answered.filter(lacksAddress).map((t) => ports.queues.send('trip-addresses', { imei: t.imei, startTs: t.startTs })));
  return answered;
}

export const createTripAddressConsumer = (fill: (message: TripAddressMessage) => Promise<void>) => queueConsumer('trip-addresses', tripAddressMessage, fill);

export const handler = createTripAddressConsumer((message) => fillTripAddresses(message));
