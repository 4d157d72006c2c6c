/**
 * The stored event (shared/tables.ts `events`): per unit by `sk` = device time (13 digits), type
 * and key, so one unit's period is one Query in time order and an event is written once (the sk
 * is derived from what raised it); per account through the `byAccount` index.
 */
import { z } from 'zod';
import { eventTypeSchema, type PortalEvent } from '../../shared/schemas/events';
import { isoInZone } from '../../shared/local-time';

export const eventItemSchema = z.object({
  imei: z.string(),
  sk: z.string(),
  accountId: z.string(),
  unitName: z.string(),
  type: eventTypeSchema,
  ts: z.number(),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  alarm: z.boolean(),
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  expiresAt: z.number(),
});
export type EventItem = z.infer<typeof eventItemSchema>;

export const eventSortKey = (ts: number, type: string, key: string): string => `${String(ts).padStart(13, '0')}#${type}#${key}`;
/** The sort key range of a period, inclusive. */
export const eventKeyRange = (fromMs: number, toMs: number): [string, string] => [String(Math.max(0, fromMs)).padStart(13, '0'), `${String(toMs).padStart(13, '0')}#~`];

/** An event as the API answers it: its id is the unit and sort key, its time in the caller's zone. */
export function toEvent(item: EventItem, zone: string): PortalEvent {
  return {
    id: `${item.imei}.${item.sk}`,
    imei: item.imei,
    unitName: item.unitName,
    time: isoInZone(item.ts, zone),
    type: item.type,
    lat: item.lat,
    lon: item.lon,
    alarm: item.alarm,
    details: item.details,
  };
}
