/**
 * Sending the outbox (outbox.ts rules) and reading the trips anew. A run is started when My trips
 * or the check-in page opens, when the browser says it is online again, and when the service
 * worker's Background Sync asks; runs of one user never overlap (a Web Lock across tabs where the
 * browser has it, else one per tab; the server's idempotency keys make an overlap harmless anyway).
 */
import { IDEMPOTENCY_HEADER } from '../../../../shared/idempotency';
import { routes } from '../../../../shared/routes';
import { driverCheckInSchema, tripListSchema, tripSchema, type Trip } from '../../../../shared/schemas/trips';
import { localDayOf } from '../../../../shared/local-time';
import { apiRequest, ApiError, browserTimeZone } from '../../app/api-client';
import { setBusy } from '../../pwa/busy';
import { requestOutboxSync } from '../../pwa/register';
import { fetchAllUnits } from '../units/api/units';
import { runOutbox, type OutboxEntry, type Refusal, type RunResult } from './outbox';
import { enqueue, markRefused, outboxEntries, removeEntry, storeTrip, storeTrips, storeUnits, type StoredUnit } from './store';

/** How far back My trips reads. */
export const MY_TRIPS_DAYS = 30;

function refusalOf(error: ApiError): Refusal {
  const firstField = Object.values(error.fieldErrors)[0]?.[0];
  return { status: error.status, key: error.status === 422 && firstField ? firstField : error.key, fieldErrors: error.fieldErrors };
}

async function sendEntry(userId: string, entry: OutboxEntry): Promise<{ status: number; refusal?: Refusal }> {
  const headers = { [IDEMPOTENCY_HEADER]: entry.id };
  try {
    if (entry.change.kind === 'edit') {
      const path = routes.putTrip.path.replace('{id}', encodeURIComponent(entry.change.tripId));
      const trip = await apiRequest('PUT', path, { body: entry.change.fields, schema: tripSchema, headers });
      await storeTrip(userId, trip);
    } else {
      await apiRequest('POST', routes.driverCheckIn.path, { body: entry.change.request, schema: driverCheckInSchema, headers });
    }
    return { status: 200 };
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, refusal: refusalOf(error) };
    return { status: 0 };
  }
}

const running = new Map<string, Promise<RunResult>>();

/** Sends what waits, in order; answers what happened (nothing when offline). */
export function syncOutbox(userId: string): Promise<RunResult> {
  let run = running.get(userId);
  if (!run) {
    const work = async () => {
      const entries = await outboxEntries(userId);
      if (!entries.some((e) => !e.refusal)) return { sent: 0, refused: 0, stopped: false };
      return runOutbox(entries, (entry) => sendEntry(userId, entry), {
        remove: (seq) => removeEntry(userId, seq),
        markRefused: (seq, refusal) => markRefused(userId, seq, refusal),
      });
    };
    const locks = typeof navigator !== 'undefined' ? (navigator as Navigator & { locks?: LockManager }).locks : undefined;
    run = (locks ? locks.request(`my-trips-outbox-${userId}`, work) : work()).finally(() => running.delete(userId));
    running.set(userId, run);
  }
  return run;
}

/** Keeps a change and tries to send it at once; offline it waits (and asks for a Background Sync). */
export async function submitChange(userId: string, change: Parameters<typeof enqueue>[1]): Promise<RunResult> {
  await enqueue(userId, change, Date.now());
  const result = await syncOutbox(userId);
  if (result.stopped) await requestOutboxSync();
  return result;
}

/** The units the user may see, read anew and stored. */
export async function refreshUnits(userId: string): Promise<StoredUnit[]> {
  const units = (await fetchAllUnits('')).map((u) => ({ imei: u.imei, name: u.name, registrationNumber: u.registrationNumber ?? null, lastSeen: u.lastSeen ?? null }));
  await storeUnits(userId, units);
  return units;
}

/** A unit's trips of the last MY_TRIPS_DAYS days (the trip log's read), newest first, stored. */
export async function refreshTrips(userId: string, imei: string, now = Date.now()): Promise<Trip[]> {
  const zone = browserTimeZone();
  const from = localDayOf(now - (MY_TRIPS_DAYS - 1) * 86_400_000, zone);
  const to = localDayOf(now, zone);
  const list = await apiRequest('GET', `${routes.getTrips.path}?${new URLSearchParams({ imei, from, to }).toString()}`, { schema: tripListSchema });
  const trips = [...list.trips].reverse();
  await storeTrips(userId, imei, trips, now);
  return trips;
}

/** The outbox holds changes to send: the update prompt waits for them. */
export function markOutboxBusy(pending: number): void {
  setBusy('my-trips-outbox', pending > 0);
}
