/**
 * Events the event engine raises at ingest (functions/events) and the jobs raise (safe return home,
 * service intervals): GET /api/v1/user/events and the live channel's `type: "event"` messages.
 */
import { z } from 'zod';
import { IMEI_PATTERN } from '../validators/imei';

export const eventTypes = [
  'geofenceEnter',
  'geofenceExit',
  'overspeed',
  'lowBattery',
  'powerCut',
  'dinChange',
  'theftMovement',
  'sensorAlarm',
  'notHome',
  'serviceDue',
  // Eco driving (shared/eco.ts): recorded, never alarms.
  'harshAcceleration',
  'harshBraking',
  'harshCornering',
  'overspeedEpisode',
  'idling',
] as const;
export const eventTypeSchema = z.enum(eventTypes);
export type EventType = z.infer<typeof eventTypeSchema>;

/** An event as the API and the live channel answer it. `details` depends on the type (zone name, speed, input, ...). */
export const eventSchema = z.object({
  id: z.string(),
  imei: z.string(),
  /** The unit's name when the event was raised. */
  unitName: z.string(),
  /** ISO 8601 with offset, in the caller's zone. */
  time: z.string(),
  type: eventTypeSchema,
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  /** Whether it was an alarm (sent to the unit's alarm receivers) or only recorded. */
  alarm: z.boolean(),
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});
export type PortalEvent = z.infer<typeof eventSchema>;

/** At most this many events per answer, newest first. */
export const EVENTS_MAX = 500;
/** The longest period one request may ask for. */
export const EVENTS_MAX_DAYS = 92;

const periodMs = (q: { from: string; to: string }) => Date.parse(q.to) - Date.parse(q.from);

export const eventsQuerySchema = z
  .object({
    /** One unit; without it, every unit the caller may see (the alerts page). */
    imei: z.string().regex(IMEI_PATTERN, 'InvalidImei').optional(),
    from: z.iso.datetime({ offset: true, message: 'InvalidDate' }),
    to: z.iso.datetime({ offset: true, message: 'InvalidDate' }),
    type: eventTypeSchema.optional(),
  })
  .refine((q) => !(periodMs(q) <= 0), { path: ['to'], message: 'EndDateMustBeAfterStart' })
  .refine((q) => !(periodMs(q) > EVENTS_MAX_DAYS * 86_400_000), { path: ['to'], message: 'EventPeriodTooLong' });

export const eventListSchema = z.object({ events: z.array(eventSchema), truncated: z.boolean() });
export type EventList = z.infer<typeof eventListSchema>;
