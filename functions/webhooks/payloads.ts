/**
 * The `data` of each webhook event type (docs/api.md Webhooks), built in one place for the event
 * sources and for the test button's samples, so a sample has exactly the shape of the real thing.
 * Times are ISO 8601 in UTC; distances in km, speeds in km/h.
 */
import type { WebhookEventType } from '../../shared/schemas/webhooks';
import type { Command } from '../../shared/schemas/commands';
import type { EventItem } from '../events/event-item';
import type { TripItem } from '../trips/trip-item';
import type { EmitInput } from './emit';

const iso = (ms: number) => new Date(ms).toISOString();

/** An event recorded by the event engine or a job: an alarm, and/or a geofence enter or exit. */
export function eventPayloads(item: Pick<EventItem, 'imei' | 'sk' | 'accountId' | 'unitName' | 'type' | 'ts' | 'lat' | 'lon' | 'alarm' | 'details'>): EmitInput[] {
  const eventId = `${item.imei}.${item.sk}`;
  const common = { eventId, imei: item.imei, unitName: item.unitName, eventType: item.type, time: iso(item.ts), lat: item.lat, lon: item.lon, details: item.details };
  const out: EmitInput[] = [];
  if (item.alarm) out.push({ accountId: item.accountId, imei: item.imei, type: 'alarm', occurredAt: iso(item.ts), sourceId: `event:${eventId}`, data: common });
  if (item.type === 'geofenceEnter' || item.type === 'geofenceExit') {
    const geofence = { id: item.details['geofenceId'] ?? null, name: item.details['geofence'] ?? null };
    out.push({ accountId: item.accountId, imei: item.imei, type: item.type, occurredAt: iso(item.ts), sourceId: `event:${eventId}`, data: { ...common, geofence } });
  }
  return out;
}

export function tripClosedPayload(trip: Pick<TripItem, 'imei' | 'accountId' | 'startTs' | 'stopTs' | 'startLat' | 'startLon' | 'stopLat' | 'stopLon' | 'distanceM' | 'maxSpeedKmh' | 'type' | 'driverId'>, unitName: string): EmitInput {
  const tripId = `${trip.imei}.${trip.startTs}`;
  return {
    accountId: trip.accountId,
    imei: trip.imei,
    type: 'tripClosed',
    occurredAt: iso(trip.stopTs),
    sourceId: `trip:${tripId}`,
    data: {
      tripId,
      imei: trip.imei,
      unitName,
      startTime: iso(trip.startTs),
      stopTime: iso(trip.stopTs),
      start: { lat: trip.startLat, lon: trip.startLon },
      stop: { lat: trip.stopLat, lon: trip.stopLon },
      distanceKm: Math.round(trip.distanceM / 10) / 100,
      maxSpeedKmh: trip.maxSpeedKmh ?? null,
      tripType: trip.type ?? null,
      driverId: trip.driverId ?? null,
    },
  };
}

export function commandAcknowledgedPayload(accountId: string, command: Command): EmitInput {
  return {
    accountId,
    imei: command.imei,
    type: 'commandAcknowledged',
    occurredAt: command.answeredAt ?? command.updatedAt,
    sourceId: `command:${command.imei}.${command.id}`,
    data: { commandId: command.id, imei: command.imei, commandType: command.type, params: command.params, sentAt: command.createdAt, acknowledgedAt: command.answeredAt },
  };
}

export function unitOfflinePayload(unit: { accountId: string; imei: string; name: string; lastSeen: number; lat: number | null; lon: number | null }, offlineAfterMs: number): EmitInput {
  return {
    accountId: unit.accountId,
    imei: unit.imei,
    type: 'unitOffline',
    occurredAt: iso(unit.lastSeen + offlineAfterMs),
    // One per silence: the next silence has another lastSeen.
    sourceId: `offline:${unit.imei}.${unit.lastSeen}`,
    data: { imei: unit.imei, unitName: unit.name, lastSeen: iso(unit.lastSeen), silentForSeconds: Math.round(offlineAfterMs / 1000), lastPosition: unit.lat === null || unit.lon === null ? null : { lat: unit.lat, lon: unit.lon } },
  };
}

/** A sample of `type` for the test button: the real shape, values of a made-up unit, `test: true` in the data. */
export function samplePayload(accountId: string, type: WebhookEventType, now: Date, sourceId: string): EmitInput {
  const ms = now.getTime();
  const imei = '350000000000000';
  const unit = 'Test unit';
  let sample: EmitInput;
  switch (type) {
    case 'alarm':
    case 'geofenceEnter':
    case 'geofenceExit': {
      const eventType = type === 'alarm' ? 'overspeed' : type;
      const details: Record<string, string | number> = type === 'alarm' ? { speed: 112, limit: 90 } : { geofenceId: 'gf-sample', geofence: 'Depot' };
      sample = eventPayloads({ imei, sk: `${ms}#${eventType}#sample`, accountId, unitName: unit, type: eventType, ts: ms, lat: 59.3293, lon: 18.0686, alarm: true, details }).find((p) => p.type === type)!;
      break;
    }
    case 'tripClosed':
      sample = tripClosedPayload(
        { imei, accountId, startTs: ms - 1_800_000, stopTs: ms, startLat: 59.3293, startLon: 18.0686, stopLat: 59.8586, stopLon: 17.6389, distanceM: 71_400, maxSpeedKmh: 118, type: 'business', driverId: undefined },
        unit,
      );
      break;
    case 'commandAcknowledged':
      sample = commandAcknowledgedPayload(accountId, {
        id: 'cmd-sample',
        imei,
        type: 'dout',
        params: { output: 1, on: true },
        status: 'acknowledged',
        createdAt: iso(ms - 5_000),
        answeredAt: iso(ms),
        updatedAt: iso(ms),
        error: null,
      });
      break;
    case 'unitOffline':
      sample = unitOfflinePayload({ accountId, imei, name: unit, lastSeen: ms - 3_900_000, lat: 59.3293, lon: 18.0686 }, 3_900_000);
      break;
  }
  // Of no unit: a sample is sent whatever the units' locks.
  const { imei: _made_up, ...ofNoUnit } = sample;
  return { ...ofNoUnit, sourceId, data: { ...sample.data, test: true } };
}
