/**
 * What happens to an event once its transition is stored (stage.ts), or once a job decided on it
 * (safe return home, service intervals): it is stored with the account's retention, goes out on
 * the unit's live topics (`type: "event"`), and, when it is an alarm, is handed to the alert queue
 * whose consumer (deliver-alert.ts) sends it to the unit's alarm receivers.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { retentionOf } from '../ingest/repository';
import { isConditionFailure } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import { logger } from '../platform/logger';
import type { Ports } from '../platform/ports';
import { liveAudienceOf, type UnitItem } from '../domain/unit/schema';
import { eventSortKey, toEvent, type EventItem } from './event-item';
import { z } from 'zod';
import { eventTypeSchema } from '../../shared/schemas/events';
import { emitWebhookEvent } from '../webhooks/emit';
import { eventPayloads } from '../webhooks/payloads';

const DAY_MS = 86_400_000;
const ENQUEUE_TRIES = 3;

/** An event raised by the engine (stage.ts) or a job, as its effect carries it. */
export const raisedEventSchema = z.object({
  type: eventTypeSchema,
  ts: z.number(),
  key: z.string().min(1),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  alarm: z.boolean(),
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});

export type EventToRecord = z.infer<typeof raisedEventSchema>;

/**
 * Stores, publishes and (for an alarm) enqueues an event; false when it was stored before (nothing
 * is sent again). Alarms and geofence enters and exits also go to the account's webhooks, also
 * when stored before: their delivery ids derive from the event, so a repeat is dropped there, and
 * a first run that died before emitting is made good.
 */
export async function recordEvent(
  unit: Pick<UnitItem, 'imei' | 'accountId' | 'name' | 'viewers'>,
  event: EventToRecord,
  ports: Pick<Ports, 'live' | 'alerts' | 'queues' | 'clock'>,
): Promise<boolean> {
  const retentionDays = await retentionOf(unit.accountId);
  const item: EventItem = {
    imei: unit.imei,
    sk: eventSortKey(event.ts, event.type, event.key),
    accountId: unit.accountId,
    unitName: unit.name,
    type: event.type,
    ts: event.ts,
    lat: event.lat,
    lon: event.lon,
    alarm: event.alarm,
    details: event.details,
    expiresAt: Math.floor((event.ts + retentionDays * DAY_MS) / 1000),
  };
  const toWebhooks = () => Promise.all(eventPayloads(item).map((payload) => emitWebhookEvent(payload, ports)));
  try {
    await dynamo().send(new PutCommand({ TableName: tableName('events'), Item: item, ConditionExpression: 'attribute_not_exists(sk)' }));
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    await toWebhooks();
    return false;
  }
  await toWebhooks();
  try {
    await ports.live.publish(liveAudienceOf(unit), { type: 'event', imei: unit.imei, event: toEvent(item, 'UTC') });
  } catch (error) {
    logger.warn('live publish of an event failed', { imei: unit.imei, sk: item.sk, error: error instanceof Error ? error.message : String(error) });
  }
  if (!item.alarm) return true;
  for (let attempt = 1; ; attempt++) {
    try {
      await ports.alerts.enqueue({ imei: item.imei, sk: item.sk });
      return true;
    } catch (error) {
      if (attempt >= ENQUEUE_TRIES) throw error;
      await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
    }
  }
}
