/**
 * The `geofences` item (pk accountId, sk id) and what is derived from it: the copy each assigned
 * unit carries (`zones` in its unit-copies item, functions/domain/unit/copies.ts) and the answer of the
 * API. Every read goes through `parseGeofenceItem`.
 */
import { z } from 'zod';
import { geofenceSchema, type Geofence, type GeofenceInput } from '../../shared/schemas/geofences';
import type { UnitZone } from '../domain/unit/schema';

/** The API's geofence without the units' display names, and what the store keeps besides. */
export const geofenceItemSchema = geofenceSchema.omit({ units: true }).extend({
  accountId: z.string(),
  /** The zone the schedule's times are read in: the TimeZone header of the save. */
  timeZone: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  updatedBy: z.string(),
  /** Version: every write is conditional on the one read. */
  v: z.number().int().nonnegative(),
});
export type GeofenceItem = z.infer<typeof geofenceItemSchema>;

export function parseGeofenceItem(raw: Record<string, unknown>): GeofenceItem {
  return geofenceItemSchema.parse(raw);
}

/** The item a save writes: the input over what was there (or a new one). */
export function nextGeofenceItem(
  before: GeofenceItem | null,
  at: { accountId: string; id: string; userId: string; timeZone: string; now: Date },
  input: GeofenceInput,
): GeofenceItem {
  const now = at.now.toISOString();
  return {
    accountId: at.accountId,
    id: at.id,
    name: input.name,
    lat: input.lat,
    lon: input.lon,
    radius: input.radius,
    imeis: input.imeis,
    alarm: input.alarm,
    active: input.active,
    theftMode: input.theftMode,
    schedule: input.schedule,
    timeZone: at.timeZone,
    createdAt: before?.createdAt ?? now,
    updatedAt: now,
    updatedBy: at.userId,
    v: (before?.v ?? 0) + 1,
  };
}

/** The copy the event engine reads on each assigned unit. */
export function zoneOf(item: GeofenceItem): UnitZone {
  return {
    name: item.name,
    lat: item.lat,
    lon: item.lon,
    radius: item.radius,
    alarm: item.alarm,
    active: item.active,
    theftMode: item.theftMode,
    off: item.schedule?.off ?? [],
    timeZone: item.timeZone,
  };
}

/**
 * The answer: the geofence with those of its units that are still the account's (and, for an
 * ordinary user, granted), with their names. `names` holds the units the caller may see.
 */
export function geofenceView(item: GeofenceItem, names: ReadonlyMap<string, string>): Geofence {
  const imeis = item.imeis.filter((imei) => names.has(imei));
  return {
    id: item.id,
    name: item.name,
    lat: item.lat,
    lon: item.lon,
    radius: item.radius,
    imeis,
    alarm: item.alarm,
    active: item.active,
    theftMode: item.theftMode,
    schedule: item.schedule,
    units: imeis.map((imei) => ({ imei, name: names.get(imei) as string })),
  };
}
