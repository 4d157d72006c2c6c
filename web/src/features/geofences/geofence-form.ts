/**
 * The geofence editor's form: its values, their check with the shared schemas (so the browser
 * refuses what the server would, with the same keys), the request they become, and where the
 * server's 422 keys go in the form.
 */
import { z } from 'zod';
import {
  GEOFENCE_MAX_UNITS,
  geofenceMessageKeys as keys,
  geofenceNameSchema,
  geofenceRadiusSchema,
  type Geofence,
  type GeofenceRequest,
} from '../../../../shared/schemas/geofences';
import { weeklyWindowsSchema, type WeeklyWindow } from '../../../../shared/schemas/schedule';

export const DEFAULT_RADIUS_M = 500;

export const geofenceFormSchema = z.object({
  name: geofenceNameSchema,
  center: z
    .object({ lat: z.number().min(-90).max(90), lon: z.number().min(-180).max(180) }, { message: keys.GeofenceInvalidPosition })
    .nullable()
    .refine((v) => v !== null, keys.GeofenceInvalidPosition),
  radius: geofenceRadiusSchema,
  imeis: z.array(z.string()).max(GEOFENCE_MAX_UNITS, keys.GeofenceTooManyUnits),
  alarm: z.boolean(),
  active: z.boolean(),
  theftMode: z.boolean(),
  windows: weeklyWindowsSchema,
});

export interface GeofenceFormValues {
  name: string;
  center: { lat: number; lon: number } | null;
  radius: number;
  imeis: string[];
  alarm: boolean;
  active: boolean;
  theftMode: boolean;
  windows: WeeklyWindow[];
}

export function formValuesOf(g: Geofence | undefined): GeofenceFormValues {
  if (!g) return { name: '', center: null, radius: DEFAULT_RADIUS_M, imeis: [], alarm: true, active: true, theftMode: false, windows: [] };
  return {
    name: g.name,
    center: { lat: g.lat, lon: g.lon },
    radius: g.radius,
    imeis: g.imeis,
    alarm: g.alarm,
    active: g.active,
    theftMode: g.theftMode,
    windows: g.schedule?.off ?? [],
  };
}

export function requestOf(values: GeofenceFormValues): GeofenceRequest {
  const center = values.center ?? { lat: NaN, lon: NaN };
  return {
    name: values.name.trim(),
    lat: center.lat,
    lon: center.lon,
    radius: values.radius,
    imeis: values.imeis,
    alarm: values.alarm,
    active: values.active,
    theftMode: values.theftMode,
    schedule: values.windows.length ? { off: values.windows } : null,
  };
}

/** The form field a server error's field names: lat and lon are the centre, schedule.off.N the windows. */
export function formFieldOf(serverField: string): string | null {
  if (serverField === 'lat' || serverField === 'lon') return 'center';
  if (serverField === 'schedule' || serverField === 'schedule.off') return 'windows';
  const windowField = /^schedule\.off\.(\d+)\.(days|from|to)(?:\.\d+)?$/.exec(serverField);
  if (windowField) return `windows.${windowField[1]}.${windowField[2]}`;
  if (['name', 'radius', 'imeis', 'alarm', 'active', 'theftMode'].includes(serverField)) return serverField;
  return null;
}
