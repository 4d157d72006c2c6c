/** The events capability's routes (spread into the manifest, shared/routes.ts). */
import { eventListSchema, eventsQuerySchema } from '../schemas/events';
import { defineRoute } from '../route-def';

export const eventRoutes = {
  getEvents: defineRoute({
    operationId: 'getEvents',
    method: 'GET',
    path: '/api/v1/user/events',
    capability: 'events',
    file: 'get-events',
    access: 'member',
    apiKeyScope: 'events:read',
    summary:
      "Events the event engine and the jobs raised (geofence enter and exit, overspeed, low battery, power cut, input changes, theft-mode movement, not home, ...) in a period (ISO times with offset, at most 92 days: EventPeriodTooLong), newest first, at most 500 (truncated: true beyond): one unit's with `imei`, otherwise every unit the caller may see. A unit that is not the caller's: 404.",
    query: eventsQuerySchema,
    response: eventListSchema,
  }),
} as const;
