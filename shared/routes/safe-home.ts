/** The safe-home capability's routes (spread into the manifest, shared/routes.ts); docs/decisions/0024-safe-return-home.md. */
import { defineRoute } from '../route-def';
import {
  safeHomeConfigSchema,
  safeHomeGeofenceRequestSchema,
  safeHomeItemSchema,
  safeHomeListSchema,
  safeHomeScheduleRequestSchema,
  safeHomeStatusRequestSchema,
} from '../schemas/safe-home';
import { imeiParamSchema } from '../schemas/tracking';

const admin = '/api/v1/administration/safe-home';
const ITEM = "Another account's unit: 404 NotFound. Writes are conditional on the item as read, retried, and 409 SafeHomeChanged when other changes kept coming first.";

export const safeHomeRoutes = {
  getSafeHomeConfig: defineRoute({
    operationId: 'getSafeHomeConfig',
    method: 'GET',
    path: `${admin}/config`,
    capability: 'safe-home',
    file: 'get-safe-home-config',
    access: 'admin',
    summary: "Whether the account has safe return home (EnableSafeReturnHome); answered also when it does not.",
    response: safeHomeConfigSchema,
  }),
  getSafeHome: defineRoute({
    operationId: 'getSafeHome',
    method: 'GET',
    path: admin,
    capability: 'safe-home',
    file: 'get-safe-home',
    access: 'admin',
    feature: 'safeReturnHome',
    summary:
      "Every unit of the account with its safe return home: status 0/1, the home (address, radius, centerLat, centerLng; radius 300 when none is set), the schedule (day 0-6 with 0 Sunday, time HH:mm), frequency, start_date, time_zone and the next check (UTC) while on.",
    response: safeHomeListSchema,
  }),
  putSafeHomeStatus: defineRoute({
    operationId: 'putSafeHomeStatus',
    method: 'PUT',
    path: `${admin}/{imei}/status`,
    capability: 'safe-home',
    file: 'put-safe-home-status',
    access: 'admin',
    feature: 'safeReturnHome',
    summary: `Turns the unit's safe return home on (1) or off (0). On needs both a home and a schedule: otherwise 422 SafeHomeEnableMsg. ${ITEM}`,
    params: imeiParamSchema,
    body: safeHomeStatusRequestSchema,
    response: safeHomeItemSchema,
  }),
  putSafeHomeGeofence: defineRoute({
    operationId: 'putSafeHomeGeofence',
    method: 'PUT',
    path: `${admin}/{imei}/geofence`,
    capability: 'safe-home',
    file: 'put-safe-home-geofence',
    access: 'admin',
    feature: 'safeReturnHome',
    summary: `Sets the unit's home (message HomeAddressUpdateMsg): radius 300 to 9999 m, default 300 (RadiusLessThan300, RadiusTooLarge); centerLat, centerLng kept to 6 decimals (SafeHomeInvalidPosition); the address must be given and found by the geocoder (SafeReturnHomeAddrEmpty). ${ITEM}`,
    params: imeiParamSchema,
    body: safeHomeGeofenceRequestSchema,
    response: safeHomeItemSchema,
  }),
  putSafeHomeSchedule: defineRoute({
    operationId: 'putSafeHomeSchedule',
    method: 'PUT',
    path: `${admin}/{imei}/schedule`,
    capability: 'safe-home',
    file: 'put-safe-home-schedule',
    access: 'admin',
    feature: 'safeReturnHome',
    summary: `Sets the unit's alert schedule (message AlertScheduleUpdated): schedule, a list (or its JSON text) of { day 0-6 (0 Sunday), time HH:mm } with each day at most once (SafeHomeScheduleRequired, SafeHomeInvalidDay, SafeHomeDuplicateDay, InvalidTime); frequency 1, 2 or 3 weeks (SafeHomeInvalidFrequency) counted from the calendar week of start_date yyyy-MM-dd (SafeHomeInvalidStartDate); the times are local in time_zone, an IANA zone (InvalidTimeZone). ${ITEM}`,
    params: imeiParamSchema,
    body: safeHomeScheduleRequestSchema,
    response: safeHomeItemSchema,
  }),
} as const;
